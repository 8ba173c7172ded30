-- Shapes of HammerDB's TPC-C routines whose write sets reconnaissance finds (before, they
-- ran serially): a stock update per IF branch, each read by a collect query after the
-- other branch's update in the text; an UPDATE of one column of orders, then a read of
-- another column keying a customer update; a body wrapped in an EXCEPTION block whose
-- handler only raises again. The calls conflict on purpose (few rows, many calls).
CREATE TABLE stock (item integer PRIMARY KEY, qty integer NOT NULL, dist1 text NOT NULL, dist2 text NOT NULL);
INSERT INTO stock SELECT i, 100, 'a' || i, 'b' || i FROM generate_series(1, 8) i;
CREATE TABLE orders (id integer PRIMARY KEY, customer integer NOT NULL, carrier integer);
INSERT INTO orders SELECT i, 1 + i % 3, NULL FROM generate_series(1, 12) i;
CREATE TABLE customer (id integer PRIMARY KEY, deliveries integer NOT NULL, paid numeric(10,2) NOT NULL);
INSERT INTO customer SELECT i, 0, 0 FROM generate_series(1, 3) i;

CREATE FUNCTION take(p_d integer, p_items integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  total integer;
  first text;
BEGIN
  IF p_d = 1 THEN
    WITH u AS (UPDATE stock SET qty = qty - 1 FROM unnest(p_items) AS s (i) WHERE stock.item = s.i
               RETURNING stock.dist1 AS d)
    SELECT count(*), min(d) INTO total, first FROM u;
  ELSE
    WITH u AS (UPDATE stock SET qty = qty - 2 FROM unnest(p_items) AS s (i) WHERE stock.item = s.i
               RETURNING stock.dist2 AS d)
    SELECT count(*), min(d) INTO total, first FROM u;
  END IF;
  RETURN total || ' ' || coalesce(first, '-');
END $$;

CREATE FUNCTION deliver(p_o integer, p_carrier integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c integer;
BEGIN
  UPDATE orders SET carrier = p_carrier WHERE id = p_o;
  SELECT customer INTO c FROM orders WHERE id = p_o;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
  RETURN c;
END $$;

CREATE FUNCTION pay(p_o integer, p_amount numeric) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c integer;
  k integer;
BEGIN
  SELECT customer INTO STRICT c FROM orders WHERE id = p_o;
  UPDATE customer SET paid = paid + p_amount WHERE id = c;
  k := 1 + p_o % 3;
  UPDATE customer SET deliveries = deliveries + 10 WHERE id = k;
  RETURN c;
EXCEPTION
  WHEN serialization_failure OR no_data_found THEN
    RAISE NOTICE 'no order %', p_o;
    RAISE;
END $$;

--- calls: recon_shapes 150
SELECT * FROM stock ORDER BY item;
SELECT * FROM orders ORDER BY id;
SELECT * FROM customer ORDER BY id;
