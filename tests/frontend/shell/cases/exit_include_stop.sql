--! psql
--! args: -X -v ON_ERROR_STOP=1 -f {file}
-- An error inside \i stops the including script too (status 3); \q in an included
-- file ends only that file.
\i data/quits_early.sql
select 'after the include' as a;
\i data/fails.sql
select 'never' as b;
