-- Dependent writes: the key comes from a lookup through a secondary index, racing calls
-- that change the indexed column. Reconnaissance must end as the serial order does.
CREATE TABLE member (id integer PRIMARY KEY, email varchar(40) NOT NULL, points integer NOT NULL);
CREATE INDEX member_email ON member (email);

CREATE FUNCTION award(p_email varchar, p_points integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  SELECT id INTO v_id FROM member WHERE email = p_email ORDER BY id LIMIT 1;
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  UPDATE member SET points = points + p_points WHERE id = v_id;
  RETURN v_id;
END $$;

CREATE FUNCTION rename(p_id integer, p_email varchar) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member SET email = p_email WHERE id = p_id;
END $$;

INSERT INTO member VALUES (1, 'a@x', 0), (2, 'b@x', 0), (3, 'c@x', 0), (4, 'd@x', 0), (5, 'e@x', 0);
--- calls: dependent 300
SELECT id, email, points FROM member ORDER BY id;
