--! psql
--! stdin
--! args: -X -v ON_ERROR_STOP=1
-- The same from stdin: no file prefix, still 3.
select 1 as before;
\bogus
select 2 as never;
