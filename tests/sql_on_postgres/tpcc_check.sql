-- Checks after the generated call stream (tpcc_gen.sql) has run: the final state must be
-- exactly what the generator's bookkeeping says the native semantics give, and the TPC-C
-- consistency conditions must hold. Any failure raises (psql -v ON_ERROR_STOP=1 exits 3).
-- Variables: :orders (loaded orders per district), :customers (per district).

\o /dev/null

CREATE FUNCTION test_assert(p_ok boolean, p_what text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF p_ok IS NOT TRUE THEN
    RAISE EXCEPTION 'test failed: %', p_what;
  END IF;
END;
$$;

-- The committed state as one md5: every table, rows in key order, as PostgreSQL prints them.
CREATE FUNCTION test_tpcc_state_md5() RETURNS text
  LANGUAGE sql AS $$
  SELECT md5(concat_ws('|',
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY w_id)) FROM warehouse AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY d_w_id, d_id)) FROM district AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY c_w_id, c_d_id, c_id)) FROM customer AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY h_id)) FROM history AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY no_w_id, no_d_id, no_o_id)) FROM new_order AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY o_w_id, o_d_id, o_id)) FROM orders AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number)) FROM order_line AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY i_id)) FROM item AS t),
    (SELECT md5(string_agg(t::text, E'\n' ORDER BY s_w_id, s_i_id)) FROM stock AS t)));
$$;

