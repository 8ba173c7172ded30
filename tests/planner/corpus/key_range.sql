-- Range writes: equality on a primary-key prefix plus bounds on the next key column (or
-- no key condition at all), resolved in the append step.
CREATE TABLE ev (grp integer, ts integer, val integer NOT NULL, tag text, PRIMARY KEY (grp, ts));
INSERT INTO ev VALUES (1, 1, 10, 'a'), (1, 2, 20, 'b'), (1, 3, 30, NULL), (2, 1, 5, 'a'), (2, 7, 7, 'z');

-- 9. range update over a prefix and a closed interval
CREATE FUNCTION bump(p_grp integer, p_lo integer, p_hi integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ev SET val = val + 1 WHERE grp = p_grp AND ts >= p_lo AND ts <= p_hi;
END $$;
EXPLAIN PROCEDURE bump;

-- 10. range delete with an open upper bound and a residual filter
CREATE FUNCTION trim_after(p_grp integer, p_ts integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ev WHERE grp = p_grp AND ts > p_ts AND tag IS NOT NULL;
END $$;
EXPLAIN PROCEDURE trim_after;

-- 11. no primary-key condition: the whole table is the range
CREATE PROCEDURE retag(p_old text, p_new text) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ev SET tag = p_new WHERE tag = p_old;
END $$;
EXPLAIN PROCEDURE retag;

-- 12. a range read aggregated into a variable, then a point write from it
CREATE FUNCTION total(p_grp integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_sum integer;
BEGIN
  SELECT COALESCE(sum(val), 0) INTO v_sum FROM ev WHERE grp = p_grp;
  INSERT INTO ev VALUES (p_grp, 0, v_sum, 'total') ON CONFLICT (grp, ts) DO UPDATE SET val = excluded.val;
  RETURN v_sum;
END $$;
EXPLAIN PROCEDURE total;

SELECT bump(1, 2, 3);
SELECT trim_after(1, 1);
CALL retag('a', 'A');
SELECT total(1);
SELECT total(2);
UPDATE ev SET val = val * 10 WHERE grp = 2;
DELETE FROM ev WHERE grp = 2 AND ts >= 5;
SELECT * FROM ev ORDER BY grp, ts;
