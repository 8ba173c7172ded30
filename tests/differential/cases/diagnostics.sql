-- GET DIAGNOSTICS ... = ROW_COUNT after every kind of SQL statement, and counts that feed
-- later writes while range updates and deletes race inserts of the same keys.
CREATE TABLE slots (id integer PRIMARY KEY, grp integer NOT NULL, v integer NOT NULL);
CREATE TABLE tally (id integer PRIMARY KEY, touched bigint NOT NULL, calls integer NOT NULL);

-- Bumps every slot in [p_lo, p_hi]; the count goes into tally row p_t (a hot row when
-- many calls name it) and back to the caller.
CREATE FUNCTION bump_range(p_lo integer, p_hi integer, p_t integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  UPDATE slots SET v = v + 1 WHERE id >= p_lo AND id <= p_hi;
  GET DIAGNOSTICS n = ROW_COUNT;
  UPDATE tally SET touched = touched + n, calls = calls + 1 WHERE id = p_t;
  RETURN n;
END $$;

-- Point update of a hot tally row, then its count (1, or 0 when the row is missing).
CREATE FUNCTION touch(p_t integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE tally SET calls = calls + 1 WHERE id = p_t;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;

-- Inserts slot p_id unless present; deletes a range; counts both.
CREATE FUNCTION churn(p_id integer, p_del_lo integer) RETURNS TABLE (inserted integer, deleted bigint) LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO slots VALUES (p_id, p_id % 3, 0) ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  DELETE FROM slots WHERE id >= p_del_lo AND id < p_del_lo + 2;
  GET DIAGNOSTICS deleted = ROW_COUNT;
  RETURN NEXT;
END $$;

-- Every statement kind once, the count after each.
CREATE FUNCTION counts(p_lo integer, p_hi integer) RETURNS TABLE (what text, n bigint) LANGUAGE plpgsql AS $$
DECLARE
  c bigint;
  i integer;
BEGIN
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'start'; n := c; RETURN NEXT;
  UPDATE slots SET v = v + 1 WHERE id >= p_lo AND id <= p_hi;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'update range'; n := c; RETURN NEXT;
  UPDATE slots SET v = v + 1 WHERE id = p_lo;
  GET CURRENT DIAGNOSTICS i := ROW_COUNT;
  what := 'update point'; n := i; RETURN NEXT;
  UPDATE slots SET v = v + 1 WHERE id = -1;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'update none'; n := c; RETURN NEXT;
  PERFORM 1 FROM slots WHERE id >= p_lo;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'perform'; n := c; RETURN NEXT;
  SELECT v INTO i FROM slots WHERE id >= p_lo ORDER BY id;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'select into'; n := c; RETURN NEXT;
  SELECT v INTO i FROM slots WHERE id = -1;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'select point, none'; n := c; RETURN NEXT;
  SELECT count(*) INTO i FROM slots WHERE id >= p_lo;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'select count'; n := c; RETURN NEXT;
  INSERT INTO slots VALUES (p_hi + 100, 0, 0) ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'insert'; n := c; RETURN NEXT;
  INSERT INTO slots VALUES (p_hi + 100, 0, 0) ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'insert, conflict'; n := c; RETURN NEXT;
  INSERT INTO slots VALUES (p_hi + 100, 0, 0) ON CONFLICT (id) DO UPDATE SET v = slots.v + 1;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'upsert'; n := c; RETURN NEXT;
  FOR j IN 1..3 LOOP
    i := j;
  END LOOP;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'after a loop'; n := c; RETURN NEXT;
  RETURN QUERY SELECT 'query row', id::bigint FROM slots WHERE id >= p_lo AND id <= p_hi ORDER BY id;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'return query'; n := c; RETURN NEXT;
  DELETE FROM slots WHERE id > p_hi + 50;
  GET DIAGNOSTICS c = ROW_COUNT;
  what := 'delete'; n := c; RETURN NEXT;
END $$;

INSERT INTO slots VALUES
  (1, 1, 0), (2, 2, 0), (3, 0, 0), (4, 1, 0), (5, 2, 0), (6, 0, 0), (7, 1, 0), (8, 2, 0), (9, 0, 0), (10, 1, 0),
  (11, 2, 0), (12, 0, 0), (13, 1, 0), (14, 2, 0), (15, 0, 0), (16, 1, 0), (17, 2, 0), (18, 0, 0), (19, 1, 0), (20, 2, 0),
  (21, 0, 0), (22, 1, 0), (23, 2, 0), (24, 0, 0), (25, 1, 0), (26, 2, 0), (27, 0, 0), (28, 1, 0), (29, 2, 0), (30, 0, 0);
INSERT INTO tally VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0);
SELECT * FROM counts(3, 6);
--- calls: diagnostics 300
SELECT id, grp, v FROM slots ORDER BY id;
SELECT id, touched, calls FROM tally ORDER BY id;
-- Only ROW_COUNT is supported; FOUND starts false, as in PostgreSQL.
CREATE FUNCTION found_first() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RETURN FOUND; END $$;
SELECT found_first();
-- Some columns of a function's result, by name, alias or qualified
SELECT n, what AS label FROM counts(100, 99);
SELECT c.n FROM counts(100, 99) AS c;
SELECT counts.what FROM counts(100, 99);
SELECT nope FROM counts(1, 2);
SELECT found_first FROM found_first();
SELECT f FROM found_first() AS f;
SELECT * FROM found_first() AS f;