-- Violations of the consistency conditions (clause 3.3.2). 1-4 as in bench/tpcc/README.md
-- (3 adapted to order-id gaps); 5-10 and 12 as in the spec.
CREATE FUNCTION test_tpcc_consistency() RETURNS SETOF text
  LANGUAGE sql AS $$
  SELECT format('condition 1: warehouse %s: w_ytd %s != sum(d_ytd) %s', w_id, w_ytd, s)
    FROM warehouse, LATERAL (SELECT sum(d_ytd) AS s FROM district WHERE d_w_id = w_id) AS x
   WHERE w_ytd IS DISTINCT FROM s
  UNION ALL
  SELECT format('condition 2: district (%s, %s): d_next_o_id - 1 = %s, max(o_id) = %s, max(no_o_id) = %s',
                d_w_id, d_id, d_next_o_id - 1, max_o, max_no)
    FROM district,
         LATERAL (SELECT max(o_id) AS max_o FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS o,
         LATERAL (SELECT max(no_o_id) AS max_no FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS n
   WHERE d_next_o_id - 1 IS DISTINCT FROM max_o OR (max_no IS NOT NULL AND max_no <> max_o)
  UNION ALL
  SELECT format('condition 3: district (%s, %s): %s new_order rows, %s orders in [%s, %s]',
                d_w_id, d_id, cnt, in_range, lo, hi)
    FROM district,
         LATERAL (SELECT count(*) AS cnt, min(no_o_id) AS lo, max(no_o_id) AS hi
                    FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) AS n,
         LATERAL (SELECT count(*) AS in_range FROM orders
                   WHERE o_w_id = d_w_id AND o_d_id = d_id AND o_id BETWEEN lo AND hi) AS o
   WHERE cnt > 0 AND cnt <> in_range
  UNION ALL
  SELECT format('condition 4: district (%s, %s): sum(o_ol_cnt) = %s, count(order_line) = %s',
                d_w_id, d_id, s, cnt)
    FROM district,
         LATERAL (SELECT COALESCE(sum(o_ol_cnt), 0) AS s FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS o,
         LATERAL (SELECT count(*) AS cnt FROM order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id) AS l
   WHERE s <> cnt
  UNION ALL
  SELECT format('condition 5: order (%s, %s, %s): o_carrier_id %s, new_order row %s',
                o_w_id, o_d_id, o_id, o_carrier_id, has_no)
    FROM orders,
         LATERAL (SELECT EXISTS (SELECT 1 FROM new_order
                                  WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id) AS has_no) AS n
   WHERE (o_carrier_id IS NULL) <> has_no
  UNION ALL
  SELECT format('condition 6: order (%s, %s, %s): o_ol_cnt %s, %s lines', o_w_id, o_d_id, o_id, o_ol_cnt, cnt)
    FROM orders,
         LATERAL (SELECT count(*) AS cnt FROM order_line
                   WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id) AS l
   WHERE o_ol_cnt <> cnt
  UNION ALL
  SELECT format('condition 7: line (%s, %s, %s, %s): ol_delivery_d %s, o_carrier_id %s',
                ol_w_id, ol_d_id, ol_o_id, ol_number, ol_delivery_d, o_carrier_id)
    FROM order_line JOIN orders ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id
   WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)
  UNION ALL
  SELECT format('condition 8: warehouse %s: w_ytd %s != sum(h_amount) %s', w_id, w_ytd, s)
    FROM warehouse, LATERAL (SELECT sum(h_amount) AS s FROM history WHERE h_w_id = w_id) AS h
   WHERE w_ytd IS DISTINCT FROM s
  UNION ALL
  SELECT format('condition 9: district (%s, %s): d_ytd %s != sum(h_amount) %s', d_w_id, d_id, d_ytd, s)
    FROM district, LATERAL (SELECT sum(h_amount) AS s FROM history WHERE h_w_id = d_w_id AND h_d_id = d_id) AS h
   WHERE d_ytd IS DISTINCT FROM s
  UNION ALL
  SELECT format('condition 10/12: customer (%s, %s, %s): c_balance %s, c_ytd_payment %s, delivered %s, paid %s',
                c_w_id, c_d_id, c_id, c_balance, c_ytd_payment, delivered, paid)
    FROM customer,
         LATERAL (SELECT COALESCE(sum(ol_amount), 0) AS delivered
                    FROM orders JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
                   WHERE o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id
                     AND ol_delivery_d IS NOT NULL) AS l,
         LATERAL (SELECT COALESCE(sum(h_amount), 0) AS paid FROM history
                   WHERE h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id) AS h
   WHERE c_balance <> delivered - paid OR c_balance + c_ytd_payment <> delivered;
$$;

CREATE FUNCTION test_tpcc_check_consistency() RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  v_errors text[];
BEGIN
  SELECT array_agg(e) INTO v_errors FROM (SELECT e FROM test_tpcc_consistency() AS e LIMIT 10) AS x;
  IF v_errors IS NOT NULL THEN
    RAISE EXCEPTION 'consistency failed:%', E'\n  ' || array_to_string(v_errors, E'\n  ');
  END IF;
END;
$$;

-- The final state, row by row, as the generator's bookkeeping predicts it. -------------

-- Orders: every valid generated NewOrder exists as generated, carrier set iff delivered.
SELECT test_assert(NOT EXISTS (
  SELECT g.w, g.d, g.o_id, g.c_id, g.entry_d, q.carrier, g.ol_cnt, g.all_local
    FROM test_gen_new_order AS g JOIN test_gen_queue AS q ON q.w = g.w AND q.d = g.d AND q.o_id = g.o_id
   WHERE g.valid
  EXCEPT
  SELECT o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local FROM orders),
  'a generated order is missing or differs');
SELECT test_assert((SELECT count(*) FROM orders WHERE o_id > :orders)
                   = (SELECT count(*) FROM test_gen_new_order WHERE valid),
  'orders holds rows the generator did not create');

-- Rolled-back NewOrders left nothing behind (their ids are gaps).
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM test_gen_new_order AS g
   WHERE NOT g.valid
     AND (EXISTS (SELECT 1 FROM orders WHERE o_w_id = g.w AND o_d_id = g.d AND o_id = g.o_id)
          OR EXISTS (SELECT 1 FROM new_order WHERE no_w_id = g.w AND no_d_id = g.d AND no_o_id = g.o_id)
          OR EXISTS (SELECT 1 FROM order_line WHERE ol_w_id = g.w AND ol_d_id = g.d AND ol_o_id = g.o_id))),
  'a rolled-back NewOrder left rows behind');

-- Order lines: item, supplier, quantity, ol_amount = quantity * i_price,
-- ol_dist_info = s_dist_<d> of the (unchanged) stock row, delivery date iff delivered.
CREATE TABLE test_expected_line AS
SELECT g.w, g.d, g.o_id, l.ol_number, l.item, l.supply_w, q.delivery_d, l.qty,
       (l.qty * i_price)::numeric(6,2) AS amount,
       (ARRAY[s.s_dist_01, s.s_dist_02, s.s_dist_03, s.s_dist_04, s.s_dist_05, s.s_dist_06, s.s_dist_07,
              s.s_dist_08, s.s_dist_09, s.s_dist_10])[g.d] AS dist_info
  FROM test_gen_new_order AS g
  JOIN test_gen_line AS l ON l.seq = g.seq
  JOIN test_gen_queue AS q ON q.w = g.w AND q.d = g.d AND q.o_id = g.o_id
  JOIN item ON i_id = l.item
  JOIN test_stock0 AS s ON s.s_w_id = l.supply_w AND s.s_i_id = l.item
 WHERE g.valid;
