-- Procedures whose write set is found only as they run (each runs alone in its epoch):
-- nextval() under a condition or after a statement that can fail (Voter's "check, maybe
-- return early, then INSERT ... nextval()"), keys from FOUND and from a write's RETURNING,
-- reads of a table after the call changed it, loops whose end depends on what they read.
-- The values drawn, gaps of failed calls included, are PostgreSQL's in serial order.
CREATE SEQUENCE vote_ids;
CREATE TABLE contestants (id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE votes (vote_id bigint PRIMARY KEY, phone bigint NOT NULL, contestant integer NOT NULL);
CREATE TABLE rejections (id serial PRIMARY KEY, phone bigint, why text);
CREATE TABLE tags (id serial PRIMARY KEY, name text NOT NULL UNIQUE, uses integer NOT NULL DEFAULT 0);
CREATE TABLE chain (n integer PRIMARY KEY, next integer);
CREATE TABLE audit (id bigint PRIMARY KEY, what text);
CREATE SEQUENCE audit_ids START 100 INCREMENT 10;
INSERT INTO contestants VALUES (1, 'Edwina'), (2, 'Ramon'), (3, 'Zeke');
INSERT INTO chain VALUES (1, 2), (2, 3), (3, 5), (5, 8), (8, NULL);

CREATE FUNCTION vote(p_phone bigint, p_contestant integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM 1 FROM contestants WHERE id = p_contestant;
  IF NOT FOUND THEN
    INSERT INTO rejections (phone, why) VALUES (p_phone, 'no contestant ' || p_contestant);
    RETURN 1;
  END IF;
  SELECT count(*) INTO n FROM votes WHERE phone = p_phone;
  IF n >= 2 THEN
    INSERT INTO rejections (phone, why) VALUES (p_phone, 'over the limit');
    RETURN 2;
  END IF;
  INSERT INTO votes VALUES (nextval('vote_ids'), p_phone, p_contestant);
  RETURN 0;
END $$;

-- The tag's key comes from FOUND and from the INSERT's RETURNING.
CREATE FUNCTION tag(p_name text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  SELECT id INTO v_id FROM tags WHERE name = p_name;
  IF NOT FOUND THEN
    INSERT INTO tags (name) VALUES (p_name) RETURNING id INTO v_id;
  END IF;
  UPDATE tags SET uses = uses + 1 WHERE id = v_id;
  RETURN v_id;
END $$;

-- A plain INSERT that can fail on a duplicate comes before the nextval(): a failed call
-- draws nothing. A RAISE after it: a failed call keeps its gap.
CREATE FUNCTION note(p_id bigint, p_what text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  INSERT INTO audit VALUES (p_id, p_what);
  v := nextval('audit_ids');
  INSERT INTO audit VALUES (v, 'after ' || p_id);
  IF p_what = 'bad' THEN
    RAISE EXCEPTION 'bad note %', v;
  END IF;
  RETURN v;
END $$;

-- Walks the chain from p_start, then moves its head; the walk's keys come from its reads.
CREATE FUNCTION walk(p_start integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  cur integer := p_start;
  steps integer := 0;
  nxt integer;
BEGIN
  WHILE cur IS NOT NULL LOOP
    SELECT next INTO nxt FROM chain WHERE n = cur;
    EXIT WHEN NOT FOUND;
    steps := steps + 1;
    UPDATE chain SET next = next WHERE n = cur;
    cur := nxt;
  END LOOP;
  IF steps > 0 AND p_start > 1 THEN
    DELETE FROM chain WHERE n = p_start;
    INSERT INTO chain VALUES (p_start + 10, p_start);
  END IF;
  RETURN steps;
END $$;

-- INSERT ... SELECT into a table whose key comes from a serial: a value per row.
CREATE TABLE copies (id serial PRIMARY KEY, phone bigint, contestant integer);
CREATE FUNCTION copy_votes(p_contestant integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  k integer;
BEGIN
  INSERT INTO copies (phone, contestant) SELECT phone, contestant FROM votes WHERE contestant = p_contestant ORDER BY vote_id;
  GET DIAGNOSTICS k = ROW_COUNT;
  RETURN k;
END $$;

--- calls: serial_procedures 160
INSERT INTO copies (phone, contestant) SELECT phone, 0 FROM votes ORDER BY vote_id DESC LIMIT 3;
SELECT id, phone, contestant FROM copies ORDER BY id;
SELECT vote_id, phone, contestant FROM votes ORDER BY vote_id;
SELECT id, phone, why FROM rejections ORDER BY id;
SELECT id, name, uses FROM tags ORDER BY id;
SELECT id, what FROM audit ORDER BY id;
SELECT n, next FROM chain ORDER BY n;
SELECT nextval('vote_ids'), nextval('audit_ids');
