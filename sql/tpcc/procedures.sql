-- The five TPC-C transactions (the paper's §5.4) as PL/pgSQL. They run unchanged on
-- PostgreSQL 15 and are the input of our compiler; bench/tpcc/procedures.cc is the
-- native twin, and the same call stream must leave the same final state in both
-- (bench/tpcc/README.md is the contract). See README.md for the inputs and the reasons.
--
-- Style rules, so that the compiler can find every write set before execution:
--   * parameters are p_*, locals v_*, result columns never share a name with a column;
--   * every key is an expression of the parameters, of a sequence value drawn at the top
--     (nextval, evaluated at sequencing) or of a loop variable over a parameter array;
--   * every statement that can abort (STRICT lookups, RAISE EXCEPTION) comes before the
--     first write, so the writes after the last abort point can be published at once.

-- ---------------------------------------------------------------------------------------
-- NewOrder (clause 2.4.2). FastIds: o_id = nextval('tpcc_o_id_<w>_<d>'), drawn before
-- anything can abort, so an aborted NewOrder leaves a gap in the district's order ids.
-- 1% of the inputs name the unused item 100001 last: 'Item number is not valid' (P0001),
-- raised before any write. Returns the order id and the order's total (rounded to cents).

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
  v_i_price numeric(5,2);
  v_prices numeric(5,2)[];  -- v_prices[i]: the price of p_items[i], read once
  v_all_local integer := 1;
  v_dist_info char(24);
  v_ol_amount numeric(6,2);
  v_sum_amount numeric(12,2) := 0;
BEGIN
  -- Reads: everything that can abort happens here.
  SELECT w_tax INTO STRICT v_w_tax FROM warehouse WHERE w_id = p_w_id;
  SELECT d_tax INTO STRICT v_d_tax FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT c_discount INTO STRICT v_c_discount
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  FOR i IN 1..v_ol_cnt LOOP
    SELECT i_price INTO v_i_price FROM item WHERE i_id = p_items[i];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Item number is not valid';
    END IF;
    v_prices[i] := v_i_price;
    IF p_supply_w_ids[i] <> p_w_id THEN
      v_all_local := 0;
    END IF;
  END LOOP;

  -- Writes. d_next_o_id only mirrors the sequence (serial order is sequence order).
  UPDATE district SET d_next_o_id = v_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;

  FOR i IN 1..v_ol_cnt LOOP
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity >= p_quantities[i] + 10 THEN s_quantity - p_quantities[i]
                             ELSE s_quantity - p_quantities[i] + 91 END,
           s_ytd = s_ytd + p_quantities[i],
           s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN p_supply_w_ids[i] <> p_w_id THEN 1 ELSE 0 END
     WHERE s_w_id = p_supply_w_ids[i] AND s_i_id = p_items[i]
    RETURNING CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                          WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                          WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                          ELSE s_dist_10 END
      INTO v_dist_info;
    IF NOT FOUND THEN
      RAISE NOTICE 'tpcc: stock (%, %) not found', p_supply_w_ids[i], p_items[i];
    END IF;
    -- ol_quantity numeric(2) * i_price numeric(5,2) is exact at scale 2.
    v_ol_amount := p_quantities[i] * v_prices[i];
    v_sum_amount := v_sum_amount + v_ol_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (v_o_id, p_d_id, p_w_id, i, p_items[i], p_supply_w_ids[i],
            NULL, p_quantities[i], v_ol_amount, v_dist_info);
  END LOOP;

  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (v_o_id, p_d_id, p_w_id, p_c_id, p_entry_d, NULL, v_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);

  -- sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax) is exact at scale 10;
  -- round() rounds half away from zero, as the native version does.
  order_id := v_o_id;
  total := round(v_sum_amount * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 2);
  RETURN NEXT;
END;
$$;

