-- Targeted tests of single calls, after tpcc_check.sql (which defines test_assert and
-- test_tpcc_state_md5). Variables: :warehouses, :items.
-- Each test is a DO block: the calls inside run in the block's transaction, and an
-- expected error is caught by a sub-block (a subtransaction), as a client's rollback.

\o /dev/null

-- psql does not interpolate inside $$ bodies: the DO blocks read settings instead.
SELECT set_config('test.warehouses', :'warehouses', false), set_config('test.items', :'items', false);

-- 1. NewOrder: a valid order in district (1, 2), one line supplied by warehouse
--    :warehouses (remote when there are several). The result and every row it writes are
--    computed here independently.
CREATE TABLE test_t1 (order_id integer, total numeric);
DO $$
DECLARE
  v_next bigint;
  v_expected_total numeric;
  v_o integer;
  v_total numeric;
  v_remote integer := current_setting('test.warehouses')::integer;
  v_stock_before stock[];
BEGIN
  SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END INTO v_next FROM tpcc_o_id_1_2;
  SELECT array_agg(s ORDER BY s.s_i_id) INTO v_stock_before FROM stock AS s
   WHERE (s_w_id, s_i_id) IN ((1, 3), (v_remote, 5), (1, 7));
  SELECT round(sum(q * i_price) * (1 - c_discount) * (1 + w_tax + d_tax), 2) INTO v_expected_total
    FROM (VALUES (3, 2), (5, 3), (7, 4)) AS l (i, q) JOIN item ON i_id = l.i,
         customer, warehouse, district
   WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 7 AND w_id = 1 AND d_w_id = 1 AND d_id = 2
   GROUP BY c_discount, w_tax, d_tax;

  SELECT order_id, total INTO STRICT v_o, v_total
    FROM tpcc_new_order(1, 2, 7, ARRAY[3, 5, 7], ARRAY[1, v_remote, 1], ARRAY[2, 3, 4],
                        '2024-01-03 00:00:00');
  INSERT INTO test_t1 VALUES (v_o, v_total);
  PERFORM test_assert(v_o = v_next, format('NewOrder returned o_id %s, expected %s', v_o, v_next));
  PERFORM test_assert(v_total = v_expected_total AND scale(v_total) = 2,
                      format('NewOrder total %s, expected %s', v_total, v_expected_total));
  PERFORM test_assert((SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2) = v_o + 1,
                      'd_next_o_id is not o_id + 1');
  PERFORM test_assert(EXISTS (
    SELECT 1 FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = v_o AND o_c_id = 7
       AND o_entry_d = '2024-01-03 00:00:00' AND o_carrier_id IS NULL AND o_ol_cnt = 3
       AND o_all_local = CASE WHEN v_remote = 1 THEN 1 ELSE 0 END), 'orders row');
  PERFORM test_assert(EXISTS (SELECT 1 FROM new_order WHERE no_w_id = 1 AND no_d_id = 2 AND no_o_id = v_o),
                      'new_order row');
  PERFORM test_assert((
    SELECT array_agg(format('%s/%s/%s/%s/%s/%s/%s', ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount,
                            ol_delivery_d IS NULL, ol_dist_info = s_dist_02) ORDER BY ol_number)
      FROM order_line JOIN stock ON s_w_id = ol_supply_w_id AND s_i_id = ol_i_id
     WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = v_o)
    = ARRAY[format('1/3/1/2/%s/t/t', (SELECT 2 * i_price FROM item WHERE i_id = 3)),
            format('2/5/%s/3/%s/t/t', v_remote, (SELECT 3 * i_price FROM item WHERE i_id = 5)),
            format('3/7/1/4/%s/t/t', (SELECT 4 * i_price FROM item WHERE i_id = 7))],
    'order lines');
  PERFORM test_assert((
    SELECT bool_and(s.s_quantity = CASE WHEN b.s_quantity - l.q >= 10 THEN b.s_quantity - l.q
                                        ELSE b.s_quantity - l.q + 91 END
                    AND s.s_ytd = b.s_ytd + l.q AND s.s_order_cnt = b.s_order_cnt + 1
                    AND s.s_remote_cnt = b.s_remote_cnt + CASE WHEN s.s_w_id <> 1 THEN 1 ELSE 0 END
                    AND s.s_dist_02 = b.s_dist_02 AND s.s_data = b.s_data)
      FROM unnest(v_stock_before) AS b
      JOIN (VALUES (3, 2), (5, 3), (7, 4)) AS l (i, q) ON l.i = b.s_i_id
      JOIN stock AS s ON s.s_w_id = b.s_w_id AND s.s_i_id = b.s_i_id), 'stock updates');
