-- Test-only helpers (never compiled by our compiler): snapshots of the loaded state and a
-- deterministic generator of a TPC-C call stream, with the bookkeeping the checks need.
-- Run after tpcc_load.sql; then
--   SELECT * FROM test_tpcc_generate(warehouses, items, customers, orders, txns, seed, remote_pct)
-- prints the stream: one psql line per statement, each call its own transaction, exactly
-- what a client of sql/tpcc would send. The generator mirrors bench/tpcc/tpcc.cc: it
-- mirrors each district's order-id sequence (rolled-back NewOrders included) and keeps a
-- FIFO of undelivered (o_id, c_id) per district, from which Delivery pops one order per
-- district (0 when empty). Items, customers and the mix are uniform (no NURand): a test,
-- not a benchmark. Mix as in the paper: NewOrder 45%, Payment 43%, OrderStatus, Delivery
-- and StockLevel 4% each; 1% of NewOrders name item `items + 1` last and must fail.

CREATE TABLE test_stock0 AS SELECT * FROM stock;
CREATE TABLE test_customer0 AS SELECT * FROM customer;

CREATE TABLE test_gen_call (seq integer PRIMARY KEY, kind text);
CREATE TABLE test_gen_new_order (seq integer PRIMARY KEY, w integer, d integer, o_id integer, c_id integer,
                                 ol_cnt integer, all_local integer, entry_d timestamp, valid boolean);
CREATE TABLE test_gen_line (seq integer, ol_number integer, item integer, supply_w integer, qty integer,
                            PRIMARY KEY (seq, ol_number));
CREATE TABLE test_gen_queue (w integer, d integer, o_id integer, c_id integer, generated boolean,
                             popped_seq integer, carrier integer, delivery_d timestamp,
                             PRIMARY KEY (w, d, o_id));
CREATE TABLE test_gen_payment (seq integer PRIMARY KEY, h_id bigint, w integer, d integer, c_w integer,
                               c_d integer, c integer, amount numeric(6,2), h_date timestamp);

