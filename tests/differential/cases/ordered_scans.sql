-- ORDER BY that a primary-key scan already gives (no sort, LIMIT ends the scan; RETURN
-- QUERY streams its rows) and ORDER BY that needs sorting, side by side: the same rows
-- in the same order as PostgreSQL, with OFFSET and LIMIT, in procedures and ad hoc.
CREATE TABLE grid (a integer, b integer, c text NOT NULL, v integer, PRIMARY KEY (a, b, c));

CREATE FUNCTION put(p_a integer, p_b integer, p_c text, p_v integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO grid VALUES (p_a, p_b, p_c, p_v) ON CONFLICT (a, b, c) DO UPDATE SET v = EXCLUDED.v;
END $$;

CREATE FUNCTION drop_row(p_a integer, p_b integer, p_c text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM grid WHERE a = p_a AND b = p_b AND c = p_c;
END $$;

-- Key order after the fixed column: streamed, LIMIT and OFFSET on the way.
CREATE FUNCTION row_of(p_a integer, p_off integer, p_lim integer)
  RETURNS TABLE (rb integer, rc text, rv integer) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT b, c, v FROM grid WHERE a = p_a ORDER BY b, c OFFSET p_off LIMIT p_lim;
END $$;

-- The fixed column named in the ORDER BY too, and a hidden sort column.
CREATE FUNCTION row_values(p_a integer) RETURNS TABLE (rv integer) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT v FROM grid WHERE a = p_a ORDER BY a, b, a, c;
END $$;

-- Needs a sort: descending, a non-key column, or key columns out of order.
CREATE FUNCTION sorted_of(p_a integer, p_lim integer) RETURNS TABLE (rb integer, rc text, rv integer)
  LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT b, c, v FROM grid WHERE a = p_a ORDER BY b DESC, c LIMIT p_lim;
  RETURN QUERY SELECT b, c, v FROM grid WHERE a = p_a ORDER BY v NULLS FIRST, b, c LIMIT p_lim;
  RETURN QUERY SELECT b, c, v FROM grid WHERE a = p_a ORDER BY c, b LIMIT p_lim;
END $$;

-- Range scans: a bound on the first key column, then the rest of the key in order.
CREATE FUNCTION band(p_lo integer, p_hi integer, p_lim integer) RETURNS TABLE (ra integer, rb integer, rc text)
  LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT a, b, c FROM grid WHERE a >= p_lo AND a < p_hi ORDER BY a, b, c LIMIT p_lim;
  IF NOT FOUND THEN
    RAISE NOTICE 'band % to %: empty', p_lo, p_hi;
  END IF;
END $$;

--- calls: ordered_scans 300
SELECT a, b, c, v FROM grid ORDER BY a, b, c;
SELECT a, b, c FROM grid ORDER BY a, b, c LIMIT 5;
SELECT a, b, c FROM grid ORDER BY a, b, c OFFSET 3 LIMIT 4;
SELECT b, c FROM grid WHERE a = 2 ORDER BY b, c LIMIT 3;
SELECT b, c FROM grid WHERE a = 2 ORDER BY a, b, c;
SELECT a, b, c FROM grid ORDER BY b, a, c LIMIT 6;
SELECT a, b, c FROM grid ORDER BY a DESC, b, c LIMIT 6;
SELECT a, b, c FROM grid WHERE a = 3 AND b = 1 ORDER BY c LIMIT 2;
SELECT DISTINCT a FROM grid ORDER BY a;
SELECT DISTINCT b, v FROM grid WHERE a = 2 ORDER BY v NULLS FIRST, b;
SELECT DISTINCT v IS NULL AS no_v, b FROM grid ORDER BY 2, 1;
SELECT DISTINCT a + b FROM grid ORDER BY 1 DESC LIMIT 3;
SELECT DISTINCT a, b FROM grid ORDER BY a, b OFFSET 2 LIMIT 4;
SELECT DISTINCT count(*) FROM grid;
-- DISTINCT inside aggregates: the distinct non-NULL values, per group and overall
SELECT count(DISTINCT v), count(v), sum(DISTINCT v), avg(DISTINCT v), min(DISTINCT c), max(DISTINCT v), count(DISTINCT c) FROM grid;
SELECT a, count(DISTINCT v), sum(DISTINCT b), avg(DISTINCT v), count(DISTINCT c) FROM grid GROUP BY a ORDER BY a;
SELECT count(DISTINCT v) FROM grid WHERE a < 0;
CREATE FUNCTION grid_distinct_v(p_a integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT count(DISTINCT v) + sum(DISTINCT b) INTO n FROM grid WHERE a = p_a;
  RETURN n;
END $$;
SELECT grid_distinct_v(1);
SELECT grid_distinct_v(2);
-- FILTER (WHERE ...) on aggregates: rows the condition does not hold for are not added
SELECT count(*) FILTER (WHERE v > 5), count(v) FILTER (WHERE a = 1), sum(b) FILTER (WHERE v IS NOT NULL),
       avg(v) FILTER (WHERE a > 100), count(DISTINCT c) FILTER (WHERE b < 3) FROM grid;
SELECT a, count(*), count(*) FILTER (WHERE v >= 5), max(c) FILTER (WHERE b <> 2) FROM grid GROUP BY a ORDER BY a;
SELECT a FROM grid GROUP BY a HAVING count(*) FILTER (WHERE v > 5) > 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE count(*) > 1) FROM grid;
CREATE FUNCTION grid_count_over(p_v integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT count(*) FILTER (WHERE v > p_v) INTO n FROM grid;
  RETURN n;
END $$;
SELECT grid_count_over(0);
SELECT grid_count_over(50);