END;
$$;

-- 2. NewOrder with an invalid last item: P0001 'Item number is not valid', nothing
--    written, but the district's order id is used up (a gap).
DO $$
DECLARE
  v_state text := test_tpcc_state_md5();
  v_next bigint;
  v_after bigint;
  v_failed boolean := false;
BEGIN
  SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END INTO v_next FROM tpcc_o_id_1_3;
  BEGIN
    PERFORM * FROM tpcc_new_order(1, 3, 4, ARRAY[1, 2, current_setting('test.items')::integer + 1], ARRAY[1, 1, 1], ARRAY[5, 5, 5],
                                  '2024-01-03 00:00:01');
  EXCEPTION WHEN OTHERS THEN
    PERFORM test_assert(SQLSTATE = 'P0001' AND SQLERRM = 'Item number is not valid',
                        format('invalid item raised %s "%s"', SQLSTATE, SQLERRM));
    v_failed := true;
  END;
  PERFORM test_assert(v_failed, 'a NewOrder with an invalid item did not fail');
  PERFORM test_assert(test_tpcc_state_md5() = v_state, 'the failed NewOrder changed the database');
  SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END INTO v_after FROM tpcc_o_id_1_3;
  PERFORM test_assert(v_after = v_next + 1, 'the failed NewOrder did not use up its order id');
END;
$$;

-- 3. Order-Status of the customer of test 1: the newest order, its lines in order.
DO $$
DECLARE
  v_o integer := (SELECT order_id FROM test_t1);
  v_balance numeric := (SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 7);
BEGIN
  PERFORM test_assert((
    SELECT array_agg(format('%s/%s/%s/%s/%s/%s/%s/%s', balance, order_id, carrier_id, item_id, supply_w_id,
                            quantity, amount, delivery_d))
      FROM tpcc_order_status(1, 2, 7))
    = (SELECT array_agg(format('%s/%s/%s/%s/%s/%s/%s/%s', v_balance, v_o, NULL, ol_i_id, ol_supply_w_id,
                               ol_quantity, ol_amount, NULL) ORDER BY ol_number)
         FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = v_o), 'order status');
  -- A customer that does not exist: P0002 from SELECT ... INTO STRICT.
  BEGIN
    PERFORM * FROM tpcc_order_status(1, 2, 1000000);
    PERFORM test_assert(false, 'order status of a missing customer did not fail');
  EXCEPTION WHEN no_data_found THEN
    NULL;
  END;
END;
$$;

-- 4. Delivery: district 2 delivers its oldest undelivered order (test 1's order at the
--    latest); district 1 names an order that is already delivered and district 3 the gap
--    of test 2: both are skipped, untouched. The other districts name no order (0).
DO $$
DECLARE
  v_o integer;
  v_c integer;
  v_wrong_c integer;
  v_gone integer;
  v_gone_c integer;
  v_gap integer;
  v_skipped text;
  v_amount numeric;
  v_customer customer;
  v_result text[];
  v_state text;
