select 'in fails.sql' as x;
select nosuch;
select 'never' as y;
