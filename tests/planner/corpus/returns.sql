-- Results: scalar, SETOF, RETURNS TABLE, OUT and INOUT parameters, RETURN QUERY.
CREATE TABLE sq (n integer PRIMARY KEY, sq integer);
INSERT INTO sq VALUES (1, 1), (2, 4), (3, 9), (4, 16);

-- 44. SETOF scalar with RETURN NEXT value
CREATE FUNCTION odds(p_n integer) RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..p_n LOOP
    IF i % 2 = 1 THEN
      RETURN NEXT i;
    END IF;
  END LOOP;
END $$;
SELECT * FROM odds(6);

-- 45. RETURNS TABLE with RETURN QUERY and RETURN NEXT
CREATE FUNCTION squares(p_lo integer, p_hi integer) RETURNS TABLE (n integer, square integer)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT sq.n, sq.sq FROM sq WHERE sq.n BETWEEN p_lo AND p_hi ORDER BY sq.n DESC;
  n := 0;
  square := -1;
  RETURN NEXT;
END $$;
SELECT * FROM squares(2, 3);
SELECT squares(4, 4);

-- 46. OUT and INOUT parameters
CREATE FUNCTION minmax(p_a integer, p_b integer, OUT lo integer, OUT hi integer) LANGUAGE plpgsql AS $$
BEGIN
  lo := LEAST(p_a, p_b);
  hi := GREATEST(p_a, p_b);
END $$;
SELECT * FROM minmax(5, 2);
SELECT minmax(1, 8);
CREATE PROCEDURE double_it(INOUT x integer) LANGUAGE plpgsql AS $$
BEGIN
  x := x * 2;
END $$;
CALL double_it(21);

-- 47. a scalar function must reach a RETURN
CREATE FUNCTION maybe(p boolean) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  IF p THEN
    RETURN 1;
  END IF;
END $$;
SELECT maybe(true);
SELECT maybe(false);

-- 48. RETURN QUERY's columns must have the result columns' types exactly, as
-- PostgreSQL requires (it checks when the statement runs; we check at CREATE)
CREATE FUNCTION wrong_width() RETURNS TABLE (n bigint) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT sq.n FROM sq;
END $$;
CREATE FUNCTION wrong_string() RETURNS TABLE (t text) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT 'x'::varchar;
END $$;
CREATE FUNCTION wrong_count() RETURNS TABLE (a integer, b integer) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT sq.n FROM sq;
END $$;
CREATE FUNCTION right_types() RETURNS TABLE (n bigint, t text) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT sq.n::bigint, 'x' FROM sq WHERE sq.n = 2;
END $$;
SELECT * FROM right_types();