SELECT test_assert(NOT EXISTS (
  (SELECT * FROM test_expected_line
   EXCEPT
   SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity,
          ol_amount, ol_dist_info FROM order_line WHERE ol_o_id > :orders)
  UNION ALL
  (SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity,
          ol_amount, ol_dist_info FROM order_line WHERE ol_o_id > :orders
   EXCEPT
   SELECT * FROM test_expected_line)),
  'order lines differ from the generated ones');

-- Loaded orders: delivered (carrier and line dates) exactly when the generator popped them.
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM test_gen_queue AS q
    JOIN orders AS o ON o.o_w_id = q.w AND o.o_d_id = q.d AND o.o_id = q.o_id
   WHERE NOT q.generated AND o_carrier_id IS DISTINCT FROM q.carrier),
  'a loaded undelivered order has the wrong carrier');
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM test_gen_queue AS q
    JOIN order_line ON ol_w_id = q.w AND ol_d_id = q.d AND ol_o_id = q.o_id
   WHERE NOT q.generated AND ol_delivery_d IS DISTINCT FROM q.delivery_d),
  'a loaded undelivered order line has the wrong delivery date');

-- new_order holds exactly the orders not yet popped.
SELECT test_assert(NOT EXISTS (
  (SELECT w, d, o_id FROM test_gen_queue WHERE popped_seq IS NULL
   EXCEPT SELECT no_w_id, no_d_id, no_o_id FROM new_order)
  UNION ALL
  (SELECT no_w_id, no_d_id, no_o_id FROM new_order
   EXCEPT SELECT w, d, o_id FROM test_gen_queue WHERE popped_seq IS NULL)),
  'new_order differs from the undelivered orders');

-- d_next_o_id = largest committed o_id + 1; the sequences advanced once per NewOrder,
-- rolled-back ones included, and once per Payment.
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM district
   WHERE d_next_o_id <> 1 + COALESCE((SELECT max(o_id) FROM test_gen_new_order
                                       WHERE w = d_w_id AND d = d_id AND valid), :orders)),
  'd_next_o_id differs');
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM pg_sequences AS s, district
   WHERE s.sequencename = format('tpcc_o_id_%s_%s', d_w_id, d_id)
     AND COALESCE(s.last_value, :orders) <> :orders + (SELECT count(*) FROM test_gen_new_order
                                                      WHERE w = d_w_id AND d = d_id)),
  'an order-id sequence did not advance once per NewOrder');
SELECT test_assert((SELECT count(*) FROM pg_sequences WHERE sequencename LIKE 'tpcc\_o\_id\_%')
                   = (SELECT count(*) FROM district), 'one order-id sequence per district');

-- Stock: replay the generated lines in order on the snapshot, with the spec's rule.
CREATE TABLE test_stock_replay AS SELECT * FROM test_stock0;
ALTER TABLE test_stock_replay ADD PRIMARY KEY (s_w_id, s_i_id);
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT g.w, l.item, l.supply_w, l.qty
             FROM test_gen_new_order AS g JOIN test_gen_line AS l ON l.seq = g.seq
            WHERE g.valid ORDER BY g.seq, l.ol_number LOOP
    UPDATE test_stock_replay
       SET s_quantity = CASE WHEN s_quantity - r.qty >= 10 THEN s_quantity - r.qty ELSE s_quantity - r.qty + 91 END,
           s_ytd = s_ytd + r.qty, s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + (r.supply_w <> r.w)::integer
     WHERE s_w_id = r.supply_w AND s_i_id = r.item;
  END LOOP;
END;
$$;
SELECT test_assert(NOT EXISTS (
  (SELECT * FROM test_stock_replay EXCEPT SELECT * FROM stock)
  UNION ALL
  (SELECT * FROM stock EXCEPT SELECT * FROM test_stock_replay)),
  'stock differs from the replay of the generated order lines');

-- History: one row per Payment, h_id in submission order, h_data = w_name || 4 spaces || d_name.
SELECT test_assert(NOT EXISTS (
  (SELECT p.h_id, p.c, p.c_d, p.c_w, p.d, p.w, p.h_date, p.amount,
          (w_name || '    ' || d_name)::varchar(24)
     FROM test_gen_payment AS p
     JOIN warehouse ON w_id = p.w
     JOIN district ON d_w_id = p.w AND d_id = p.d
   EXCEPT
   SELECT h_id, h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data
     FROM history WHERE h_date > timestamp '2024-01-01 00:00:00')
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
   WHERE (SELECT count(*) FROM history WHERE h_date > timestamp '2024-01-01 00:00:00')
         <> (SELECT count(*) FROM test_gen_payment)),
  'history differs from the generated payments');
