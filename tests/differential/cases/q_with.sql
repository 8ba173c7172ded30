-- WITH before INSERT, UPDATE and DELETE, and data-modifying WITH queries (DELETE / UPDATE /
-- INSERT ... RETURNING read by the rest of the statement), ad hoc and inside procedures:
-- TPC-C's Delivery as PostgreSQL users write it (the oldest new orders deleted, their
-- orders and customers updated from the rows the DELETE returned), pipelined with new
-- orders across workers and epoch sizes.
CREATE TABLE new_order (w integer, d integer, o integer, PRIMARY KEY (w, d, o));
CREATE TABLE orders (w integer, d integer, o integer, c integer NOT NULL, carrier integer, PRIMARY KEY (w, d, o));
CREATE TABLE order_line (w integer, d integer, o integer, n integer, amount numeric(8,2), delivered integer,
                         PRIMARY KEY (w, d, o, n));
CREATE TABLE customer (w integer, d integer, id integer, balance numeric(10,2) NOT NULL DEFAULT 0,
                       deliveries integer NOT NULL DEFAULT 0, PRIMARY KEY (w, d, id));
CREATE TABLE district (w integer, d integer, next_o integer NOT NULL, PRIMARY KEY (w, d));
CREATE TABLE archive (w integer, d integer, o integer, note text, PRIMARY KEY (w, d, o));
CREATE TABLE kv (k integer PRIMARY KEY, v integer, tag text);

INSERT INTO district SELECT w, d, 4 FROM generate_series(1, 2) w, generate_series(1, 3) d;
INSERT INTO customer (w, d, id) SELECT w, d, c FROM generate_series(1, 2) w, generate_series(1, 3) d, generate_series(1, 4) c;
INSERT INTO orders SELECT w, d, o, 1 + (w + d + o) % 4, NULL FROM generate_series(1, 2) w, generate_series(1, 3) d, generate_series(1, 3) o;
INSERT INTO new_order SELECT w, d, o FROM orders WHERE o >= 2;
INSERT INTO order_line SELECT w, d, o, n, (w * 10 + d + o * n) * 1.5, NULL FROM orders, generate_series(1, 2) n;
INSERT INTO kv VALUES (1, 10, 'a'), (2, NULL, 'b'), (3, 30, NULL), (4, 40, 'd');

-- WITH queries that only read, before INSERT, UPDATE and DELETE.
WITH big AS (SELECT k, v FROM kv WHERE v > 15) INSERT INTO archive SELECT 0, 0, k, 'big ' || v FROM big;
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3)
  INSERT INTO archive SELECT 0, 1, n, NULL FROM s;
WITH tot AS (SELECT sum(v) AS t FROM kv) UPDATE kv SET v = v + (SELECT t FROM tot) WHERE k = 1;
WITH gone AS (SELECT k FROM kv WHERE tag IS NULL) DELETE FROM kv WHERE k IN (SELECT k FROM gone);
WITH x AS (SELECT 5 AS k, 50 AS v) INSERT INTO kv SELECT k, v, 'x' FROM x RETURNING *;
WITH none AS (SELECT k FROM kv WHERE false) UPDATE kv SET tag = 'never' FROM none WHERE kv.k = none.k;
SELECT * FROM kv ORDER BY k;
SELECT * FROM archive ORDER BY w, d, o;

-- Data-modifying WITH queries.
WITH moved AS (DELETE FROM kv WHERE k = 5 RETURNING *) INSERT INTO archive SELECT 9, 9, k, tag FROM moved;
WITH up AS (UPDATE kv SET v = coalesce(v, 0) + 1 WHERE k <= 2 RETURNING k, v * 2 AS twice, tag)
  SELECT k, twice, tag FROM up ORDER BY k;
WITH up(key, doubled) AS (UPDATE kv SET v = v + 1 WHERE k >= 2 RETURNING k, v * 2) SELECT sum(doubled), count(key) FROM up;
WITH ins AS (INSERT INTO kv VALUES (6, NULL, 'six'), (7, 70, NULL) RETURNING k, v, tag) SELECT * FROM ins ORDER BY k;
WITH ins AS (INSERT INTO kv VALUES (8, 80, 'eight') RETURNING *), del AS (DELETE FROM archive WHERE w = 0 AND d = 1 RETURNING o)
  SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT sum(o) FROM del) AS deleted;
WITH d AS (DELETE FROM kv WHERE k = 99 RETURNING *) INSERT INTO archive SELECT 1, 1, k, tag FROM d;
WITH d AS (DELETE FROM kv WHERE k = 99 RETURNING *) SELECT count(*) FROM d;
WITH d AS (DELETE FROM archive WHERE w = 9 RETURNING o) UPDATE kv SET tag = 'moved' FROM d WHERE kv.k = d.o - 4
  RETURNING kv.k, kv.tag;