-- Park-Miller minimal standard generator: x in [1, 2^31 - 2].
CREATE FUNCTION test_lcg(x bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS $$ SELECT x * 48271 % 2147483647 $$;

CREATE FUNCTION test_tpcc_generate(p_warehouses integer, p_items integer, p_customers integer,
                                   p_orders integer, p_txns integer, p_seed bigint, p_remote_pct integer)
  RETURNS SETOF text
  LANGUAGE plpgsql AS $$
<<gen>>
DECLARE
  x bigint := 1 + p_seed % 2147483646;
  next_o integer[] := array_fill(p_orders + 1, ARRAY[p_warehouses * 10]);
  h_next bigint := p_warehouses::bigint * 10 * p_customers + 1;
  ts timestamp;
  w integer; d integer; c integer; pick integer; n integer; item integer; sw integer; q integer;
  c_w integer; c_d integer; carrier integer; o integer; rollback boolean;
  items integer[]; supply integer[]; qtys integer[];
  o_ids integer[]; c_ids integer[];
  amount numeric(6,2);
  line text;
  rec record;
BEGIN
  INSERT INTO test_gen_queue (w, d, o_id, c_id, generated)
  SELECT no_w_id, no_d_id, no_o_id, o_c_id, false
    FROM new_order JOIN orders ON o_w_id = no_w_id AND o_d_id = no_d_id AND o_id = no_o_id;

  FOR t IN 1..p_txns LOOP
    ts := timestamp '2024-01-02 00:00:00' + t * interval '1 millisecond';
    x := test_lcg(x); w := 1 + x % p_warehouses;
    x := test_lcg(x); pick := 1 + x % 100;
    IF pick <= 45 THEN
      x := test_lcg(x); d := 1 + x % 10;
      x := test_lcg(x); c := 1 + x % p_customers;
      x := test_lcg(x); n := 5 + x % 11;
      x := test_lcg(x); rollback := x % 100 = 0;
      items := '{}'; supply := '{}'; qtys := '{}';
      WHILE COALESCE(array_length(items, 1), 0) < n LOOP
        x := test_lcg(x); item := 1 + x % p_items;
        CONTINUE WHEN item = ANY (items);
        sw := w;
        IF p_warehouses > 1 THEN
          x := test_lcg(x);
          IF x % 100 < p_remote_pct THEN
            x := test_lcg(x); sw := 1 + x % (p_warehouses - 1);
            IF sw >= w THEN sw := sw + 1; END IF;
          END IF;
        END IF;
        x := test_lcg(x); q := 1 + x % 10;
        items := items || item; supply := supply || sw; qtys := qtys || q;
      END LOOP;
      IF rollback THEN
        items[n] := p_items + 1;
      END IF;
      o := next_o[(w - 1) * 10 + d];
      next_o[(w - 1) * 10 + d] := o + 1;
      INSERT INTO test_gen_new_order VALUES (t, w, d, o, c, n,
        CASE WHEN w = ALL (supply) THEN 1 ELSE 0 END, ts, NOT rollback);
      IF NOT rollback THEN
        INSERT INTO test_gen_queue (w, d, o_id, c_id, generated) VALUES (w, d, o, c, true);
        FOR k IN 1..n LOOP
          INSERT INTO test_gen_line VALUES (t, k, items[k], supply[k], qtys[k]);
        END LOOP;
      END IF;
      line := format('SELECT * FROM tpcc_new_order(%s, %s, %s, %L, %L, %L, %L);',
                     w, d, c, items::text, supply::text, qtys::text, ts::text);
      INSERT INTO test_gen_call VALUES (t, CASE WHEN rollback THEN 'new_order_rollback' ELSE 'new_order' END);
      IF rollback THEN
        RETURN NEXT '\set ON_ERROR_STOP 0';
        RETURN NEXT line;
        RETURN NEXT '\set ON_ERROR_STOP 1';
        RETURN NEXT 'SELECT test_expect_error(:''ERROR'', :''LAST_ERROR_SQLSTATE'', :''LAST_ERROR_MESSAGE'', '
                    '''P0001'', ''Item number is not valid'');';
      ELSE
        RETURN NEXT line;
      END IF;
    ELSIF pick <= 88 THEN
      x := test_lcg(x); d := 1 + x % 10;
      c_w := w; c_d := d;
      IF p_warehouses > 1 THEN
        x := test_lcg(x);
        IF x % 100 < 15 THEN
          x := test_lcg(x); c_w := 1 + x % (p_warehouses - 1);
          IF c_w >= w THEN c_w := c_w + 1; END IF;
          x := test_lcg(x); c_d := 1 + x % 10;
        END IF;
      END IF;
      x := test_lcg(x); c := 1 + x % p_customers;
      x := test_lcg(x); amount := (100 + x % 499901) / 100.0;
      INSERT INTO test_gen_payment VALUES (t, h_next, w, d, c_w, c_d, c, amount, ts);
      h_next := h_next + 1;
      INSERT INTO test_gen_call VALUES (t, 'payment');
      RETURN NEXT format('CALL tpcc_payment(%s, %s, %s, %s, %s, %s, %L);', w, d, c_w, c_d, c, amount, ts::text);
    ELSIF pick <= 92 THEN
      x := test_lcg(x); d := 1 + x % 10;
      x := test_lcg(x); c := 1 + x % p_customers;
      INSERT INTO test_gen_call VALUES (t, 'order_status');
      RETURN NEXT format('SELECT * FROM tpcc_order_status(%s, %s, %s);', w, d, c);
    ELSIF pick <= 96 THEN
      x := test_lcg(x); carrier := 1 + x % 10;
      o_ids := '{}'; c_ids := '{}';
      FOR dd IN 1..10 LOOP
        SELECT gq.o_id, gq.c_id INTO rec FROM test_gen_queue AS gq
         WHERE gq.w = gen.w AND gq.d = dd AND gq.popped_seq IS NULL
         ORDER BY gq.o_id LIMIT 1;
        IF FOUND THEN
          UPDATE test_gen_queue AS gq SET popped_seq = t, carrier = gen.carrier, delivery_d = ts
           WHERE gq.w = gen.w AND gq.d = dd AND gq.o_id = rec.o_id;
          o_ids := o_ids || rec.o_id; c_ids := c_ids || rec.c_id;
        ELSE
          o_ids := o_ids || 0; c_ids := c_ids || 0;
        END IF;
      END LOOP;
      INSERT INTO test_gen_call VALUES (t, 'delivery');
      RETURN NEXT format('SELECT * FROM tpcc_delivery(%s, %s, %L, %L, %L);', w, carrier, ts::text,
                        o_ids::text, c_ids::text);
    ELSE
      x := test_lcg(x); d := 1 + x % 10;
      x := test_lcg(x); q := 10 + x % 11;
      INSERT INTO test_gen_call VALUES (t, 'stock_level');
      RETURN NEXT format('SELECT tpcc_stock_level(%s, %s, %s);', w, d, q);
    END IF;
  END LOOP;
END gen;
$$;

-- For the stream: the statement before must have failed with this SQLSTATE and message.
CREATE FUNCTION test_expect_error(p_error text, p_sqlstate text, p_message text,
                                  p_want_sqlstate text, p_want_message text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF p_error IS DISTINCT FROM 'true' THEN
    RAISE EXCEPTION 'test: the statement before should have failed with "%"', p_want_message;
  END IF;
  IF p_sqlstate IS DISTINCT FROM p_want_sqlstate OR p_message IS DISTINCT FROM p_want_message THEN
    RAISE EXCEPTION 'test: expected % "%", got % "%"', p_want_sqlstate, p_want_message, p_sqlstate, p_message;
  END IF;
END;
$$;
