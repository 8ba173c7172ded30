--! psql
-- An unterminated dollar quote runs to the end of the script, which sends it.
select 1 as before;
select $$never closed ;
select 2;
