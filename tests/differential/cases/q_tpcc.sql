-- Ad-hoc queries of the kind TPC-H asks, over a small TPC-C database (sql/tpcc/demo.sql:
-- one warehouse, 100 items, 10 districts of 10 customers), after some NewOrder and
-- Payment calls: joins, grouping over joins, subqueries, CTEs, window functions.
--- include: sql/tpcc/demo.sql
\set QUIET on
SELECT order_id FROM tpcc_new_order(1, 6, 3, '{84,7,10,69}', '{1,1,1,1}', '{2,6,10,1}', '2024-01-01 10:00');
SELECT order_id FROM tpcc_new_order(1, 9, 4, '{12}', '{1}', '{7}', '2024-01-02 11:00');
SELECT order_id FROM tpcc_new_order(1, 7, 2, '{12,71}', '{1,1}', '{7,1}', '2024-01-03 12:00');
SELECT order_id FROM tpcc_new_order(1, 10, 2, '{81,75}', '{1,1}', '{1,10}', '2024-01-04 13:00');
SELECT order_id FROM tpcc_new_order(1, 10, 7, '{29}', '{1}', '{1}', '2024-01-05 14:00');
SELECT order_id FROM tpcc_new_order(1, 9, 3, '{54,19,70}', '{1,1,1}', '{2,10,5}', '2024-01-06 15:00');
SELECT order_id FROM tpcc_new_order(1, 9, 3, '{75}', '{1}', '{10}', '2024-01-07 16:00');
SELECT order_id FROM tpcc_new_order(1, 4, 6, '{71}', '{1}', '{2}', '2024-01-08 17:00');
SELECT order_id FROM tpcc_new_order(1, 10, 1, '{27,64,88,69,55}', '{1,1,1,1,1}', '{6,8,10,8,6}', '2024-01-09 18:00');
SELECT order_id FROM tpcc_new_order(1, 5, 4, '{90,100}', '{1,1}', '{4,2}', '2024-01-01 19:00');
SELECT order_id FROM tpcc_new_order(1, 10, 5, '{64,44,94,58,37}', '{1,1,1,1,1}', '{10,2,2,9,7}', '2024-01-02 10:00');
SELECT order_id FROM tpcc_new_order(1, 3, 6, '{63,54}', '{1,1}', '{1,2}', '2024-01-03 11:00');
SELECT order_id FROM tpcc_new_order(1, 9, 10, '{44,89,45}', '{1,1,1}', '{10,8,10}', '2024-01-04 12:00');
SELECT order_id FROM tpcc_new_order(1, 8, 2, '{35}', '{1}', '{8}', '2024-01-05 13:00');
SELECT order_id FROM tpcc_new_order(1, 2, 1, '{83,74,88}', '{1,1,1}', '{8,5,7}', '2024-01-06 14:00');
SELECT order_id FROM tpcc_new_order(1, 6, 1, '{46,22,79,15}', '{1,1,1,1}', '{8,1,4,5}', '2024-01-07 15:00');
SELECT order_id FROM tpcc_new_order(1, 3, 4, '{51,64,11,22}', '{1,1,1,1}', '{8,7,9,5}', '2024-01-08 16:00');
SELECT order_id FROM tpcc_new_order(1, 3, 7, '{36,91,54,46,88}', '{1,1,1,1,1}', '{7,4,3,2,3}', '2024-01-09 17:00');
SELECT order_id FROM tpcc_new_order(1, 3, 4, '{2,63}', '{1,1}', '{10,3}', '2024-01-01 18:00');
SELECT order_id FROM tpcc_new_order(1, 5, 5, '{19}', '{1}', '{7}', '2024-01-02 19:00');
SELECT order_id FROM tpcc_new_order(1, 9, 6, '{73,41,17,89,66}', '{1,1,1,1,1}', '{10,1,8,9,7}', '2024-01-03 10:00');
SELECT order_id FROM tpcc_new_order(1, 7, 7, '{14,62,82,52}', '{1,1,1,1}', '{1,4,2,4}', '2024-01-04 11:00');
SELECT order_id FROM tpcc_new_order(1, 8, 3, '{44}', '{1}', '{10}', '2024-01-05 12:00');
SELECT order_id FROM tpcc_new_order(1, 1, 2, '{73}', '{1}', '{3}', '2024-01-06 13:00');
SELECT order_id FROM tpcc_new_order(1, 9, 2, '{79,4,10}', '{1,1,1}', '{4,10,7}', '2024-01-07 14:00');
SELECT order_id FROM tpcc_new_order(1, 3, 5, '{78,47,61}', '{1,1,1}', '{2,2,8}', '2024-01-08 15:00');
SELECT order_id FROM tpcc_new_order(1, 8, 8, '{40,11,19,14}', '{1,1,1,1}', '{6,5,8,3}', '2024-01-09 16:00');
SELECT order_id FROM tpcc_new_order(1, 9, 1, '{68,47}', '{1,1}', '{3,9}', '2024-01-01 17:00');
SELECT order_id FROM tpcc_new_order(1, 1, 9, '{83,12,90}', '{1,1,1}', '{5,9,6}', '2024-01-02 18:00');
SELECT order_id FROM tpcc_new_order(1, 3, 6, '{69,70}', '{1,1}', '{9,6}', '2024-01-03 19:00');
SELECT order_id FROM tpcc_new_order(1, 4, 10, '{31,52}', '{1,1}', '{4,4}', '2024-01-04 10:00');
SELECT order_id FROM tpcc_new_order(1, 9, 8, '{94,4,36}', '{1,1,1}', '{8,5,4}', '2024-01-05 11:00');
SELECT order_id FROM tpcc_new_order(1, 10, 6, '{93,45,47,11}', '{1,1,1,1}', '{4,2,4,8}', '2024-01-06 12:00');
SELECT order_id FROM tpcc_new_order(1, 4, 6, '{62,80}', '{1,1}', '{10,1}', '2024-01-07 13:00');
SELECT order_id FROM tpcc_new_order(1, 8, 6, '{85}', '{1}', '{2}', '2024-01-08 14:00');
SELECT order_id FROM tpcc_new_order(1, 7, 4, '{23,56,82,43}', '{1,1,1,1}', '{2,7,8,7}', '2024-01-09 15:00');
SELECT order_id FROM tpcc_new_order(1, 2, 3, '{17,4}', '{1,1}', '{3,10}', '2024-01-01 16:00');
SELECT order_id FROM tpcc_new_order(1, 8, 3, '{77,61,85,45,20}', '{1,1,1,1,1}', '{9,9,3,1,1}', '2024-01-02 17:00');
SELECT order_id FROM tpcc_new_order(1, 2, 9, '{56,25}', '{1,1}', '{4,1}', '2024-01-03 18:00');
SELECT order_id FROM tpcc_new_order(1, 5, 4, '{65,31,98}', '{1,1,1}', '{10,6,5}', '2024-01-04 19:00');
CALL tpcc_payment(1, 9, 1, 9, 7, 11.73, '2024-02-01 10:00');
CALL tpcc_payment(1, 1, 1, 1, 6, 38.53, '2024-02-01 10:00');
CALL tpcc_payment(1, 10, 1, 10, 9, 35.45, '2024-02-01 10:00');
CALL tpcc_payment(1, 9, 1, 9, 3, 44.56, '2024-02-01 10:00');
CALL tpcc_payment(1, 3, 1, 3, 9, 42.82, '2024-02-01 10:00');
CALL tpcc_payment(1, 1, 1, 1, 8, 16.00, '2024-02-01 10:00');
CALL tpcc_payment(1, 10, 1, 10, 1, 13.27, '2024-02-01 10:00');
CALL tpcc_payment(1, 3, 1, 3, 3, 39.78, '2024-02-01 10:00');
CALL tpcc_payment(1, 10, 1, 10, 2, 46.58, '2024-02-01 10:00');
CALL tpcc_payment(1, 1, 1, 1, 6, 43.46, '2024-02-01 10:00');
CALL tpcc_payment(1, 9, 1, 9, 9, 40.52, '2024-02-01 10:00');
CALL tpcc_payment(1, 2, 1, 2, 9, 5.65, '2024-02-01 10:00');
CALL tpcc_payment(1, 4, 1, 4, 4, 23.68, '2024-02-01 10:00');
CALL tpcc_payment(1, 1, 1, 1, 2, 42.59, '2024-02-01 10:00');
CALL tpcc_payment(1, 8, 1, 8, 9, 3.28, '2024-02-01 10:00');
\set QUIET off
-- Revenue by district.
SELECT o.o_d_id, count(DISTINCT o.o_id) AS orders, sum(ol.ol_amount) AS revenue
FROM orders o JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
GROUP BY o.o_d_id ORDER BY revenue DESC, o.o_d_id;
-- Customers with no orders.
SELECT c.c_d_id, count(*) FROM customer c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id)
GROUP BY c.c_d_id ORDER BY 1;
SELECT c.c_id, c.c_d_id, c.c_last FROM customer c LEFT JOIN orders o
  ON o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id
