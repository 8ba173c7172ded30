-- A pipeline of TPC-C calls for the demo database (sql/tpcc/demo.sql): they are submitted
-- without waiting, share epochs, and their results print in submission order.
--   \i sql/tpcc/demo_calls.sql
\startpipeline
CALL tpcc_payment(1, 2, 1, 2, 8, 3997.21, '2024-01-01 11:01');
SELECT * FROM tpcc_new_order(1, 1, 3, '{41,48,95,98}', '{1,1,1,1}', '{1,5,8,4}', '2024-01-01 11:02');
CALL tpcc_payment(1, 7, 1, 7, 9, 2828.22, '2024-01-01 11:03');
CALL tpcc_payment(1, 4, 1, 4, 10, 2903.53, '2024-01-01 11:04');
CALL tpcc_payment(1, 5, 1, 5, 10, 3595.98, '2024-01-01 11:05');
SELECT * FROM tpcc_new_order(1, 7, 6, '{47}', '{1}', '{7}', '2024-01-01 11:06');
CALL tpcc_payment(1, 8, 1, 8, 2, 3962.35, '2024-01-01 11:07');
SELECT * FROM tpcc_new_order(1, 5, 2, '{76}', '{1}', '{4}', '2024-01-01 11:08');
CALL tpcc_payment(1, 6, 1, 6, 8, 4891.22, '2024-01-01 11:09');
CALL tpcc_payment(1, 4, 1, 4, 9, 3020.28, '2024-01-01 11:10');
CALL tpcc_payment(1, 9, 1, 9, 1, 3322.25, '2024-01-01 11:11');
SELECT * FROM tpcc_new_order(1, 10, 7, '{16,46,76}', '{1,1,1}', '{2,9,9}', '2024-01-01 11:12');
SELECT * FROM tpcc_new_order(1, 10, 5, '{26,49,93}', '{1,1,1}', '{8,4,3}', '2024-01-01 11:13');
CALL tpcc_payment(1, 9, 1, 9, 1, 990.57, '2024-01-01 11:14');
CALL tpcc_payment(1, 1, 1, 1, 6, 2925.19, '2024-01-01 11:15');
SELECT tpcc_stock_level(1, 10, 29);
SELECT * FROM tpcc_new_order(1, 9, 7, '{17,63,87}', '{1,1,1}', '{1,3,7}', '2024-01-01 11:17');
CALL tpcc_payment(1, 7, 1, 7, 2, 2314.43, '2024-01-01 11:18');
SELECT * FROM tpcc_new_order(1, 2, 10, '{10,49,58,67}', '{1,1,1,1}', '{7,8,5,7}', '2024-01-01 11:19');
SELECT * FROM tpcc_new_order(1, 4, 5, '{1,100001}', '{1,1}', '{1,1}', '2024-01-01 11:20');  -- item 100001 does not exist: aborts
CALL tpcc_payment(1, 3, 1, 3, 1, 115.67, '2024-01-01 11:21');
CALL tpcc_payment(1, 5, 1, 5, 10, 4204.62, '2024-01-01 11:22');
SELECT * FROM tpcc_new_order(1, 5, 9, '{33,43,53,67}', '{1,1,1,1}', '{7,8,5,8}', '2024-01-01 11:23');
CALL tpcc_payment(1, 8, 1, 8, 3, 3782.55, '2024-01-01 11:24');
SELECT * FROM tpcc_new_order(1, 5, 8, '{21,47,85}', '{1,1,1}', '{7,5,6}', '2024-01-01 11:25');
CALL tpcc_payment(1, 8, 1, 8, 3, 4911.54, '2024-01-01 11:26');
CALL tpcc_payment(1, 9, 1, 9, 1, 3271.42, '2024-01-01 11:27');
SELECT * FROM tpcc_new_order(1, 1, 3, '{79}', '{1}', '{2}', '2024-01-01 11:28');
CALL tpcc_payment(1, 6, 1, 6, 6, 4921.13, '2024-01-01 11:29');
CALL tpcc_payment(1, 10, 1, 10, 1, 4820.64, '2024-01-01 11:30');
SELECT * FROM tpcc_new_order(1, 5, 10, '{55}', '{1}', '{9}', '2024-01-01 11:31');
CALL tpcc_payment(1, 8, 1, 8, 4, 526.10, '2024-01-01 11:32');
SELECT * FROM tpcc_new_order(1, 3, 4, '{5,19,81}', '{1,1,1}', '{2,2,1}', '2024-01-01 11:33');
CALL tpcc_payment(1, 8, 1, 8, 2, 3299.80, '2024-01-01 11:34');
SELECT * FROM tpcc_new_order(1, 9, 3, '{21}', '{1}', '{5}', '2024-01-01 11:35');
SELECT tpcc_stock_level(1, 8, 54);
SELECT * FROM tpcc_new_order(1, 3, 4, '{57,58,62,100}', '{1,1,1,1}', '{9,5,8,2}', '2024-01-01 11:37');
CALL tpcc_payment(1, 5, 1, 5, 6, 1500.83, '2024-01-01 11:38');
SELECT * FROM tpcc_new_order(1, 1, 2, '{36,56,61}', '{1,1,1}', '{8,6,1}', '2024-01-01 11:39');
CALL tpcc_payment(1, 4, 1, 4, 10, 3348.95, '2024-01-01 11:40');
\endpipeline
