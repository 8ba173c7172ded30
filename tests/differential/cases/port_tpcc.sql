-- The port test: a TPC-C written as PostgreSQL users write it (from the TPC-C
-- specification, in the style of the PL/pgSQL kits load-testing tools ship), run
-- unchanged on PostgreSQL 15 and here: set-based statements (UPDATE ... FROM unnest,
-- INSERT ... SELECT with ORDINALITY, a DELETE ... USING in a data-modifying WITH, joins
-- and grouping), UPDATE ... RETURNING INTO, an EXCEPTION handler, a cursor with
-- arguments, GET DIAGNOSTICS, timestamptz, RETURNS SETOF record called with a column
-- definition list, a LANGUAGE sql function, a STRICT pseudo-random helper, CREATE UNIQUE
-- INDEX and a history table without a primary key. One warehouse: the calls conflict.
CREATE TABLE warehouse (w_id integer PRIMARY KEY, w_name varchar(10) NOT NULL, w_tax numeric(4,4) NOT NULL,
                        w_ytd numeric(12,2) NOT NULL);
CREATE TABLE district (d_w_id integer NOT NULL, d_id smallint NOT NULL, d_name varchar(10) NOT NULL,
                       d_tax numeric(4,4) NOT NULL, d_ytd numeric(12,2) NOT NULL, d_next_o_id integer NOT NULL,
                       PRIMARY KEY (d_w_id, d_id));
CREATE TABLE customer (c_w_id integer NOT NULL, c_d_id smallint NOT NULL, c_id integer NOT NULL,
                       c_first varchar(16) NOT NULL, c_last varchar(16) NOT NULL, c_credit char(2) NOT NULL,
                       c_discount numeric(4,4) NOT NULL, c_balance numeric(12,2) NOT NULL,
                       c_ytd_payment numeric(12,2) NOT NULL, c_payment_cnt integer NOT NULL,
                       c_delivery_cnt integer NOT NULL, c_since timestamptz NOT NULL,
                       PRIMARY KEY (c_w_id, c_d_id, c_id));
CREATE UNIQUE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first, c_id);
CREATE TABLE history (h_c_id integer, h_c_d_id smallint, h_c_w_id integer, h_d_id smallint, h_w_id integer,
                      h_date timestamptz NOT NULL, h_amount numeric(6,2) NOT NULL, h_data varchar(24));
CREATE TABLE item (i_id integer PRIMARY KEY, i_name varchar(24) NOT NULL, i_price numeric(5,2) NOT NULL);
CREATE TABLE stock (s_w_id integer NOT NULL, s_i_id integer NOT NULL, s_quantity smallint NOT NULL,
                    s_ytd integer NOT NULL, s_order_cnt integer NOT NULL, s_dist char(24) NOT NULL,
                    PRIMARY KEY (s_w_id, s_i_id));
CREATE TABLE orders (o_w_id integer NOT NULL, o_d_id smallint NOT NULL, o_id integer NOT NULL, o_c_id integer NOT NULL,
                     o_entry_d timestamptz NOT NULL, o_carrier_id smallint, o_ol_cnt smallint NOT NULL,
                     o_all_local smallint NOT NULL, PRIMARY KEY (o_w_id, o_d_id, o_id));
CREATE UNIQUE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
CREATE TABLE new_order (no_w_id integer NOT NULL, no_d_id smallint NOT NULL, no_o_id integer NOT NULL,
                        PRIMARY KEY (no_w_id, no_d_id, no_o_id));
CREATE TABLE order_line (ol_w_id integer NOT NULL, ol_d_id smallint NOT NULL, ol_o_id integer NOT NULL,
                         ol_number smallint NOT NULL, ol_i_id integer NOT NULL, ol_supply_w_id integer NOT NULL,
                         ol_delivery_d timestamptz, ol_quantity smallint NOT NULL, ol_amount numeric(6,2) NOT NULL,
                         PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number));

