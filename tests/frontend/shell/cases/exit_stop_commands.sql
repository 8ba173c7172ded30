--! psql
--! args: -X -v ON_ERROR_STOP=on -c "select nosuch" -f {file}
-- ON_ERROR_STOP stops after a failing -c (status 1); the file never runs.
select 'never' as f;