SELECT test_assert((SELECT last_value FROM pg_sequences WHERE sequencename = 'tpcc_history_id')
                   IS NOT DISTINCT FROM (SELECT max(h_id) FROM test_gen_payment),
  'tpcc_history_id did not advance once per Payment');

-- Customers: replay payments and deliveries on the snapshot, c_data included.
CREATE TABLE test_customer_replay AS SELECT * FROM test_customer0;
ALTER TABLE test_customer_replay ADD PRIMARY KEY (c_w_id, c_d_id, c_id);
DO $$
DECLARE
  r record;
  v_amount numeric;
BEGIN
  FOR r IN SELECT * FROM test_gen_payment ORDER BY seq LOOP
    UPDATE test_customer_replay
       SET c_balance = c_balance - r.amount, c_ytd_payment = c_ytd_payment + r.amount,
           c_payment_cnt = c_payment_cnt + 1,
           c_data = CASE WHEN c_credit = 'BC'
                         THEN left(r.c || ' ' || r.c_d || ' ' || r.c_w || ' ' || r.d || ' ' || r.w || ' '
                                   || to_char(r.amount, 'FM9999990.00') || '|' || c_data, 500)
                         ELSE c_data END
     WHERE c_w_id = r.c_w AND c_d_id = r.c_d AND c_id = r.c;
  END LOOP;
  FOR r IN SELECT * FROM test_gen_queue WHERE popped_seq IS NOT NULL LOOP
    SELECT sum(ol_amount) INTO v_amount FROM order_line
     WHERE ol_w_id = r.w AND ol_d_id = r.d AND ol_o_id = r.o_id;
    UPDATE test_customer_replay
       SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = r.w AND c_d_id = r.d AND c_id = r.c_id;
  END LOOP;
END;
$$;
SELECT test_assert(NOT EXISTS (
  (SELECT * FROM test_customer_replay EXCEPT SELECT * FROM customer)
  UNION ALL
  (SELECT * FROM customer EXCEPT SELECT * FROM test_customer_replay)),
  'customer differs from the replay of the generated payments and deliveries');
SELECT test_assert((SELECT count(*) FROM test_gen_payment AS p JOIN test_customer0 AS c
                     ON c.c_w_id = p.c_w AND c.c_d_id = p.c_d AND c.c_id = p.c WHERE c.c_credit = 'BC') > 0,
  'the stream paid no bad-credit customer (c_data prepending untested)');

SELECT test_assert(EXISTS (SELECT 1 FROM customer WHERE c_credit = 'BC' AND length(c_data) = 500),
  'no bad-credit customer reached 500 characters of c_data (truncation untested)');

-- Warehouse and district ytd: loaded amounts plus the payments.
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM warehouse
   WHERE w_ytd <> 100 * :customers + COALESCE((SELECT sum(amount) FROM test_gen_payment WHERE w = w_id), 0)),
  'w_ytd differs');
SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM district
   WHERE d_ytd <> 10 * :customers
                  + COALESCE((SELECT sum(amount) FROM test_gen_payment WHERE w = d_w_id AND d = d_id), 0)),
  'd_ytd differs');

-- Items are read-only.
SELECT test_assert((SELECT count(*) FROM item) = :items, 'item changed');

-- The consistency conditions.
SELECT test_tpcc_check_consistency();

\o
SELECT format('stream checks ok: %s new_order (%s rolled back), %s payment (%s remote), %s order_status, '
              '%s delivery (%s districts delivered, %s empty), %s stock_level',
              count(*) FILTER (WHERE kind LIKE 'new_order%'), count(*) FILTER (WHERE kind = 'new_order_rollback'),
              count(*) FILTER (WHERE kind = 'payment'),
              (SELECT count(*) FROM test_gen_payment WHERE c_w <> w),
              count(*) FILTER (WHERE kind = 'order_status'), count(*) FILTER (WHERE kind = 'delivery'),
              (SELECT count(*) FROM test_gen_queue WHERE popped_seq IS NOT NULL),
              10 * count(*) FILTER (WHERE kind = 'delivery')
                - (SELECT count(*) FROM test_gen_queue WHERE popped_seq IS NOT NULL),
              count(*) FILTER (WHERE kind = 'stock_level')) AS summary
  FROM test_gen_call;