-- A linear congruential pick in [lo, hi], as kits define their NURand helpers; STRICT.
CREATE FUNCTION pick(p_seed integer, p_lo integer, p_hi integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN p_lo + ((p_seed::bigint * 1103515245 + 12345) % 2147483648) % (p_hi - p_lo + 1);
END $$;

INSERT INTO warehouse VALUES (1, 'w1', 0.1000, 300000.00);
INSERT INTO district SELECT 1, d, 'd' || d, d / 20.0, 30000.00, 7 FROM generate_series(1, 3) d;
INSERT INTO customer
SELECT 1, d, c, 'first' || lpad(c::text, 2, '0'), (ARRAY['BAR', 'OUGHT', 'ABLE'])[1 + c % 3],
       CASE WHEN c % 5 = 0 THEN 'BC' ELSE 'GC' END, (c % 7) / 20.0, -10.00, 10.00, 1, 0,
       timestamptz '2024-01-01 00:00:00+00' + c * interval '1 day'
FROM generate_series(1, 3) d, generate_series(1, 12) c;
INSERT INTO item SELECT i, 'item' || i, 1.00 + i % 17 FROM generate_series(1, 40) i;
INSERT INTO stock SELECT 1, i, 20 + i % 30, 0, 0, 'dist' || i FROM generate_series(1, 40) i;
INSERT INTO orders
SELECT 1, d, o, 1 + (o * 5) % 12, timestamptz '2024-02-01 00:00:00+00' + o * interval '1 hour',
       CASE WHEN o <= 4 THEN 1 + o % 10 END, 3 + o % 3, 1
FROM generate_series(1, 3) d, generate_series(1, 6) o;
INSERT INTO new_order SELECT 1, d, o FROM generate_series(1, 3) d, generate_series(5, 6) o;
INSERT INTO order_line
SELECT 1, d, o, n, 1 + (o * 7 + n * 3) % 40, 1,
       CASE WHEN o <= 4 THEN timestamptz '2024-02-02 00:00:00+00' END, 5, CASE WHEN o <= 4 THEN 0 ELSE 9.99 END
FROM generate_series(1, 3) d, generate_series(1, 6) o, generate_series(1, 5) n
WHERE n <= 3 + o % 3;

CREATE FUNCTION new_order(p_w integer, p_d integer, p_c integer, p_items integer[], p_qty integer[], p_now timestamptz)
RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v_o integer;
  v_discount numeric;
  v_w_tax numeric;
  v_d_tax numeric;
  v_total numeric;
BEGIN
  SELECT c_discount, w_tax INTO v_discount, v_w_tax
  FROM customer JOIN warehouse ON w_id = c_w_id
  WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  IF EXISTS (SELECT 1 FROM unnest(p_items) AS l (i) LEFT JOIN item ON i_id = l.i WHERE i_id IS NULL) THEN
    RAISE EXCEPTION 'item number is not valid';
  END IF;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d
  RETURNING d_next_o_id - 1, d_tax INTO v_o, v_d_tax;
  INSERT INTO orders VALUES (p_w, p_d, v_o, p_c, p_now, NULL, array_length(p_items, 1), 1);
  INSERT INTO new_order VALUES (p_w, p_d, v_o);
  UPDATE stock
  SET s_quantity = CASE WHEN s_quantity >= l.q + 10 THEN s_quantity - l.q ELSE s_quantity - l.q + 91 END,
      s_ytd = s_ytd + l.q, s_order_cnt = s_order_cnt + 1
  FROM unnest(p_items, p_qty) AS l (i, q)
  WHERE s_w_id = p_w AND s_i_id = l.i;
  INSERT INTO order_line
  SELECT p_w, p_d, v_o, l.n, l.i, p_w, NULL, l.q, l.q * i_price
  FROM unnest(p_items, p_qty) WITH ORDINALITY AS l (i, q, n) JOIN item ON i_id = l.i;
  SELECT sum(ol_amount) INTO v_total FROM order_line WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
  RETURN round(v_total * (1 - v_discount) * (1 + v_w_tax + v_d_tax), 2);
END $$;

CREATE FUNCTION payment(p_w integer, p_d integer, p_c integer, p_last varchar, p_amount numeric, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_c integer := p_c;
  v_n integer;
  by_name CURSOR (w integer, d integer, l varchar) FOR
    SELECT c_id FROM customer WHERE c_w_id = w AND c_d_id = d AND c_last = l ORDER BY c_first;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;
  IF p_c IS NULL THEN
    SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    IF v_n = 0 THEN
      RAISE EXCEPTION 'no customer named %', p_last USING ERRCODE = 'no_data_found';
    END IF;
    OPEN by_name(p_w, p_d, p_last);
    FOR k IN 1 .. (v_n + 1) / 2 LOOP
      FETCH by_name INTO v_c;
    END LOOP;
    CLOSE by_name;
  END IF;
  UPDATE customer
  SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1
  WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  INSERT INTO history VALUES (v_c, p_d, p_w, p_d, p_w, p_now, p_amount, 'pay ' || p_amount);
  RETURN v_c;
EXCEPTION
  WHEN no_data_found THEN
    RAISE NOTICE 'payment: %', SQLERRM;
    RETURN NULL;
END $$;

CREATE FUNCTION delivery(p_w integer, p_carrier integer, p_now timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_ds smallint[];
  v_os integer[];
  v_n integer;
BEGIN
  WITH oldest AS (
    DELETE FROM new_order AS n
    USING (SELECT no_d_id AS d, min(no_o_id) AS o FROM new_order WHERE no_w_id = p_w GROUP BY no_d_id) AS m
    WHERE n.no_w_id = p_w AND n.no_d_id = m.d AND n.no_o_id = m.o
    RETURNING n.no_d_id, n.no_o_id
  )
  SELECT array_agg(no_d_id), array_agg(no_o_id) INTO v_ds, v_os FROM oldest;
  UPDATE orders SET o_carrier_id = p_carrier
  FROM unnest(v_ds, v_os) AS x (d, o)
  WHERE o_w_id = p_w AND o_d_id = x.d AND o_id = x.o;
  UPDATE order_line SET ol_delivery_d = p_now
  FROM unnest(v_ds, v_os) AS x (d, o)
  WHERE ol_w_id = p_w AND ol_d_id = x.d AND ol_o_id = x.o;
  GET DIAGNOSTICS v_n = ROW_COUNT;
  UPDATE customer SET c_balance = c_balance + s.amount, c_delivery_cnt = c_delivery_cnt + 1
  FROM (SELECT o_d_id, o_c_id, sum(ol_amount) AS amount
        FROM orders
        JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
        JOIN unnest(v_ds, v_os) AS x (d, o) ON o_d_id = x.d AND o_id = x.o
        WHERE o_w_id = p_w
        GROUP BY o_d_id, o_c_id) AS s
  WHERE c_w_id = p_w AND c_d_id = s.o_d_id AND c_id = s.o_c_id;
  RETURN coalesce(array_length(v_ds, 1), 0) * 100 + v_n;
END $$;

CREATE FUNCTION order_status(p_w integer, p_d integer, p_c integer) RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_o integer;
BEGIN
  SELECT o_id INTO v_o FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = p_c ORDER BY o_id DESC LIMIT 1;
  FOR r IN SELECT ol_number, ol_i_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
           WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o ORDER BY ol_number LOOP
    RETURN NEXT r;
  END LOOP;
END $$;

CREATE FUNCTION stock_level(p_w integer, p_d integer, p_threshold integer) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(DISTINCT s_i_id)
  FROM district
  JOIN order_line ON ol_w_id = d_w_id AND ol_d_id = d_id AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id
  JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
  WHERE d_w_id = p_w AND d_id = p_d AND s_quantity < p_threshold
$$;

--- calls: port_tpcc 150
SELECT * FROM warehouse;
SELECT * FROM district ORDER BY d_id;
SELECT * FROM customer ORDER BY c_d_id, c_id;
SELECT * FROM history ORDER BY h_c_d_id, h_c_id, h_amount, h_data;
SELECT * FROM stock ORDER BY s_i_id;
SELECT * FROM orders ORDER BY o_d_id, o_id;
SELECT * FROM new_order ORDER BY no_d_id, no_o_id;
SELECT * FROM order_line ORDER BY ol_d_id, ol_o_id, ol_number;
SELECT d_id, d_next_o_id - 1 = (SELECT max(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS consistent
FROM district ORDER BY d_id;
SELECT w_ytd = (SELECT sum(d_ytd) FROM district WHERE d_w_id = w_id) AS consistent FROM warehouse;
