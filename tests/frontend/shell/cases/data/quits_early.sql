select 'included' as i;
\q
select 'never' as n;
