-- The analysis of the set-based TPC-C procedures (sql/tpcc/procedures_set_based.sql): the
-- stock update over unnest of the item arrays keeps keys known from the arguments (loop)
-- and stays an ApplyRowUpdate candidate; the order lines' INSERT ... SELECT over a join
-- becomes a key lookup per line (prefetched) and an insert keyed by the arrays.
\i sql/tpcc/schema.sql
\i sql/tpcc/procedures.sql
\i sql/tpcc/procedures_set_based.sql
EXPLAIN PROCEDURE tpcc_new_order;
EXPLAIN PROCEDURE tpcc_stock_level;
