-- Errors at CREATE time: each names what is wrong and where; nothing is created.
CREATE TABLE t (k integer PRIMARY KEY, v integer NOT NULL, s text);
CREATE INDEX t_v ON t (v);

-- 33. unknown table, column, variable and function
CREATE FUNCTION e1() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE nosuch SET v = 1 WHERE k = 1;
END $$;
CREATE FUNCTION e2() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE t SET nosuch = 1 WHERE k = 1;
END $$;
CREATE FUNCTION e3() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN undeclared + 1;
END $$;
CREATE FUNCTION e4(p integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN frobnicate(p);
END $$;

-- 34. type errors
CREATE FUNCTION e5(p integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  IF p THEN RETURN 1; END IF;
  RETURN 0;
END $$;
CREATE FUNCTION e6(p boolean) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  x integer;
BEGIN
  x := p;
  RETURN x;
END $$;

-- 35. non-deterministic functions are refused
CREATE FUNCTION e7() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE t SET v = (random() * 10)::integer WHERE k = 1 AND setseed(0.5) IS NULL;
END $$;
CREATE FUNCTION e8() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  x timestamp := clock_timestamp();
BEGIN
END $$;

-- 36. constructs whose write set cannot be known ahead of time
CREATE FUNCTION e9(q text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
END $$;
CREATE FUNCTION e10(p integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  key integer := p;
BEGIN
  BEGIN
    UPDATE t SET v = 1 WHERE k = p;
    key := p + 1;
  EXCEPTION WHEN others THEN
    key := 0;
  END;
  UPDATE t SET v = 2 WHERE k = key;
END $$;
CREATE FUNCTION e11() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN EXECUTE 'SELECT * FROM t' LOOP
    NULL;
  END LOOP;
END $$;

-- 37. nextval() where it might not run exactly once
CREATE SEQUENCE s;
CREATE FUNCTION e12(p boolean) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  x bigint;
BEGIN
  IF p THEN
    x := nextval('s');
  END IF;
  RETURN x;
END $$;

-- 38. PL/pgSQL's own compile-time errors
CREATE FUNCTION e13() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXIT;
END $$;
CREATE FUNCTION e14() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1;
END $$;
CREATE FUNCTION e15() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  SELECT v FROM t WHERE k = 1;
  RETURN 1;
END $$;
CREATE FUNCTION e16() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c CONSTANT integer := 1;
BEGIN
  c := 2;
  RETURN c;
END $$;
CREATE FUNCTION e17() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE t SET k = k + 1 WHERE k = 1;
END $$;
CREATE FUNCTION e18() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF true THEN
END $$;
CREATE FUNCTION e19() RETURNS integer LANGUAGE sql AS 'SELECT 1';

-- 39. a write whose key depends on FOUND cannot be declared
CREATE FUNCTION e20(p integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  target integer := 0;
BEGIN
  PERFORM 1 FROM t WHERE k = p;
  IF FOUND THEN
    target := p;
  END IF;
  DELETE FROM t WHERE k = target;
END $$;

-- 40. no body, or two AS items (the PL/pgSQL parser must never see these)
CREATE FUNCTION e21() RETURNS integer LANGUAGE plpgsql;
CREATE PROCEDURE e22() LANGUAGE plpgsql;
CREATE FUNCTION e23() RETURNS integer LANGUAGE plpgsql AS 'BEGIN RETURN 1; END', 'extra';

-- 41. GET DIAGNOSTICS: only ROW_COUNT; a write whose key depends on it cannot be declared
CREATE FUNCTION e24() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c text;
BEGIN
  GET DIAGNOSTICS c = PG_CONTEXT;
  RETURN c;
END $$;
CREATE FUNCTION e25() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c text;
BEGIN
  RETURN 1;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS c = CONSTRAINT_NAME;
  RETURN c;
END $$;
CREATE FUNCTION e26(p integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE t SET v = v + 1 WHERE k >= p;
  GET DIAGNOSTICS n = ROW_COUNT;
  DELETE FROM t WHERE k = n;
END $$;

-- 42. FOR over a query: a record field the query does not have; a record elsewhere
CREATE FUNCTION e27() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT k FROM t LOOP
    RETURN r.nope;
  END LOOP;
  RETURN 0;
END $$;
CREATE FUNCTION e28() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  q record;
BEGIN
  SELECT k, v INTO r FROM t WHERE k = 1;
  q := r;
  RETURN 0;
END $$;

-- nothing above was created
-- PL/pgSQL checks what a body names when it runs (PostgreSQL's semantics): e1-e4 and
-- e27 were created, unbound; their calls and EXPLAIN PROCEDURE give the error.
SELECT e1();
SELECT e2();
SELECT e3();
SELECT e4(1);
SELECT e27();
EXPLAIN PROCEDURE e1;

SELECT count(*) FROM caracal_write_sets;
