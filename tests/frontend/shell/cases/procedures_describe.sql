-- \df, \sf, \dw and EXPLAIN PROCEDURE on procedures; calls in a pipeline.
create table kv (k int primary key, v int not null default 0);
insert into kv values (1, 10), (2, 20);
create function kv_add(p_k int, p_d int) returns int language plpgsql as $$
declare v_new int;
begin
  update kv set v = v + p_d where k = p_k returning v into v_new;
  return v_new;
end $$;
create procedure kv_put(p_k int, p_v int) language plpgsql as $$
begin
  insert into kv values (p_k, p_v) on conflict (k) do update set v = excluded.v;
end $$;
create function kv_all() returns table (key int, value int) language plpgsql as $$
begin
  return query select k, v from kv order by k;
end $$;
\df
\df kv_a*
\sf kv_add
\sf+ kv_put
\sf kv_all()
\dw kv_add
\dw nosuch
explain procedure kv_put;
\startpipeline
select kv_add(1, 1);
call kv_put(3, 30);
select kv_add(1, 1);
select kv_add(2, -1);
\endpipeline
select * from kv_all();
\d kv
