select 1 as a;
select nosuch;
\echo x
