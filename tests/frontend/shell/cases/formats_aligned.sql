--! psql
-- psql's aligned format: header, rule, numbers right-aligned, multi-line and wide cells.
create table items (id int primary key, name text, price numeric(6,2), weight double precision, fresh boolean);
\copy items from 'data/items.csv' (format csv)
select * from items order by id;
select id, name from items where id = 2;
select name as "a
two-line header", id from items where id < 3 order by id;
select * from items where id > 100;
select;
select 'x' as only_column;
select null::int as n, 'visible' as v;
\pset null (null)
select * from items where id = 3;
\pset border 0
select * from items order by id limit 3;
\pset border 2
select * from items order by id limit 3;
select * from items where id > 100;
\pset border 1
\pset title 'Items by id'
select id, price from items order by id;
\pset title
\pset footer off
select id from items order by id limit 2;
\pset footer on
\t on
select id, name from items order by id limit 2;
\t off