BEGIN
  SELECT o_id, o_c_id INTO STRICT v_o, v_c FROM orders
   WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = (SELECT min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 2);
  v_wrong_c := v_c % 30 + 1;
  SELECT o_id, o_c_id INTO STRICT v_gone, v_gone_c FROM orders
   WHERE o_w_id = 1 AND o_d_id = 1 AND o_carrier_id IS NOT NULL ORDER BY o_id DESC LIMIT 1;
  v_gap := (SELECT last_value FROM tpcc_o_id_1_3);
  PERFORM test_assert(NOT EXISTS (SELECT 1 FROM orders WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = v_gap),
                      'the gap of test 2 is not a gap');
  SELECT md5(string_agg(x, '|')) INTO v_skipped FROM (
    SELECT t::text AS x FROM customer AS t WHERE c_w_id = 1 AND c_d_id IN (1, 3)
    UNION ALL SELECT t::text FROM orders AS t WHERE o_w_id = 1 AND o_d_id IN (1, 3)
    UNION ALL SELECT t::text FROM order_line AS t WHERE ol_w_id = 1 AND ol_d_id IN (1, 3)
    UNION ALL SELECT t::text FROM new_order AS t WHERE no_w_id = 1 AND no_d_id IN (1, 3)
    ORDER BY 1) AS s;
  SELECT * INTO v_customer FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = v_c;
  SELECT sum(ol_amount) INTO v_amount FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = v_o;

  -- First with the wrong customer for district 2: aborts, nothing changes.
  v_state := test_tpcc_state_md5();
  BEGIN
    PERFORM * FROM tpcc_delivery(1, 7, '2024-01-03 00:00:02',
                                 ARRAY[v_gone, v_o, v_gap, 0, 0, 0, 0, 0, 0, 0],
                                 ARRAY[v_gone_c, v_wrong_c, 4, 0, 0, 0, 0, 0, 0, 0]);
    PERFORM test_assert(false, 'a Delivery naming the wrong customer did not fail');
  EXCEPTION WHEN raise_exception THEN
    PERFORM test_assert(SQLERRM = format('tpcc: order (1, 2, %s) belongs to customer %s, not %s', v_o, v_c,
                                         v_wrong_c),
                        format('wrong-customer Delivery raised "%s"', SQLERRM));
  END;
  PERFORM test_assert(test_tpcc_state_md5() = v_state, 'the failed Delivery changed the database');

  SELECT array_agg(format('%s/%s', district_id, order_id)) INTO v_result
    FROM tpcc_delivery(1, 7, '2024-01-03 00:00:02',
                       ARRAY[v_gone, v_o, v_gap, 0, 0, 0, 0, 0, 0, 0],
                       ARRAY[v_gone_c, v_c, 4, 0, 0, 0, 0, 0, 0, 0]);
  PERFORM test_assert(v_result = ARRAY[format('2/%s', v_o)], format('Delivery returned %s', v_result));
  PERFORM test_assert(v_skipped = (
    SELECT md5(string_agg(x, '|')) FROM (
      SELECT t::text AS x FROM customer AS t WHERE c_w_id = 1 AND c_d_id IN (1, 3)
      UNION ALL SELECT t::text FROM orders AS t WHERE o_w_id = 1 AND o_d_id IN (1, 3)
      UNION ALL SELECT t::text FROM order_line AS t WHERE ol_w_id = 1 AND ol_d_id IN (1, 3)
      UNION ALL SELECT t::text FROM new_order AS t WHERE no_w_id = 1 AND no_d_id IN (1, 3)
      ORDER BY 1) AS s), 'a skipped district changed');
  PERFORM test_assert(NOT EXISTS (SELECT 1 FROM new_order WHERE no_w_id = 1 AND no_d_id = 2 AND no_o_id = v_o),
                      'new_order row not deleted');
  PERFORM test_assert((SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = v_o) = 7,
                      'o_carrier_id');
  PERFORM test_assert((SELECT bool_and(ol_delivery_d = '2024-01-03 00:00:02') FROM order_line
                        WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = v_o), 'ol_delivery_d');
  PERFORM test_assert((SELECT c_balance = v_customer.c_balance + v_amount
                              AND c_delivery_cnt = v_customer.c_delivery_cnt + 1
                              AND c_ytd_payment = v_customer.c_ytd_payment AND c_data = v_customer.c_data
                         FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = v_c), 'customer after delivery');

  -- Delivering the same order again: every district skipped, nothing changes.
  v_state := test_tpcc_state_md5();
  PERFORM test_assert(NOT EXISTS (
    SELECT 1 FROM tpcc_delivery(1, 8, '2024-01-03 00:00:03', ARRAY[0, v_o, 0, 0, 0, 0, 0, 0, 0, 0],
                                ARRAY[0, v_c, 0, 0, 0, 0, 0, 0, 0, 0])), 'a second delivery returned rows');
  PERFORM test_assert(test_tpcc_state_md5() = v_state, 'a second delivery changed the database');
END;
$$;

