-- Set-based DML: UPDATE ... FROM, DELETE ... USING, INSERT ... SELECT (with ON CONFLICT and
-- RETURNING), subqueries in SET and WHERE (correlated or not), ad hoc and inside
-- procedures, with FOUND and ROW_COUNT; pipelined calls whose keys come from unnest of
-- array parameters (known before the call runs) and from joins (found by reconnaissance).
CREATE TABLE stock (w integer, i integer, qty integer NOT NULL, ytd integer NOT NULL DEFAULT 0, note text,
                    PRIMARY KEY (w, i));
CREATE TABLE item (id integer PRIMARY KEY, price numeric(6,2), name text NOT NULL);
CREATE TABLE lines (o integer, n integer, i integer NOT NULL, qty integer, amount numeric(10,2), PRIMARY KEY (o, n));
CREATE TABLE totals (i integer PRIMARY KEY, sold integer NOT NULL, orders integer NOT NULL);

INSERT INTO item SELECT g, g * 1.25, 'item' || g FROM generate_series(1, 12) g;
INSERT INTO item VALUES (13, NULL, 'free');
INSERT INTO stock SELECT w, i, 10 + (w * 7 + i * 3) % 40, 0, NULL FROM generate_series(1, 3) w, generate_series(1, 13) i;

-- Ad hoc: a join, VALUES, subqueries in SET and WHERE.
UPDATE stock SET note = 'cheap' FROM item WHERE stock.i = item.id AND item.price < 5 AND stock.w = 1;
UPDATE stock s SET qty = s.qty + v.add FROM (VALUES (1, 2, 5), (2, 3, 7), (3, 9, 1)) AS v(w, i, add)
  WHERE s.w = v.w AND s.i = v.i;
UPDATE stock SET ytd = (SELECT count(*) FROM item WHERE item.id <= stock.i) WHERE w = 2 AND i < 5;
UPDATE stock SET note = 'max' WHERE qty = (SELECT max(qty) FROM stock);
UPDATE stock SET note = 'priced ' || (SELECT price FROM item WHERE id = stock.i)
  WHERE w = 3 AND i IN (SELECT id FROM item WHERE name LIKE 'item1%');
SELECT * FROM stock ORDER BY w, i;
DELETE FROM stock USING item WHERE stock.i = item.id AND item.price IS NULL AND stock.w = 3;
DELETE FROM stock WHERE w = 2 AND NOT EXISTS (SELECT 1 FROM item WHERE id = stock.i AND price > 10);
UPDATE stock SET qty = qty - 1 FROM item WHERE stock.i = item.id AND item.name = 'item4' RETURNING stock.w, stock.qty;
DELETE FROM stock s USING (VALUES (1, 12)) AS gone(w, i) WHERE s.w = gone.w AND s.i = gone.i RETURNING *;
SELECT w, count(*), sum(qty), sum(ytd) FROM stock GROUP BY w ORDER BY w;
-- Multiple-column SET: a row constructor, a sub-SELECT (correlated, empty, too many rows).
UPDATE stock SET (qty, note) = (qty + 1, 'row ' || i) WHERE w = 1 AND i < 4;
UPDATE stock SET (ytd, note) = (SELECT count(*), max(name) FROM item WHERE item.id < stock.i) WHERE w = 1 AND i < 6;
UPDATE stock SET (ytd, note) = (SELECT id, name FROM item WHERE id = 99) WHERE w = 1 AND i = 6;
UPDATE stock SET (note, ytd) = (DEFAULT, DEFAULT) WHERE w = 1 AND i = 7;
SELECT * FROM stock WHERE w = 1 ORDER BY i;
UPDATE stock SET (ytd, note) = (SELECT id, name FROM item) WHERE w = 1 AND i = 1;
UPDATE stock SET (ytd, note) = (1, 'x', 2) WHERE w = 1;
UPDATE stock SET (ytd, note) = (SELECT id FROM item WHERE id = 1) WHERE w = 1;

