-- Maintenance statements a PostgreSQL schema script or application runs: TRUNCATE (one
-- transaction deleting every row, sequenced among the calls), VACUUM and ANALYZE
-- (accepted: garbage collection runs with the epochs), COMMENT ON (accepted for objects
-- that exist).
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

-- Errors.
VACUUM nosuch;
COMMENT ON TABLE nosuch IS 'x';
COMMENT ON COLUMN items.nosuch IS 'x';
