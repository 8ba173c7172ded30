-- NewOrder and Stock-Level as the TPC-C specification writes them: set-based SQL over the
-- order's item arrays (unnest, UPDATE ... FROM, INSERT ... SELECT with joins) and one join
-- with count(DISTINCT ...), instead of a loop of single-row statements. Load after
-- procedures.sql (CREATE OR REPLACE): the same names, inputs and results, and the same
-- final state for the same calls as the loop versions and the native twin
-- (bench/tpcc/README.md). Payment, Order-Status and Delivery stay as they are.

-- ---------------------------------------------------------------------------------------
-- NewOrder (clause 2.4.2). As in procedures.sql: o_id from the district's sequence drawn
-- first and the same total; unlike it, a missing item is found by the INSERT of the order
-- lines (one line fewer than items: 'Item number is not valid', which rolls back the lines
-- already written). Items within an order are distinct (clause 2.4.1.5), so each stock
-- row is updated once.

CREATE OR REPLACE FUNCTION tpcc_new_order(
    p_w_id integer, p_d_id integer, p_c_id integer,
    p_items integer[], p_supply_w_ids integer[], p_quantities integer[],
    p_entry_d timestamp)
  RETURNS TABLE (order_id integer, total numeric)
  LANGUAGE plpgsql AS $$
DECLARE
  v_o_id integer := nextval(format('tpcc_o_id_%s_%s', p_w_id, p_d_id));
  v_ol_cnt integer := COALESCE(array_length(p_items, 1), 0);
  v_w_tax numeric(4,4);
  v_d_tax numeric(4,4);
  v_c_discount numeric(4,4);
  v_sum_amount numeric(12,2);
  v_lines integer;
BEGIN
  SELECT w_tax INTO STRICT v_w_tax FROM warehouse WHERE w_id = p_w_id;
  SELECT d_tax INTO STRICT v_d_tax FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT c_discount INTO STRICT v_c_discount
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;

  -- Every order line at once: its item's price and its stock's district info (read before
  -- the stock is updated below, which does not change it); the lines it writes give the
  -- order's total.
  WITH lines AS (
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    SELECT v_o_id, p_d_id, p_w_id, u.n, u.i, u.w, NULL, u.q, u.q * i_price,
           CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                       WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                       WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                       ELSE s_dist_10 END
      FROM unnest(p_items, p_supply_w_ids, p_quantities) WITH ORDINALITY AS u(i, w, q, n)
      JOIN item ON i_id = u.i
      JOIN stock ON s_w_id = u.w AND s_i_id = u.i
    RETURNING ol_amount)
  SELECT count(*), COALESCE(sum(ol_amount), 0) INTO v_lines, v_sum_amount FROM lines;
  -- A missing item (or stock row) has no line: the whole order rolls back.
  IF v_lines <> v_ol_cnt THEN
    RAISE EXCEPTION 'Item number is not valid';
  END IF;

  UPDATE district SET d_next_o_id = v_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;

  -- Every line's stock at once; the keys come from the arrays.
  UPDATE stock
     SET s_quantity = CASE WHEN s_quantity >= u.q + 10 THEN s_quantity - u.q ELSE s_quantity - u.q + 91 END,
         s_ytd = s_ytd + u.q,
         s_order_cnt = s_order_cnt + 1,
         s_remote_cnt = s_remote_cnt + CASE WHEN u.w <> p_w_id THEN 1 ELSE 0 END
    FROM unnest(p_items, p_supply_w_ids, p_quantities) AS u(i, w, q)
   WHERE s_w_id = u.w AND s_i_id = u.i;

  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (v_o_id, p_d_id, p_w_id, p_c_id, p_entry_d, NULL, v_ol_cnt,
          CASE WHEN p_w_id = ALL (p_supply_w_ids) THEN 1 ELSE 0 END);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);

  order_id := v_o_id;
  total := round(v_sum_amount * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 2);
  RETURN NEXT;
END;
$$;

-- ---------------------------------------------------------------------------------------
-- Stock-Level (clause 2.8.2) as the specification's one query: the distinct items of the
-- district's last 20 orders whose stock is below the threshold.

CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w_id integer, p_d_id integer, p_threshold integer)
  RETURNS integer
  LANGUAGE plpgsql AS $$
DECLARE
  v_next_o_id integer;
  v_low_stock integer;
BEGIN
  SELECT d_next_o_id INTO STRICT v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT count(DISTINCT s_i_id) INTO v_low_stock
    FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
     AND ol_o_id >= v_next_o_id - 20 AND ol_o_id < v_next_o_id
     AND s_quantity < p_threshold;
  RETURN v_low_stock;
END;
$$;
