-- The TPC-C sequences, for a given number of warehouses (run after schema.sql):
--   psql -v warehouses=4 -f sql/tpcc/sequences.sql
-- Optional, for reduced test databases: -v orders_per_district=3000 (orders loaded per
-- district; the order-id sequences start after them) and -v customers_per_district=3000
-- (loaded history rows per district; tpcc_history_id starts after them).
--
--   tpcc_o_id_<w>_<d>  one per district, START orders_per_district + 1 (NewOrder's o_id)
--   tpcc_history_id    START warehouses * 10 * customers_per_district + 1 (Payment's h_id)
--
-- psql-specific (\if, \gset, \gexec); `sh sql/tpcc/sequences.sh N` prints the same
-- statements as plain SQL for clients without those meta-commands.

\if :{?warehouses}
\else
  \warn 'sequences.sql: the warehouse count is not set (psql -v warehouses=N)'
  DO $$ BEGIN RAISE EXCEPTION 'sequences.sql needs -v warehouses=N'; END $$;
\endif
\if :{?orders_per_district}
\else
  \set orders_per_district 3000
\endif
\if :{?customers_per_district}
\else
  \set customers_per_district 3000
\endif

SELECT format('CREATE SEQUENCE tpcc_o_id_%s_%s START %s', w, d, (:orders_per_district)::integer + 1)
  FROM generate_series(1, (:warehouses)::integer) AS w, generate_series(1, 10) AS d
 ORDER BY w, d
\gexec

SELECT format('CREATE SEQUENCE tpcc_history_id START %s',
              (:warehouses)::bigint * 10 * (:customers_per_district)::bigint + 1)
\gexec
