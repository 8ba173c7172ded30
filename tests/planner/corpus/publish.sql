-- The publish point: after the last statement that can still make the call fail; writes
-- after it are visible to later transactions at once.
CREATE TABLE counter (k integer PRIMARY KEY, n bigint, label text);
INSERT INTO counter VALUES (1, 0, 'one'), (2, 0, 'two');

-- 20. checks first, then writes that cannot fail: published after the check
CREATE FUNCTION guarded_reset(p_k integer, p_allowed boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT p_allowed THEN
    RAISE EXCEPTION 'reset of % refused', p_k USING ERRCODE = 'P0042';
  END IF;
  UPDATE counter SET n = NULL, label = 'reset' WHERE k = p_k;
END $$;
EXPLAIN PROCEDURE guarded_reset;

-- 21. nothing can fail: published before the first statement
CREATE PROCEDURE relabel(p_k integer, p_label text) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counter SET label = p_label WHERE k = p_k;
END $$;
EXPLAIN PROCEDURE relabel;

-- 22. arithmetic and a plain INSERT can fail: the end is the publish point
CREATE FUNCTION add_and_log(p_k integer, p_d bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counter SET n = n + p_d WHERE k = p_k;
  INSERT INTO counter VALUES (p_k + 100, p_d, 'log');
END $$;
EXPLAIN PROCEDURE add_and_log;

-- 23. a row written in a loop after the last check is not published early
CREATE FUNCTION tag_all(p_keys integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_k integer;
BEGIN
  FOREACH v_k IN ARRAY p_keys LOOP
    UPDATE counter SET label = 'tagged' WHERE k = v_k;
  END LOOP;
END $$;
EXPLAIN PROCEDURE tag_all;

-- 24. an EXCEPTION block's writes stay undoable to its end: the publish point follows it,
-- and a handler's writes are declared with the block's (unused ones become ignore markers)
CREATE FUNCTION try_insert(p_k integer, p_d bigint) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counter SET n = n + 1 WHERE k = 1;
  BEGIN
    INSERT INTO counter VALUES (p_k, p_d, 'new');
  EXCEPTION WHEN unique_violation THEN
    UPDATE counter SET n = n + p_d WHERE k = p_k;
  END;
  UPDATE counter SET label = 'seen' WHERE k = 2;
  RETURN 'done';
END $$;
EXPLAIN PROCEDURE try_insert;
EXPLAIN CALL try_insert(7, 3);

SELECT guarded_reset(1, false);
SELECT guarded_reset(1, true);
CALL relabel(2, 'deux');
SELECT add_and_log(2, 5);
SELECT add_and_log(2, 5);
SELECT tag_all(ARRAY[2, 2, 1]);
SELECT try_insert(7, 3);
SELECT try_insert(7, 4);
SELECT * FROM counter ORDER BY k;
