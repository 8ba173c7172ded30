--! psql
-- -A style output: \a, \f, \pset recordsep, expanded unaligned, tuples only, titles.
create table items (id int primary key, name text, price numeric(6,2), weight double precision, fresh boolean);
\copy items from 'data/items.csv' (format csv)
\a
select * from items order by id;
select * from items where id > 100;
\f ';'
select id, price from items order by id limit 3;
\pset recordsep ' | '
select id from items order by id limit 3;
\pset recordsep '\n'
\x on
select id, name from items order by id limit 2;
select id from items where id > 100;
\x off
\t on
select id, name from items order by id limit 2;
\t off
\pset title 'The title'
select id from items where id = 1;
\pset title
\pset null NULL
select id, name from items where id = 3;
\a
