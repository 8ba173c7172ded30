-- PL/pgSQL's name rules: inner blocks shadow outer ones, loop variables live in their
-- loop, fn.param and label.var qualify, $n names a parameter, and a name that is both a
-- column and a variable is an error.
CREATE TABLE t (k integer PRIMARY KEY, v integer);
INSERT INTO t VALUES (1, 10), (2, 20);

-- 24. shadowing and qualification
CREATE FUNCTION shadow(k integer) RETURNS text LANGUAGE plpgsql AS $$
<<blk>>
DECLARE
  x integer := 1;
BEGIN
  DECLARE
    x integer := 2;
  BEGIN
    RETURN format('%s %s %s %s', x, blk.x, shadow.k, $1);
  END;
END $$;
SELECT shadow(7);

-- 25. the loop variable hides an outer variable of the same name, only inside the loop
CREATE FUNCTION loopvar() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  i integer := 100;
  s text := '';
BEGIN
  FOR i IN 1..3 LOOP
    s := s || i;
  END LOOP;
  RETURN s || ' ' || i;
END $$;
SELECT loopvar();

-- 26. a variable named like a column is ambiguous in SQL (PostgreSQL's default)
CREATE FUNCTION ambiguous(v integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r integer;
BEGIN
  SELECT v INTO r FROM t WHERE k = 1;
  RETURN r;
END $$;

-- 27. qualified column and parameter names resolve it
CREATE FUNCTION qualified(v integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r integer;
BEGIN
  SELECT t.v INTO r FROM t WHERE t.k = qualified.v;
  RETURN r;
END $$;
SELECT qualified(2);
SELECT qualified(3);

-- 28. FOUND after a loop that did not iterate
CREATE FUNCTION found_after(p_n integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM t WHERE k = 1;
  FOR i IN 1..p_n LOOP
    NULL;
  END LOOP;
  RETURN FOUND;
END $$;
SELECT found_after(0);
SELECT found_after(1);
