-- Dependent keys: the key needs a value read from the database first. The init program
-- reads it from the last committed state (reconnaissance) and the call starts an epoch.
CREATE TABLE person (id integer PRIMARY KEY, email text NOT NULL, points integer NOT NULL DEFAULT 0);
CREATE INDEX person_email ON person (email);
CREATE TABLE directory (email text PRIMARY KEY, person_id integer NOT NULL);
INSERT INTO person VALUES (1, 'a@x', 0), (2, 'b@x', 0), (3, 'c@x', 0);
INSERT INTO directory VALUES ('a@x', 1), ('b@x', 2), ('c@x', 3);

-- 13. the key comes from a point read of another table
CREATE FUNCTION award(p_email text, p_points integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  SELECT person_id INTO STRICT v_id FROM directory WHERE email = p_email;
  UPDATE person SET points = points + p_points WHERE id = v_id;
  RETURN v_id;
END $$;
EXPLAIN PROCEDURE award;

-- 14. the key comes from a read through a secondary index, via an assignment
CREATE FUNCTION award_by_email(p_email text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_found integer;
  v_target integer;
BEGIN
  SELECT id INTO v_found FROM person WHERE email = p_email ORDER BY id LIMIT 1;
  v_target := v_found;
  UPDATE person SET points = points + 100 WHERE id = v_target;
END $$;
EXPLAIN PROCEDURE award_by_email;

-- 15. a loop whose bounds come from a read
CREATE FUNCTION award_first(p_n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_max integer;
BEGIN
  SELECT max(id) INTO v_max FROM person;
  FOR i IN 1..LEAST(v_max, p_n) LOOP
    UPDATE person SET points = points + 1 WHERE id = i;
  END LOOP;
END $$;
EXPLAIN PROCEDURE award_first;

-- 16. a FOR over a query (a record): the read, and writes keyed by its rows, found by
X
CREATE FUNCTION award_low(p_below integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  n integer := 0;
BEGIN
  FOR r IN SELECT id, points FROM person WHERE id >= 1 ORDER BY id LOOP
    IF r.points < p_below THEN
      UPDATE person SET points = r.points + 10 WHERE id = r.id;
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END $$;
EXPLAIN PROCEDURE award_low;

SELECT award('b@x', 5);
SELECT award('nobody', 5);
SELECT award_by_email('c@x');
SELECT award_first(2);
EXPLAIN CALL award('a@x', 1);
-- the reconnaissance through the index: an equality range
EXPLAIN CALL award_by_email('b@x');
EXPLAIN CALL award_first(2);
EXPLAIN CALL award_low(5);
SELECT award_low(5);
SELECT * FROM person ORDER BY id;
