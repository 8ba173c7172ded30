-- A small TPC-C database to explore from the shell: the schema, the sequences for one
-- warehouse, the five procedures, a few rows loaded by a procedure, and sample calls.
-- tools/main.sh starts `caracal` with it (CARACALRC=sql/tpcc/demo.sql); by hand:
--   ./build/caracal -f sql/tpcc/demo.sql      (or \i sql/tpcc/demo.sql at the prompt)
-- It runs unchanged on PostgreSQL 15 too (psql -f sql/tpcc/demo.sql).
\set QUIET on
\set ON_ERROR_STOP on
\ir schema.sql
-- One warehouse, no orders loaded yet: every order id sequence starts at 1.
CREATE SEQUENCE tpcc_o_id_1_1;
CREATE SEQUENCE tpcc_o_id_1_2;
CREATE SEQUENCE tpcc_o_id_1_3;
CREATE SEQUENCE tpcc_o_id_1_4;
CREATE SEQUENCE tpcc_o_id_1_5;
CREATE SEQUENCE tpcc_o_id_1_6;
CREATE SEQUENCE tpcc_o_id_1_7;
CREATE SEQUENCE tpcc_o_id_1_8;
CREATE SEQUENCE tpcc_o_id_1_9;
CREATE SEQUENCE tpcc_o_id_1_10;
CREATE SEQUENCE tpcc_history_id;
\ir procedures.sql

-- The loader is a procedure too: one transaction, its inserts keyed by loop variables.
CREATE PROCEDURE tpcc_demo_load(p_items integer, p_customers integer)
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO warehouse VALUES (1, 'demo', 'street 1', 'street 2', 'city', 'CA', '123451111', 0.1000, 0);
  FOR i IN 1..p_items LOOP
    INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data)
    VALUES (i, i, 'item-' || i, 1.00 + i % 100, CASE WHEN i % 10 = 0 THEN 'ORIGINAL item' ELSE 'item' END);
    INSERT INTO stock VALUES (i, 1, 50, 'd01', 'd02', 'd03', 'd04', 'd05', 'd06', 'd07', 'd08', 'd09', 'd10',
                              0, 0, 0, 'stock');
  END LOOP;
  FOR d IN 1..10 LOOP
    INSERT INTO district VALUES (d, 1, 'dist-' || d, 's1', 's2', 'city', 'CA', '543211111', 0.0500, 0, 1);
    FOR c IN 1..p_customers LOOP
      INSERT INTO customer VALUES (c, d, 1, 'first-' || c, 'OE', 'LAST' || c, 's1', 's2', 'city', 'NY',
        '987651111', '0000000000000000', timestamp '2024-01-01 00:00:00',
        CASE WHEN c % 5 = 0 THEN 'BC' ELSE 'GC' END, 50000.00, 0.0100, -10.00, 10.00, 1, 0, 'customer data');
    END LOOP;
  END LOOP;
END $$;
CALL tpcc_demo_load(100, 10);
\set QUIET off

\echo
\echo 'TPC-C, one warehouse: 100 items, 10 districts of 10 customers. Sample calls:'
\echo
\echo '=> SELECT * FROM tpcc_new_order(1, 1, 1, ''{1,2,3}'', ''{1,1,1}'', ''{5,5,5}'', ''2024-01-01 10:00'');'
SELECT * FROM tpcc_new_order(1, 1, 1, '{1,2,3}', '{1,1,1}', '{5,5,5}', '2024-01-01 10:00');
\echo '=> CALL tpcc_payment(1, 1, 1, 1, 1, 12.50, ''2024-01-01 10:01'');'
CALL tpcc_payment(1, 1, 1, 1, 1, 12.50, '2024-01-01 10:01');
\echo '=> SELECT * FROM tpcc_order_status(1, 1, 1);'
SELECT * FROM tpcc_order_status(1, 1, 1);
\echo '=> SELECT tpcc_stock_level(1, 1, 50);'
SELECT tpcc_stock_level(1, 1, 50);
\set ON_ERROR_STOP off
\echo 'Try:  \\d                               the tables'
\echo '      \\d customer                      one table: columns, key, indexes'
\echo '      \\df                              the procedures'
\echo '      \\dw tpcc_new_order               a procedure''s inferred write set'
\echo '      EXPLAIN PROCEDURE tpcc_payment;  the same, with sequences'
\echo '      \\timing on                       then call one'
\echo '      \\i sql/tpcc/demo_calls.sql       a pipeline of calls sharing epochs'
\echo '      \\?  \\h                           help on meta-commands and SQL'
\echo