-- INSERT ... SELECT with ON CONFLICT and RETURNING (each row's outcome), and a failing one
-- (nothing kept).
INSERT INTO totals SELECT i, sum(qty), count(*) FROM stock GROUP BY i HAVING sum(qty) > 60;
INSERT INTO totals SELECT i, 1, 1 FROM stock WHERE w = 1
  ON CONFLICT (i) DO UPDATE SET sold = totals.sold + excluded.sold, orders = totals.orders + 1 WHERE totals.sold < 100
  RETURNING i, sold, orders;
INSERT INTO totals SELECT id, 0, 0 FROM item ON CONFLICT DO NOTHING RETURNING i;
INSERT INTO totals VALUES (1, 5, 5), (2, 6, 6) ON CONFLICT (i) DO UPDATE SET (sold, orders) = (EXCLUDED.sold, totals.orders + EXCLUDED.orders)
  RETURNING *;
INSERT INTO totals SELECT i + 100, qty, 0 FROM stock WHERE w = 1 UNION ALL SELECT 101, 0, 0;
SELECT * FROM totals ORDER BY i;
UPDATE totals SET sold = sold + 1 FROM item WHERE totals.i = item.id AND item.nonexistent = 1;
UPDATE totals SET sold = 1 FROM stock WHERE totals.i = stock.i AND qty = 3 AND i = 4;

-- A self-join, a FROM row met twice (the target row changes once), lookups with RETURNING.
CREATE TABLE t (id integer PRIMARY KEY, v integer);
INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
UPDATE t SET v = t2.v FROM t t2 WHERE t.id = t2.id + 1;
UPDATE t SET v = v + 1 FROM (VALUES (1), (1), (2)) AS d(k) WHERE t.id = d.k;
SELECT * FROM t ORDER BY id;
INSERT INTO t SELECT u.i + 10, t.v FROM unnest(ARRAY[1, 2, 9]) AS u(i) JOIN t ON t.id = u.i ON CONFLICT DO NOTHING RETURNING *;
INSERT INTO t SELECT u.i + 20, t.v FROM unnest(ARRAY[1, 2, 9]) AS u(i) LEFT JOIN t ON t.id = u.i
  ON CONFLICT DO NOTHING RETURNING id, v;
UPDATE t SET v = (SELECT max(v) FROM t) WHERE id = 1 RETURNING *;
UPDATE t SET v = 5 FROM unnest(ARRAY[1]) AS u(i) WHERE t.id = i RETURNING *;
DELETE FROM t WHERE id IN (SELECT id FROM t WHERE v > 20) RETURNING id;
SELECT * FROM t ORDER BY id;
-- NULLs typed by their columns, empty FROM items, NOT IN over a NULL.
UPDATE t SET v = NULL WHERE id IN (SELECT id FROM t WHERE id > 10);
UPDATE t SET v = v + 1 FROM unnest('{}'::integer[]) AS x(i) WHERE t.id = x.i RETURNING *;
INSERT INTO t SELECT x.i, NULL FROM unnest('{}'::integer[]) AS x(i) ON CONFLICT DO NOTHING RETURNING *;
DELETE FROM t WHERE id NOT IN (SELECT v FROM t) RETURNING id;
DELETE FROM t WHERE v IS NULL AND id IN (SELECT id FROM t) RETURNING *;
SELECT * FROM t ORDER BY id;

-- Inside procedures.
CREATE FUNCTION new_order(p_o integer, p_w integer, p_items integer[], p_qtys integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  updated integer;
  inserted integer;
BEGIN
  UPDATE stock SET qty = CASE WHEN qty - u.q >= 10 THEN qty - u.q ELSE qty - u.q + 91 END, ytd = ytd + u.q
    FROM unnest(p_items, p_qtys) AS u(id, q)
   WHERE stock.w = p_w AND stock.i = u.id;
  GET DIAGNOSTICS updated = ROW_COUNT;
  INSERT INTO lines
    SELECT p_o, u.n, u.id, u.q, u.q * it.price
      FROM unnest(p_items, p_qtys) WITH ORDINALITY AS u(id, q, n) JOIN item it ON it.id = u.id;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  INSERT INTO totals SELECT u.id, u.q, 1 FROM unnest(p_items, p_qtys) AS u(id, q)
    ON CONFLICT (i) DO UPDATE SET sold = totals.sold + excluded.sold, orders = totals.orders + 1;
  RETURN updated || '/' || inserted;
END $$;

CREATE FUNCTION cancel(p_o integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  -- The stock of the order's lines comes back (keys from a join: reconnaissance).
  UPDATE stock SET qty = stock.qty + l.qty, ytd = stock.ytd - l.qty
    FROM lines l WHERE l.o = p_o AND stock.w = 1 AND stock.i = l.i;
  DELETE FROM lines WHERE o = p_o AND i IN (SELECT id FROM item WHERE price IS NOT NULL);
  GET DIAGNOSTICS n = ROW_COUNT;
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  RETURN n;
END $$;

CREATE FUNCTION restock(p_w integer, p_below integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE stock SET qty = qty + 50, note = 'restocked'
   WHERE w = p_w AND qty < p_below AND i IN (SELECT id FROM item WHERE price IS NOT NULL);
  GET DIAGNOSTICS n = ROW_COUNT;
  DELETE FROM totals t USING unnest(ARRAY[p_w, p_w + 100]) AS d(k) WHERE t.i = d.k;
  RETURN n;
END $$;

-- RETURNING ... INTO of set-based writes: one row, none (NULL targets), two (P0003), STRICT.
CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL);
INSERT INTO acct VALUES (1, 10), (2, 20), (3, 30);
CREATE FUNCTION r1(p integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x integer;
  y integer;
BEGIN
  x := -1;
  UPDATE acct SET bal = bal + 1 FROM unnest(p) AS u(k) WHERE acct.id = u.k RETURNING acct.id, acct.bal INTO x, y;
  RETURN coalesce(x::text, 'null') || '/' || coalesce(y::text, 'null') || '/' || FOUND;
END $$;
SELECT r1(ARRAY[2]);
SELECT r1(ARRAY[9]);
SELECT r1(ARRAY[1, 3]);
CREATE FUNCTION r2(p integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  DELETE FROM acct USING (VALUES (p)) AS d(k) WHERE acct.id = d.k RETURNING acct.* INTO STRICT r;
  RETURN r.bal;
END $$;
SELECT r2(3);
SELECT r2(3);
CREATE FUNCTION r3(p integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  INSERT INTO acct SELECT u.k, 0 FROM unnest(p) AS u(k) RETURNING id INTO n;
  RETURN n;
END $$;
SELECT r3(ARRAY[7]);
SELECT r3(ARRAY[8, 9]);
SELECT * FROM acct ORDER BY id;

SELECT new_order(1, 1, ARRAY[1, 2, 3], ARRAY[5, 5, 5]);
SELECT new_order(2, 2, ARRAY[13, 40, 4], ARRAY[1, 2, 3]);
SELECT cancel(1);
SELECT cancel(99);
SELECT restock(1, 20);
--- calls: q_dml 250
SELECT * FROM stock ORDER BY w, i;
SELECT * FROM lines ORDER BY o, n;
SELECT * FROM totals ORDER BY i;
