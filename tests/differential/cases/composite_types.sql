-- Composite types (CREATE TYPE ... AS (...)) as a function's SETOF result and as record
-- variables (`r t;` of a composite type or of a table's row type), filled by SELECT
-- INTO and a FOR loop, returned by RETURN NEXT and RETURN QUERY, in pipelined calls;
-- DROP TYPE; PostgreSQL's errors.
CREATE TYPE order_line AS (item text, qty integer, amount numeric);
CREATE TYPE public.pair AS (k text, v bigint);
CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric(8,2) NOT NULL, stock integer NOT NULL);
INSERT INTO items VALUES (1, 'pen', 1.50, 10), (2, 'ink', 4.00, 3), (3, 'pad', 2.25, 0);

CREATE FUNCTION quote(p_qty integer) RETURNS SETOF order_line LANGUAGE plpgsql AS $$
DECLARE
  r order_line;
  i items;
BEGIN
  FOR i IN SELECT * FROM items WHERE stock >= p_qty ORDER BY id LOOP
    SELECT i.name, p_qty, i.price * p_qty INTO r;
    RETURN NEXT r;
  END LOOP;
  RETURN QUERY SELECT 'total'::text, p_qty, sum(price) * p_qty FROM items WHERE stock >= p_qty;
END $$;

CREATE FUNCTION take(p_id integer, p_qty integer) RETURNS SETOF pair LANGUAGE plpgsql AS $$
DECLARE
  i items;
BEGIN
  SELECT * INTO i FROM items WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF i.stock < p_qty THEN
    RETURN QUERY SELECT 'short'::text, (p_qty - i.stock)::bigint;
    RETURN;
  END IF;
  UPDATE items SET stock = stock - p_qty WHERE id = p_id;
  RETURN QUERY SELECT i.name, (i.stock - p_qty)::bigint;
END $$;

--- calls: composite_types 80
SELECT * FROM quote(1);
SELECT * FROM quote(3);
SELECT * FROM take(1, 2);
SELECT * FROM items ORDER BY id;

-- Errors.
CREATE TYPE order_line AS (x integer);
CREATE TYPE dup AS (a integer, a text);
CREATE TABLE pair (a integer);
CREATE TYPE items AS (a integer);
DROP TYPE pair;
DROP TYPE IF EXISTS pair;
SELECT * FROM take(1, 1);
