--! psql
--! args: -X -c "select 1 as ok" -c "select nosuch" -f {file} -c "select nosuch2"
-- The exit status of -c/-f sequences is the last one's: a failing last -c gives 1.
select 'the file runs between the commands' as f;
