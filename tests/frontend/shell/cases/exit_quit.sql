--! psql
-- \q ends the run at once with status 0.
select 1 as a;
\q
select 2 as never;
