-- The query planner's choices over the TPC-C schema (empty tables: every table counts
-- the same, so the order follows the rules in planner/binder/join_planner.cc): index
-- nested loops where the left side binds a key, hash joins on other equalities, nested
-- loops otherwise; filters pushed to the scans they read; subplans, CTEs, windows.
\i sql/tpcc/schema.sql
EXPLAIN SELECT c.c_last, o.o_id FROM orders o JOIN customer c ON c.c_w_id = o.o_w_id AND c.c_d_id = o.o_d_id AND c.c_id = o.o_c_id WHERE o.o_w_id = 1 AND o.o_d_id = 2;
EXPLAIN SELECT count(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = 1 AND ol.ol_d_id = 3 AND ol.ol_o_id >= 10 AND s.s_quantity < 15;
EXPLAIN SELECT i.i_name, sum(ol.ol_amount) FROM order_line ol JOIN item i ON i.i_name = ol.ol_dist_info GROUP BY i.i_name;
EXPLAIN SELECT c.c_id FROM customer c LEFT JOIN orders o ON o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id WHERE o.o_id IS NULL;
EXPLAIN SELECT c_id FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id);
EXPLAIN SELECT w.w_name, d.d_name FROM warehouse w, district d WHERE d.d_w_id = w.w_id AND d.d_tax > w.w_tax;
EXPLAIN SELECT * FROM item i FULL JOIN stock s ON s.s_i_id = i.i_id;
EXPLAIN WITH big AS (SELECT o_d_id, count(*) AS n FROM orders GROUP BY o_d_id) SELECT * FROM big WHERE n > (SELECT avg(n) FROM big);
EXPLAIN SELECT o_id, row_number() OVER (PARTITION BY o_d_id ORDER BY o_entry_d DESC) FROM orders LIMIT 5;
EXPLAIN SELECT i_id FROM item EXCEPT SELECT ol_i_id FROM order_line;
EXPLAIN SELECT s.s_i_id, u.q FROM unnest(ARRAY[1, 2, 3], ARRAY[5, 5, 5]) AS u(i, q) JOIN stock s ON s.s_w_id = 1 AND s.s_i_id = u.i;
EXPLAIN SELECT d.d_id, x.n FROM district d, LATERAL (SELECT count(*) AS n FROM new_order WHERE no_w_id = d.d_w_id AND no_d_id = d.d_id) x;
EXPLAIN INSERT INTO new_order SELECT o_id, o_d_id, o_w_id FROM orders WHERE o_w_id = 1 AND o_carrier_id IS NULL;
EXPLAIN SELECT unnest(ARRAY[1, 2]), generate_series(1, 3);
EXPLAIN SELECT i_id FROM item ORDER BY i_price DESC LIMIT 10;