WITH u AS (UPDATE archive SET note = 'seen' WHERE w = 0 AND d = 0 RETURNING o) DELETE FROM kv USING u WHERE kv.k = u.o - 2
  RETURNING kv.*;
WITH unread AS (UPDATE kv SET v = -v WHERE k = 4 RETURNING v) SELECT 'not read';
WITH a AS (DELETE FROM archive WHERE note = 'seen' RETURNING o, note), b AS (INSERT INTO kv SELECT o + 100, o, note FROM a RETURNING k)
  SELECT count(*) FROM b;
SELECT * FROM kv ORDER BY k;
SELECT * FROM archive ORDER BY w, d, o;
-- Errors: a WITH query without RETURNING read; a data-modifying WITH not at the top level.
WITH d AS (DELETE FROM kv WHERE k = 1) SELECT * FROM d;
SELECT * FROM (WITH d AS (DELETE FROM kv WHERE k = 1 RETURNING *) SELECT * FROM d) s;
WITH u AS (UPDATE kv SET v = v / (v - v) WHERE k = 4 RETURNING *) SELECT * FROM u;
SELECT * FROM kv ORDER BY k;

-- Procedures: Delivery, and new orders, with WITH queries that write.
CREATE FUNCTION delivery(p_w integer, p_carrier integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  v_lines integer;
BEGIN
  -- The oldest new order of each district of the warehouse, delivered: its order, its
  -- lines and its customer's balance, from the rows each change returns.
  WITH d AS (DELETE FROM new_order
               WHERE w = p_w AND o = (SELECT min(o) FROM new_order n2 WHERE n2.w = new_order.w AND n2.d = new_order.d)
               RETURNING w, d, o),
       o AS (UPDATE orders SET carrier = p_carrier FROM d WHERE orders.w = d.w AND orders.d = d.d AND orders.o = d.o
               RETURNING orders.d, orders.o, orders.c),
       l AS (UPDATE order_line SET delivered = p_carrier FROM o
               WHERE order_line.w = p_w AND order_line.d = o.d AND order_line.o = o.o
               RETURNING order_line.d, order_line.o, order_line.amount)
  UPDATE customer SET balance = balance + s.total, deliveries = deliveries + 1
    FROM (SELECT o.d, o.c, coalesce(sum(l.amount), 0) AS total FROM o LEFT JOIN l ON l.d = o.d AND l.o = o.o
          GROUP BY o.d, o.c) s
    WHERE customer.w = p_w AND customer.d = s.d AND customer.id = s.c;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n = 0 THEN
    RETURN 0;
  END IF;
  WITH l AS (DELETE FROM archive WHERE w = p_w RETURNING o)
  SELECT count(*) INTO v_lines FROM l;
  RAISE NOTICE 'delivered % in %, % archived rows gone, FOUND %', n, p_w, v_lines, FOUND;
  RETURN n;
END $$;

CREATE FUNCTION new_order(p_w integer, p_d integer, p_c integer, p_amounts numeric[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_o integer;
  v_n integer;
BEGIN
  SELECT next_o INTO v_o FROM district WHERE w = p_w AND d = p_d;
  UPDATE district SET next_o = next_o + 1 WHERE w = p_w AND d = p_d;
  INSERT INTO orders VALUES (p_w, p_d, v_o, p_c, NULL);
  INSERT INTO new_order VALUES (p_w, p_d, v_o);
  WITH amounts AS (SELECT a, n FROM unnest(p_amounts) WITH ORDINALITY AS u(a, n))
  INSERT INTO order_line SELECT p_w, p_d, v_o, n, a, NULL FROM amounts;
  WITH noted AS (INSERT INTO archive VALUES (p_w, p_d, v_o, 'ordered') RETURNING note)
  SELECT count(*) INTO v_n FROM noted WHERE note = 'ordered';
  RETURN v_o * 10 + v_n;
END $$;

SELECT delivery(1, 7);
SELECT delivery(3, 1);
SELECT new_order(1, 2, 3, ARRAY[1.50, 2.25]);
SELECT delivery(1, 8);
--- calls: q_with 200
SELECT * FROM new_order ORDER BY w, d, o;
SELECT * FROM orders ORDER BY w, d, o;
SELECT * FROM order_line ORDER BY w, d, o, n;
SELECT * FROM customer ORDER BY w, d, id;
SELECT * FROM district ORDER BY w, d;
SELECT * FROM archive ORDER BY w, d, o;
