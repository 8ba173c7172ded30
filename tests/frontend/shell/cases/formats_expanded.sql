--! psql
-- \x: expanded output, every border style, empty results, tuples only.
create table items (id int primary key, name text, price numeric(6,2), weight double precision, fresh boolean);
\copy items from 'data/items.csv' (format csv)
\x
select * from items order by id limit 2;
select * from items where id > 100;
select id, name as "long column name", fresh from items where id in (1, 5) order by id;
\pset border 0
select id, name from items order by id limit 2;
\pset border 2
select id, name from items order by id limit 2;
\pset border 1
\t on
select id, name from items order by id limit 3;
\t off
\pset title 'A title'
select id from items where id = 1;
\pset title
\x off
\gx
select id, price from items where id = 4 \gx
select id from items where id = 1 \g
\x auto
select id from items where id = 1;
-- Narrow values: the record lines are longer than the rows (psql 15 does not widen them).
\x on
select 1 as a, 'x
y' as bb;
\pset border 2
select 1 as a;
