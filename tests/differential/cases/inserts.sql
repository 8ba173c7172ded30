-- Duplicate-key inserts abort (23505) and leave nothing; ON CONFLICT DO NOTHING and
-- DO UPDATE ... WHERE; a second insert in the same call after a successful one.
CREATE TABLE item (id integer PRIMARY KEY, name varchar(20) NOT NULL, qty integer NOT NULL DEFAULT 1,
                   price numeric(8,2));
CREATE TABLE item_log (id integer, n integer, what text, PRIMARY KEY (id, n));

CREATE FUNCTION add_item(p_id integer, p_name varchar, p_price numeric) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO item (id, name, price) VALUES (p_id, p_name, p_price);
  INSERT INTO item_log VALUES (p_id, 1, 'created ' || p_name);
  RETURN 'added ' || p_id;
END $$;

CREATE FUNCTION add_item_quietly(p_id integer, p_name varchar) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO item (id, name) VALUES (p_id, p_name) ON CONFLICT (id) DO NOTHING;
END $$;

CREATE FUNCTION restock(p_id integer, p_qty integer, p_max integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO item (id, name, qty) VALUES (p_id, 'restocked', p_qty)
    ON CONFLICT (id) DO UPDATE SET qty = item.qty + EXCLUDED.qty WHERE item.qty < p_max;
END $$;

--- calls: inserts 300
SELECT id, name, qty, price FROM item ORDER BY id;
SELECT id, n, what FROM item_log ORDER BY id, n;
