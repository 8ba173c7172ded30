--! psql
-- Without ON_ERROR_STOP a script goes on and exits 0, whatever failed.
select nosuch;
\bogus
select 1 as after;
