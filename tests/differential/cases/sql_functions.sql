-- LANGUAGE sql functions: one expression, a query's first row (NULL without one), a set,
-- writes before the result, parameters by name and by $n, STRICT, defaults; called
-- directly, inside expressions and from PL/pgSQL bodies.
CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2) NOT NULL, stock integer NOT NULL CHECK (stock >= 0));
CREATE TABLE sales (item integer, qty integer);
INSERT INTO items VALUES (1, 'apple', 0.50, 100), (2, 'pear', 0.75, 20), (3, 'plum', 1.20, 0), (4, 'fig', 2.00, 5);

CREATE FUNCTION add_tax(p numeric, rate numeric DEFAULT 0.2) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT round(p * (1 + rate), 2) $$;

CREATE FUNCTION price_of(integer) RETURNS numeric
LANGUAGE sql STABLE AS 'SELECT price FROM items WHERE id = $1';

CREATE FUNCTION cheapest_in_stock() RETURNS text
LANGUAGE sql AS $$
  SELECT name FROM items WHERE stock > 0 ORDER BY price, id
$$;

CREATE FUNCTION in_stock(min_stock integer) RETURNS SETOF integer
LANGUAGE sql AS $$
  SELECT id FROM items WHERE stock >= min_stock ORDER BY id
$$;

CREATE FUNCTION sell(p_item integer, p_qty integer) RETURNS integer
LANGUAGE sql AS $$
  INSERT INTO sales VALUES (p_item, p_qty);
  UPDATE items SET stock = stock - p_qty WHERE id = p_item;
  SELECT stock FROM items WHERE id = p_item;
$$;

CREATE FUNCTION restock(p_item integer, p_qty integer) RETURNS integer
LANGUAGE sql AS $$
  UPDATE items SET stock = stock + p_qty WHERE id = p_item RETURNING stock;
$$;

CREATE FUNCTION touch() RETURNS void
LANGUAGE sql AS $$ SELECT 1; $$;

CREATE FUNCTION order_total(p_item integer, p_qty integer) RETURNS numeric
LANGUAGE plpgsql AS $$
BEGIN
  IF price_of(p_item) IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN add_tax(price_of(p_item) * p_qty);
END $$;

SELECT add_tax(10), add_tax(10, 0.5), add_tax(NULL), add_tax(rate => 0, p => 3.333);
SELECT price_of(2), price_of(99), cheapest_in_stock();
SELECT * FROM in_stock(5);
SELECT * FROM in_stock(1000);
SELECT touch();
SELECT id, add_tax(price) FROM items WHERE price_of(id) > 0.6 ORDER BY id;

--- calls: sql_functions 120

SELECT id, name, price, stock FROM items ORDER BY id;
SELECT item, sum(qty) FROM sales GROUP BY item ORDER BY item;
SELECT cheapest_in_stock(), order_total(4, 3);