WHERE o.o_id IS NULL AND c.c_d_id <= 2 ORDER BY c.c_d_id, c.c_id;
-- Stock below a threshold joined to recent order lines (Stock-Level as one statement).
SELECT count(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
WHERE ol.ol_w_id = 1 AND ol.ol_d_id = 3 AND ol.ol_o_id >= (SELECT d_next_o_id - 20 FROM district WHERE d_w_id = 1 AND d_id = 3)
  AND s.s_quantity < 45;
SELECT d.d_id, (SELECT count(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
                WHERE ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id AND s.s_quantity < 48) AS low
FROM district d ORDER BY d.d_id;
-- Best-selling items and their share.
SELECT i.i_id, i.i_name, sum(ol.ol_quantity) AS qty, sum(ol.ol_amount) AS amount
FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id
GROUP BY i.i_id, i.i_name HAVING sum(ol.ol_quantity) >= 10 ORDER BY qty DESC, i.i_id LIMIT 10;
SELECT i_id, i_price FROM item WHERE i_price > (SELECT avg(i_price) FROM item) AND i_id < 20 ORDER BY i_id;
-- Order sizes per customer, ranked within their district.
SELECT o_d_id, o_c_id, n, rank() OVER (PARTITION BY o_d_id ORDER BY n DESC) AS r
FROM (SELECT o_d_id, o_c_id, count(*) AS n FROM orders GROUP BY o_d_id, o_c_id) per_customer
ORDER BY o_d_id, r, o_c_id LIMIT 25;
-- Each customer's latest order (DISTINCT ON) and the running revenue of a district.
SELECT DISTINCT ON (o_d_id, o_c_id) o_d_id, o_c_id, o_id, o_entry_d FROM orders WHERE o_d_id <= 3
ORDER BY o_d_id, o_c_id, o_id DESC;
SELECT o.o_id, sum(ol.ol_amount) AS amount,
       sum(sum(ol.ol_amount)) OVER (ORDER BY o.o_id) AS running
FROM orders o JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
WHERE o.o_d_id = 5 GROUP BY o.o_id ORDER BY o.o_id;
-- Payments: customers whose balance went down, with the district's name.
SELECT c.c_id, c.c_d_id, d.d_name, c.c_balance, c.c_payment_cnt
FROM customer c JOIN district d ON d.d_w_id = c.c_w_id AND d.d_id = c.c_d_id
WHERE c.c_payment_cnt > 1 ORDER BY c.c_balance, c.c_d_id, c.c_id;
SELECT h.h_d_id, count(*), sum(h.h_amount), max(h.h_amount) FROM history h GROUP BY h.h_d_id ORDER BY 1;
-- CTEs: districts above the average order count.
WITH per_district AS (SELECT o_d_id, count(*) AS n FROM orders GROUP BY o_d_id),
     average AS (SELECT avg(n) AS a FROM per_district)
SELECT p.o_d_id, p.n FROM per_district p, average WHERE p.n > average.a ORDER BY p.o_d_id;
-- Items never ordered, and ordered ones, as set operations.
SELECT count(*) FROM (SELECT i_id FROM item EXCEPT SELECT ol_i_id FROM order_line) never;
SELECT count(*) FROM (SELECT i_id FROM item INTERSECT SELECT ol_i_id FROM order_line) ordered;
SELECT ol_i_id FROM order_line WHERE ol_d_id = 1 UNION SELECT ol_i_id FROM order_line WHERE ol_d_id = 2 ORDER BY 1 LIMIT 8;
-- New orders still waiting, oldest per district, with their customer.
SELECT no.no_d_id, min(no.no_o_id) FROM new_order no GROUP BY no.no_d_id ORDER BY 1;
SELECT n.no_d_id, n.no_o_id, c.c_last FROM new_order n
  JOIN orders o ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id
  JOIN customer c ON c.c_w_id = o.o_w_id AND c.c_d_id = o.o_d_id AND c.c_id = o.o_c_id
WHERE n.no_o_id = (SELECT min(no_o_id) FROM new_order x WHERE x.no_w_id = n.no_w_id AND x.no_d_id = n.no_d_id)
ORDER BY 1;
-- Order lines per order as arrays and strings.
SELECT ol_o_id, array_agg(ol_i_id ORDER BY ol_i_id), string_agg(ol_i_id::text, ',' ORDER BY ol_i_id::text)
FROM order_line WHERE ol_d_id = 2 GROUP BY ol_o_id ORDER BY ol_o_id;
SELECT o.o_id, o.o_ol_cnt, (SELECT count(*) FROM order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id) AS lines
FROM orders o WHERE o.o_d_id = 4 ORDER BY o.o_id;
-- Customers of credit BC with orders, via IN and via a join: the same rows.
SELECT c_id, c_d_id FROM customer WHERE c_credit = 'BC'
  AND c_id IN (SELECT o_c_id FROM orders WHERE o_d_id = customer.c_d_id) ORDER BY c_d_id, c_id;
SELECT DISTINCT c.c_id, c.c_d_id FROM customer c JOIN orders o ON o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id
WHERE c.c_credit = 'BC' ORDER BY c.c_d_id, c.c_id;
-- Stock rows below 45 with the lines that took them there, lateral.
SELECT s.s_i_id, s.s_quantity, last.ol_o_id, last.ol_d_id FROM stock s
  CROSS JOIN LATERAL (SELECT ol_o_id, ol_d_id FROM order_line WHERE ol_i_id = s.s_i_id ORDER BY ol_d_id DESC, ol_o_id DESC LIMIT 1) last
WHERE s.s_quantity < 45 ORDER BY s.s_i_id;
-- Quantity buckets of stock, with generate_series as a dimension.
SELECT b.lo, count(s.s_i_id) FROM generate_series(0, 90, 10) AS b(lo)
  LEFT JOIN stock s ON s.s_quantity >= b.lo AND s.s_quantity < b.lo + 10 GROUP BY b.lo ORDER BY b.lo;
