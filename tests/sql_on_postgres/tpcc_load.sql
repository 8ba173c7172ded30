-- A tiny, deterministic TPC-C database for testing sql/tpcc on PostgreSQL (the native
-- loader fills the real one). Shapes follow clause 4.3.3.1 scaled down; contents come from
-- md5 of the row's key, never from random(), so every run loads the same bytes.
--   psql -v warehouses=1 -v items=1000 -v customers=30 -v orders=30 -f tpcc_load.sql
-- Differences from the native loader that matter for the checks: w_ytd and d_ytd are
-- set to the loaded history amounts (customers * 10.00 per district), so that the spec's
-- conditions 8 and 9 hold from the start; orders [orders * 0.7 + 1, orders] are
-- undelivered (2101..3000 at full size).

SELECT :orders - (:orders * 3) / 10 + 1 AS first_undelivered \gset

-- 32 bits of md5(text): a deterministic pseudo-random number in [0, 2^32).
CREATE FUNCTION test_h(text) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || substr(md5($1), 1, 8))::bit(32)::bigint $$;
-- A string of letters and digits of length n (n <= 96), from md5 of the key.
CREATE FUNCTION test_s(text, integer) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$ SELECT substr(md5($1) || md5($1 || 'b') || md5($1 || 'c'), 1, $2) $$;

INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data)
SELECT i, 1 + test_h('im' || i) % 10000,
       test_s('in' || i, 14 + (test_h('inl' || i) % 11)::integer),
       (100 + test_h('ip' || i) % 9901) / 100.0,
       left(CASE WHEN test_h('io' || i) % 10 = 0 THEN 'ORIGINAL' ELSE '' END
              || test_s('id' || i, 50), 26 + (test_h('idl' || i) % 25)::integer)
  FROM generate_series(1, :items) AS i;

INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd)
SELECT w, test_s('wn' || w, 6 + (w % 5)), test_s('ws1' || w, 15), test_s('ws2' || w, 12),
       test_s('wc' || w, 10), upper(test_s('wst' || w, 2)), '12345' || lpad((w % 10000)::text, 4, '0'),
       (test_h('wt' || w) % 2001) / 10000.0, 10 * :customers * 10.00
  FROM generate_series(1, :warehouses) AS w;

INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax,
                      d_ytd, d_next_o_id)
SELECT d, w, test_s(format('dn%s-%s', w, d), 6 + ((w + d) % 5)), test_s(format('ds1%s-%s', w, d), 14),
       test_s(format('ds2%s-%s', w, d), 11), test_s(format('dc%s-%s', w, d), 10), 'CA',
       '543211111', (test_h(format('dt%s-%s', w, d)) % 2001) / 10000.0, :customers * 10.00, :orders + 1
  FROM generate_series(1, :warehouses) AS w, generate_series(1, 10) AS d;

INSERT INTO customer
SELECT c, d, w, test_s(format('cf%s-%s-%s', w, d, c), 8 + (c % 9)), 'OE',
       (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[1 + c % 10]
         || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[1 + (c / 10) % 10],
       test_s(format('cs1%s-%s-%s', w, d, c), 16), test_s(format('cs2%s-%s-%s', w, d, c), 13),
       test_s(format('cc%s-%s-%s', w, d, c), 12), 'NY', '987651111',
       lpad((test_h(format('cp%s-%s-%s', w, d, c)) % 10000000000)::text, 16, '0'),
       timestamp '2024-01-01 00:00:00',
       CASE WHEN test_h(format('cr%s-%s-%s', w, d, c)) % 10 < 2 THEN 'BC' ELSE 'GC' END,
       50000.00, (test_h(format('cd%s-%s-%s', w, d, c)) % 5001) / 10000.0,
       -10.00, 10.00, 1, 0,
       repeat(md5(format('cx%s-%s-%s', w, d, c)), 16)::varchar(300)
         || test_s(format('cy%s-%s-%s', w, d, c), (test_h(format('cz%s-%s-%s', w, d, c)) % 96)::integer)
  FROM generate_series(1, :warehouses) AS w, generate_series(1, 10) AS d,
       generate_series(1, :customers) AS c;

INSERT INTO history (h_id, h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
SELECT ((w - 1) * 10 + d - 1) * :customers + c, c, d, w, d, w, timestamp '2024-01-01 00:00:00', 10.00,
       test_s(format('hd%s-%s-%s', w, d, c), 12 + (c % 13))
  FROM generate_series(1, :warehouses) AS w, generate_series(1, 10) AS d,
       generate_series(1, :customers) AS c;

-- Orders 1..orders of each district go to a permutation of the customers (orders =
-- customers here, as in the spec), ordered by md5.
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
SELECT o, d, w, c, timestamp '2024-01-01 00:00:00',
       CASE WHEN o < :first_undelivered THEN 1 + (test_h(format('oc%s-%s-%s', w, d, o)) % 10)::integer END,
       5 + test_h(format('on%s-%s-%s', w, d, o)) % 11, 1
  FROM (SELECT w, d, c, row_number() OVER (PARTITION BY w, d ORDER BY md5(format('op%s-%s-%s', w, d, c)), c) AS o
          FROM generate_series(1, :warehouses) AS w, generate_series(1, 10) AS d,
               generate_series(1, :customers) AS c) AS perm
 WHERE o <= :orders;

INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                        ol_quantity, ol_amount, ol_dist_info)
SELECT o_id, o_d_id, o_w_id, n, 1 + (test_h(format('li%s-%s-%s-%s', o_w_id, o_d_id, o_id, n)) % :items)::integer,
       o_w_id, CASE WHEN o_id < :first_undelivered THEN timestamp '2024-01-01 00:00:00' END, 5,
       CASE WHEN o_id < :first_undelivered THEN 0
            ELSE (1 + test_h(format('la%s-%s-%s-%s', o_w_id, o_d_id, o_id, n)) % 999999) / 100.0 END,
       test_s(format('ld%s-%s-%s-%s', o_w_id, o_d_id, o_id, n), 24)
  FROM orders, generate_series(1, 15) AS n
 WHERE n <= o_ol_cnt;

INSERT INTO new_order (no_o_id, no_d_id, no_w_id)
SELECT o_id, o_d_id, o_w_id FROM orders WHERE o_id >= :first_undelivered;

INSERT INTO stock
SELECT i, w, 10 + test_h(format('sq%s-%s', w, i)) % 91,
       test_s(format('s01%s-%s', w, i), 24), test_s(format('s02%s-%s', w, i), 24),
       test_s(format('s03%s-%s', w, i), 24), test_s(format('s04%s-%s', w, i), 24),
       test_s(format('s05%s-%s', w, i), 24), test_s(format('s06%s-%s', w, i), 24),
       test_s(format('s07%s-%s', w, i), 24), test_s(format('s08%s-%s', w, i), 24),
       test_s(format('s09%s-%s', w, i), 24), test_s(format('s10%s-%s', w, i), 24),
       0, 0, 0, test_s(format('sd%s-%s', w, i), 26 + (test_h(format('sl%s-%s', w, i)) % 25)::integer)
  FROM generate_series(1, :warehouses) AS w, generate_series(1, :items) AS i;

ANALYZE;