-- ---------------------------------------------------------------------------------------
-- Payment (clause 2.5.2), by customer id only (the paper's second modification).
-- h_id = nextval('tpcc_history_id'). Cannot abort: a missing row is a notice, as in the
-- native version (which publishes first). Returns nothing, as the native version emits
-- nothing: CALL tpcc_payment(...).

CREATE OR REPLACE PROCEDURE tpcc_payment(
    p_w_id integer, p_d_id integer,
    p_c_w_id integer, p_c_d_id integer, p_c_id integer,
    p_h_amount numeric, p_h_date timestamp)
  LANGUAGE plpgsql AS $$
DECLARE
  v_h_id bigint := nextval('tpcc_history_id');
  -- Parameter typmods are ignored by PostgreSQL: the cast fixes the scale at 2 (rounding
  -- half away from zero), so that format() prints the amount with two decimals.
  v_amount numeric(6,2) := p_h_amount::numeric(6,2);
  v_w_name varchar(10);
  v_d_name varchar(10);
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + v_amount WHERE w_id = p_w_id
    RETURNING w_name INTO v_w_name;
  IF NOT FOUND THEN
    RAISE NOTICE 'tpcc: warehouse % not found', p_w_id;
  END IF;

  UPDATE district SET d_ytd = d_ytd + v_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_name INTO v_d_name;
  IF NOT FOUND THEN
    RAISE NOTICE 'tpcc: district (%, %) not found', p_w_id, p_d_id;
  END IF;

  -- Bad-credit customers get the payment prepended to c_data (clause 2.5.2.2).
  UPDATE customer
     SET c_balance = c_balance - v_amount,
         c_ytd_payment = c_ytd_payment + v_amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit = 'BC'
                       THEN substr(format('%s %s %s %s %s %s|', p_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, v_amount)
                                   || c_data, 1, 500)
                       ELSE c_data END
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = p_c_id;
  IF NOT FOUND THEN
    RAISE NOTICE 'tpcc: customer (%, %, %) not found', p_c_w_id, p_c_d_id, p_c_id;
  END IF;

  INSERT INTO history (h_id, h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (v_h_id, p_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, p_h_date, v_amount,
          COALESCE(v_w_name, '') || '    ' || COALESCE(v_d_name, ''));
END;
$$;

-- ---------------------------------------------------------------------------------------
-- Order-Status (clause 2.6.2), read-only, by customer id: the customer's most recent
-- order (through the orders_customer index) and one row per order line, in ol_number
-- order. A missing customer, or a customer without orders, aborts (P0002).

CREATE OR REPLACE FUNCTION tpcc_order_status(p_w_id integer, p_d_id integer, p_c_id integer)
  RETURNS TABLE (balance numeric, order_id integer, carrier_id integer, item_id integer,
                 supply_w_id integer, quantity numeric, amount numeric, delivery_d timestamp)
  LANGUAGE plpgsql AS $$
DECLARE
  v_balance numeric(12,2);
  v_o_id integer;
  v_carrier_id integer;
BEGIN
  SELECT c_balance INTO STRICT v_balance
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  SELECT o_id, o_carrier_id INTO STRICT v_o_id, v_carrier_id
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = p_c_id
   ORDER BY o_id DESC LIMIT 1;
  RETURN QUERY
    SELECT v_balance, v_o_id, v_carrier_id, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
      FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id
     ORDER BY ol_number;
END;
$$;

-- ---------------------------------------------------------------------------------------
-- Delivery (clause 2.7.4). The submitter names, per district d (index d), the oldest
-- undelivered order p_o_ids[d] and its customer p_c_ids[d] (0: none), so that every key
-- is an input (bench/tpcc/README.md, "How Delivery gets its keys"). A district whose
-- new_order row is already gone is skipped. Returns one row per delivered district.

CREATE OR REPLACE FUNCTION tpcc_delivery(
    p_w_id integer, p_o_carrier_id integer, p_delivery_d timestamp,
    p_o_ids integer[], p_c_ids integer[])
  RETURNS TABLE (district_id integer, order_id integer)
  LANGUAGE plpgsql AS $$
DECLARE
  v_o_id integer;
  v_c_id integer;
  v_amount numeric(12,2);
BEGIN
  -- Reads first: a broken invariant aborts before any write.
  FOR v_d IN 1..10 LOOP
    v_o_id := p_o_ids[v_d];
    IF v_o_id <> 0 THEN
      PERFORM 1 FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
      IF FOUND THEN
        SELECT o_c_id INTO STRICT v_c_id
          FROM orders WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
        IF v_c_id <> p_c_ids[v_d] THEN
          RAISE EXCEPTION 'tpcc: order (%, %, %) belongs to customer %, not %',
            p_w_id, v_d, v_o_id, v_c_id, p_c_ids[v_d];
        END IF;
      END IF;
    END IF;
  END LOOP;

  -- Writes. The DELETE finds the new_order row exactly when the loop above did.
  FOR v_d IN 1..10 LOOP
    v_o_id := p_o_ids[v_d];
    IF v_o_id = 0 THEN
      CONTINUE;
    END IF;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
    IF NOT FOUND THEN
      CONTINUE;
    END IF;
    UPDATE orders SET o_carrier_id = p_o_carrier_id
     WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
    SELECT COALESCE(sum(ol_amount), 0) INTO v_amount
      FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
    UPDATE order_line SET ol_delivery_d = p_delivery_d
     WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
    UPDATE customer
       SET c_balance = c_balance + v_amount,
           c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = p_c_ids[v_d];
    district_id := v_d;
    order_id := v_o_id;
    RETURN NEXT;
  END LOOP;
END;
$$;

-- ---------------------------------------------------------------------------------------
-- Stock-Level (clause 2.8.2), read-only: how many distinct items of the district's last
-- 20 orders (o_id in [d_next_o_id - 20, d_next_o_id)) have s_quantity below the threshold.

CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w_id integer, p_d_id integer, p_threshold integer)
  RETURNS integer
  LANGUAGE plpgsql AS $$
DECLARE
  v_next_o_id integer;
  v_items integer[];
  v_item integer;
  v_quantity numeric(4);
  v_low_stock integer := 0;
BEGIN
  SELECT d_next_o_id INTO STRICT v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COALESCE(array_agg(DISTINCT ol_i_id ORDER BY ol_i_id), '{}') INTO v_items
    FROM order_line
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
     AND ol_o_id >= v_next_o_id - 20 AND ol_o_id < v_next_o_id;
  FOREACH v_item IN ARRAY v_items LOOP
    SELECT s_quantity INTO v_quantity FROM stock WHERE s_w_id = p_w_id AND s_i_id = v_item;
    IF FOUND AND v_quantity < p_threshold THEN
      v_low_stock := v_low_stock + 1;
    END IF;
  END LOOP;
  RETURN v_low_stock;
END;
$$;
