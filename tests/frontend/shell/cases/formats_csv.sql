--! psql
-- --csv and \pset format csv: quoting, separators, NULLs, expanded, tuples only.
create table items (id int primary key, name text, price numeric(6,2), weight double precision, fresh boolean);
\copy items from 'data/items.csv' (format csv)
\pset format csv
select * from items order by id;
select * from items where id > 100;
\pset csv_fieldsep ';'
select id, name from items order by id;
\pset csv_fieldsep ','
\pset null NULL
select id, name from items where id = 3;
\x
select id, name from items order by id limit 2;
\x
\t
select id, fresh from items order by id;
\t
\pset format aligned
select 1 as back_to_aligned;
