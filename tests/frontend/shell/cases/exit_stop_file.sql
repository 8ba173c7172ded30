--! psql
--! args: -X -v ON_ERROR_STOP=1 -f {file}
-- ON_ERROR_STOP in a script: stop at the first error, exit status 3.
select 1 as before;
select nosuch;
select 2 as never;
