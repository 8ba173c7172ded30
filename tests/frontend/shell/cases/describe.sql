-- \d and friends on a small schema (laid out like psql's, without Owner).
\d
\dt
create table warehouse (w_id int primary key, w_name varchar(10) not null, w_tax numeric(4,4) default 0.1,
  w_ytd numeric(12,2) default 0, w_note text default 'none', w_open boolean default true);
create table orders (o_w_id int, o_d_id smallint, o_id int, o_c_id int, o_entry_d timestamp,
  o_all_local boolean, primary key (o_w_id, o_d_id, o_id));
create index orders_cust on orders (o_w_id, o_d_id, o_c_id);
create sequence hist_seq;
create sequence down_seq increment by -1 start with -1;
\d
\dt
\di
\ds
\dti
\dt ord*
\dt public.w?rehouse
\dt other.*
\dt nosuch
\d warehouse
\d orders
\d orders_cust
\d orders_pkey
\d hist_seq
\d down_seq
\d "Warehouse"
\d nosuch
\df
\df nosuch
\sf nosuch
\sf
\d+ warehouse
\dv
\d caracal_write_sets
\dv pg_catalog.*
\dv public.*
\x
\dt
