-- Maintenance statements a PostgreSQL schema script or application runs: TRUNCATE (one
-- transaction deleting every row, sequenced among the calls), VACUUM and ANALYZE
-- (accepted: garbage collection runs with the epochs), COMMENT ON (accepted for objects
-- that exist), CREATE SCHEMA IF NOT EXISTS public, COLLATE "C" (byte order, which is how
-- strings compare here).
CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, qty integer DEFAULT 0);
CREATE TABLE log (id integer PRIMARY KEY, item integer, what text);
CREATE FUNCTION add_item(p_name text, p_qty integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
BEGIN
  INSERT INTO items (name, qty) VALUES (p_name, p_qty) RETURNING id INTO v_id;
  INSERT INTO log VALUES (v_id, v_id, 'added ' || p_name);
  RETURN v_id;
END $$;
COMMENT ON TABLE items IS 'what we sell';
COMMENT ON COLUMN items.qty IS 'on hand';
COMMENT ON COLUMN public.items.name IS NULL;
COMMENT ON FUNCTION add_item(text, integer) IS 'adds an item';
COMMENT ON SEQUENCE items_id_seq IS 'item numbers';
SELECT add_item('a', 1);
SELECT add_item('b', 2);
VACUUM;
VACUUM items;
ANALYZE;
ANALYZE items, log;
VACUUM (ANALYZE) log;
SELECT * FROM items ORDER BY id;
TRUNCATE log;
SELECT count(*) FROM log;
SELECT add_item('c', 3);
TRUNCATE TABLE items, log;
SELECT count(*) FROM items;
SELECT add_item('d', 4);
SELECT * FROM items ORDER BY id;
SELECT * FROM log ORDER BY id;
TRUNCATE items;
INSERT INTO items (name) VALUES ('e'), ('f');
SELECT * FROM items ORDER BY id;

CREATE SCHEMA IF NOT EXISTS public;
CREATE TABLE names (id integer PRIMARY KEY, name text COLLATE "C" NOT NULL, code varchar(5) COLLATE pg_catalog."default");
INSERT INTO names VALUES (1, 'b', 'Z'), (2, 'B', 'a'), (3, 'a', 'é'), (4, '_', NULL);
SELECT name, code FROM names ORDER BY name COLLATE "C";
SELECT name FROM names WHERE name COLLATE "POSIX" < 'b' ORDER BY 1;
SELECT min(code COLLATE "C"), max(name) FROM names;

-- Errors.
CREATE SCHEMA public;
CREATE TABLE bad (id integer PRIMARY KEY, n integer COLLATE "C");
SELECT 1 COLLATE "C";
VACUUM nosuch;
COMMENT ON TABLE nosuch IS 'x';
COMMENT ON COLUMN items.nosuch IS 'x';
