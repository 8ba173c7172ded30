--! psql
-- \pset linestyle unicode: box-drawing borders at every border style, aligned and expanded.
create table items (id int primary key, name text, price numeric(6,2), weight double precision, fresh boolean);
\copy items from 'data/items.csv' (format csv)
\pset linestyle unicode
select id, name, price from items order by id limit 3;
select name as "two
lines", id from items where id = 2;
\pset border 2
select id, name, price from items order by id limit 3;
select id from items where id > 100;
\pset border 0
select id, name, price from items order by id limit 3;
\x
\pset border 1
select id, name from items order by id limit 2;
\pset border 2
select id, name from items order by id limit 2;
\pset border 0
select id, name from items order by id limit 2;
\t on
\pset border 1
select id, name from items order by id limit 2;
\pset linestyle ascii
\pset linestyle bogus
\pset
