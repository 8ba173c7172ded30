-- CREATE OR REPLACE, overloading and DROP for functions and procedures.
CREATE TABLE kv (k integer PRIMARY KEY, v text);

-- 40. overloads by parameter types
CREATE FUNCTION put(p_k integer, p_v text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO kv VALUES (p_k, p_v) ON CONFLICT (k) DO UPDATE SET v = excluded.v;
  RETURN 'text';
END $$;
CREATE FUNCTION put(p_k integer, p_v integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO kv VALUES (p_k, p_v::text || '!') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
  RETURN 'integer';
END $$;
SELECT put(1, 'a');
SELECT put(2, 42);
CREATE FUNCTION put(p_k integer, p_v text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN 'again';
END $$;

-- 41. CREATE OR REPLACE swaps the body; the return type cannot change
CREATE OR REPLACE FUNCTION put(p_k integer, p_v text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kv SET v = upper(p_v) WHERE k = p_k;
  RETURN 'replaced';
END $$;
SELECT put(1, 'b');
CREATE OR REPLACE FUNCTION put(p_k integer, p_v text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1;
END $$;
SELECT procedure, statement, access, key_class FROM caracal_write_sets WHERE procedure = 'put' ORDER BY 1, 2, 3;

-- 42. DROP needs the argument types when the name is overloaded
DROP FUNCTION put;
DROP FUNCTION put(integer, integer);
DROP FUNCTION put(integer);
DROP FUNCTION IF EXISTS put(integer);
SELECT put(3, 3);
DROP FUNCTION put;

-- 43. procedures are called with CALL, and dropped with DROP PROCEDURE
CREATE PROCEDURE clear_kv() LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM kv;
END $$;
SELECT clear_kv();
DROP FUNCTION clear_kv();
CALL clear_kv();
DROP PROCEDURE clear_kv();
DROP TABLE kv;
SELECT * FROM kv;