-- 5. Payment: the exact bytes of c_data for a bad-credit customer and of h_data, the
--    amount rounded to cents (half away from zero), a good-credit customer's c_data
--    untouched, h_id from the sequence.
DO $$
DECLARE
  v_bc customer;
  v_gc customer;
  v_h_next bigint;
  v_names text;
BEGIN
  SELECT * INTO STRICT v_bc FROM customer WHERE c_w_id = 1 AND c_credit = 'BC'
   ORDER BY length(c_data), c_d_id, c_id LIMIT 1;
  SELECT * INTO STRICT v_gc FROM customer WHERE c_w_id = 1 AND c_credit = 'GC' ORDER BY c_d_id, c_id LIMIT 1;
  SELECT last_value + 1 INTO v_h_next FROM tpcc_history_id;
  SELECT w_name || '    ' || d_name INTO v_names FROM warehouse, district
   WHERE w_id = 1 AND d_w_id = 1 AND d_id = 5;

  CALL tpcc_payment(1, 5, v_bc.c_w_id, v_bc.c_d_id, v_bc.c_id, 7, '2024-01-03 00:00:04');
  PERFORM test_assert((SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = v_bc.c_d_id AND c_id = v_bc.c_id)
                      = left(format('%s %s 1 5 1 7.00|', v_bc.c_id, v_bc.c_d_id) || v_bc.c_data, 500),
                      'c_data of a bad-credit customer');
  CALL tpcc_payment(1, 5, v_bc.c_w_id, v_bc.c_d_id, v_bc.c_id, 1.005, '2024-01-03 00:00:05');
  PERFORM test_assert((SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = v_bc.c_d_id AND c_id = v_bc.c_id)
                      = left(format('%s %s 1 5 1 1.01|%s %s 1 5 1 7.00|', v_bc.c_id, v_bc.c_d_id, v_bc.c_id,
                                    v_bc.c_d_id) || v_bc.c_data, 500),
                      'c_data after a second payment (amount rounded half away from zero)');
  PERFORM test_assert((SELECT c_balance = v_bc.c_balance - 8.01 AND c_ytd_payment = v_bc.c_ytd_payment + 8.01
                              AND c_payment_cnt = v_bc.c_payment_cnt + 2
                         FROM customer WHERE c_w_id = 1 AND c_d_id = v_bc.c_d_id AND c_id = v_bc.c_id),
                      'bad-credit customer balance');
  CALL tpcc_payment(1, 5, v_gc.c_w_id, v_gc.c_d_id, v_gc.c_id, 123.45, '2024-01-03 00:00:06');
  PERFORM test_assert((SELECT c_data = v_gc.c_data AND c_balance = v_gc.c_balance - 123.45
                         FROM customer WHERE c_w_id = 1 AND c_d_id = v_gc.c_d_id AND c_id = v_gc.c_id),
                      'good-credit customer');
  PERFORM test_assert((
    SELECT array_agg(format('%s/%s/%s/%s/%s/%s/%s/%s/%s', h_id, h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id,
                            h_date, h_amount, h_data) ORDER BY h_id)
      FROM history WHERE h_id >= v_h_next)
    = ARRAY[format('%s/%s/%s/1/5/1/2024-01-03 00:00:04/7.00/%s', v_h_next, v_bc.c_id, v_bc.c_d_id, v_names),
            format('%s/%s/%s/1/5/1/2024-01-03 00:00:05/1.01/%s', v_h_next + 1, v_bc.c_id, v_bc.c_d_id, v_names),
            format('%s/%s/%s/1/5/1/2024-01-03 00:00:06/123.45/%s', v_h_next + 2, v_gc.c_id, v_gc.c_d_id,
                   v_names)],
    'history rows');
END;
$$;

-- 6. Stock-Level against an independent join, for every district and a few thresholds.
SELECT test_assert(bool_and(tpcc_stock_level(d_w_id, d_id, t) = (
         SELECT count(DISTINCT s_i_id) FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
          WHERE ol_w_id = d_w_id AND ol_d_id = d_id
            AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id AND s_quantity < t)),
       'stock level')
  FROM district, generate_series(10, 100, 15) AS t;

SELECT test_tpcc_check_consistency();

\o
SELECT 'targeted tests ok' AS result;
