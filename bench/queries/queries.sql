-- revenue by district
SELECT o.o_w_id, o.o_d_id, count(*) AS lines, sum(ol.ol_amount) AS revenue FROM orders o JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id GROUP BY o.o_w_id, o.o_d_id ORDER BY revenue DESC, o.o_w_id, o.o_d_id LIMIT 5;
-- customers with no orders
SELECT count(*) FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.o_w_id = c.c_w_id AND o.o_d_id = c.c_d_id AND o.o_c_id = c.c_id);
-- stock level of one district as one join
SELECT count(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = 1 AND ol.ol_d_id = 3 AND ol.ol_o_id >= 280 AND s.s_quantity < 20;
-- stock below threshold joined to recent order lines, all districts
SELECT ol.ol_w_id, count(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_o_id > 280 AND s.s_quantity < 15 GROUP BY ol.ol_w_id ORDER BY 1;
-- best-selling items
SELECT i.i_id, i.i_name, sum(ol.ol_quantity) AS qty FROM order_line ol JOIN item i ON i.i_id = ol.ol_i_id GROUP BY i.i_id, i.i_name ORDER BY qty DESC, i.i_id LIMIT 10;
-- orders per customer ranked in their district
SELECT count(*) FROM (SELECT o_w_id, o_d_id, o_c_id, rank() OVER (PARTITION BY o_w_id, o_d_id ORDER BY count(*) DESC) AS r FROM orders GROUP BY o_w_id, o_d_id, o_c_id) x WHERE r = 1;
-- undelivered orders with their customer
SELECT count(*), sum(c.c_balance) FROM new_order n JOIN orders o ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id JOIN customer c ON c.c_w_id = o.o_w_id AND c.c_d_id = o.o_d_id AND c.c_id = o.o_c_id;
-- districts above the average revenue (CTE)
WITH rev AS (SELECT ol_w_id, ol_d_id, sum(ol_amount) AS r FROM order_line GROUP BY ol_w_id, ol_d_id) SELECT count(*) FROM rev WHERE r > (SELECT avg(r) FROM rev);
