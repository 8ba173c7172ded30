-- The analysis of the YCSB transaction (sql/ycsb).
\i sql/ycsb/schema.sql
\i sql/ycsb/procedures.sql
EXPLAIN PROCEDURE ycsb_txn;
SELECT * FROM caracal_write_sets WHERE procedure = 'ycsb_txn';
