-- \d lists a table's triggers as psql does, enabled ones under "Triggers:" (the lines
-- are psql's own against PostgreSQL 15; the index line is not: "ordered", not "btree");
-- \df lists trigger functions with their result type "trigger".
create table items (id int primary key, qty int not null, note text);
create table item_log (n int primary key, what text);
create function stamp() returns trigger language plpgsql as $$
begin
  new.note := tg_op || ' by ' || tg_name;
  return new;
end $$;
create function noop() returns trigger language plpgsql as $$ begin return null; end $$;
create trigger b_stamp before insert or update on items for each row execute function stamp();
create trigger a_noop after delete or update of qty on items for each row execute procedure noop('x', 'it''s');
create trigger c_stmt after insert on items for each statement execute function noop();
\d items
\df
insert into items values (1, 5, null);
update items set qty = 6 where id = 1;
select * from items;
drop trigger a_noop on items;
drop trigger c_stmt on items;
\d items
