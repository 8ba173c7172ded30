-- The analysis of the TPC-C procedures (sql/tpcc): what each statement touches, how its
-- key is found, which updates may be split (ApplyRowUpdate) and where writes publish.
\i sql/tpcc/schema.sql
\i sql/tpcc/procedures.sql
EXPLAIN PROCEDURE tpcc_new_order;
EXPLAIN PROCEDURE tpcc_payment;
EXPLAIN PROCEDURE tpcc_order_status;
EXPLAIN PROCEDURE tpcc_delivery;
EXPLAIN PROCEDURE tpcc_stock_level;
SELECT procedure, count(*) AS statements, sum(weight) AS weight
  FROM caracal_write_sets GROUP BY procedure ORDER BY procedure;
