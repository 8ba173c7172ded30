--! psql
-- The query buffer: \p, \r, \g, \gx, \gset, \w, and the previous query.
\p
select 1 as a
\p
\r
\p
select 2 as b \g
\g
\p
select 3 as c, 'x' as d \gset
\echo :c :d
select 4 as e, null::int as f \gset pre_
\echo :pre_e :pre_f
select 1 as a where false \gset
\unset pre_e
select 5 as g
\w query_buffer.tmp
\r
\i query_buffer.tmp
\! rm -f query_buffer.tmp
