-- Compiled row writes (codegen/jit/row_writes.h): an UPDATE's values stored straight into a
-- copy of the row, an INSERT's row built from compiled values; and every case that
-- leaves them for the general path: NULL into a NOT NULL or key column, a char(n) value
-- whose byte size changes, a duplicate key, ON CONFLICT DO NOTHING; an UPDATE whose
-- WHERE rejects its row counts 0 rows. Not a "--! psql" case: PostgreSQL 15 prints the
-- same except for what we do not print yet (DETAIL "Failing row contains (...)" of a
-- NOT NULL violation, and CONTEXT lines of errors inside functions).
create table rw (id integer primary key, i smallint, b bigint not null default 0, f boolean, r real,
                 d double precision, n numeric(9,3), t timestamp, c char(4), v varchar(6), x text);
insert into rw values (1, 1, 10, true, 1.5, 2.25, 3.125, '2024-01-02 03:04:05', 'ab', 'vv', 'xx');
insert into rw (id) values (2);
insert into rw values (null, 1, 1);
insert into rw (id, b) values (3, null);
insert into rw (id, c) values (1, 'zz');
insert into rw (id, c) values (1, 'zz') on conflict do nothing;
insert into rw (id, c, v, x) values (4, 'é', 'ééé', 'ünï') returning id, c, v, length(c), length(x);
create function bump(p_id integer, p_c text) returns boolean language plpgsql as $$
begin
  update rw set i = i + 1, b = b * 2, f = not f, r = r * 3, d = d / 2, n = n + 0.001,
                t = case when t is null then '2020-02-02 02:02:02'::timestamp end, c = p_c
   where id = p_id;
  return found;
end $$;
create function bump_if(p_id integer) returns boolean language plpgsql as $$
begin
  update rw set i = i * 2 where id = p_id and f;
  return found;
end $$;
create function grow(p_id integer, p_by numeric) returns numeric language plpgsql as $$
declare v numeric;
begin
  update rw set n = n * p_by where id = p_id returning n into v;
  return v;
end $$;
create function clear_b(p_id integer) returns void language plpgsql as $$
begin
  update rw set b = null where id = p_id;
end $$;
create function add(p_id integer, p_c text, p_n numeric) returns text language plpgsql as $$
declare v text;
begin
  insert into rw (id, c, n) values (p_id, p_c, p_n) on conflict do nothing returning c into v;
  return coalesce(v, 'skipped') || ' ' || found;
end $$;
select bump(1, 'cd');
select bump(2, 'ef');
select bump(4, 'gh');
select bump(1, 'ü');
select bump(9, 'zz');
select bump_if(1);
select bump_if(2);
select bump_if(4);
select grow(1, 10);
select grow(2, 10);
select grow(1, 1000000);
select clear_b(1);
select add(5, 'q', 1.2345);
select add(5, 'r', 2);
select add(6, null, null);
select add(null, 'n', 1);
select id, i, b, f, r, d, n, t, c, v, x, length(c) from rw order by id;
update rw set r = r + 1, v = v || 'w', x = null where id < 3;
update rw set b = b + 1 where id = 1 and f is null;
update rw set b = b + 1 where id = 1 and f is not null;
update rw set b = b + 1 where id = 2 and f is not null;
update rw set c = 'é', t = t where id in (1, 4);
select id, i, b, f, r, d, n, t, c, v, x from rw order by id;
-- RETURNING ... INTO, compiled whole: casts to the variables' types, NOT NULL
-- variables (which also raise when no row was written: the targets are set to NULL), an
-- INTO variable the RETURNING list also reads (all are evaluated before any is
-- assigned), and INSERT and DELETE ... RETURNING.
create function ret(p_id integer) returns text language plpgsql as $$
declare v_a integer; v_b text; v_c numeric(5,1); v_nn bigint not null := 0;
begin
  update rw set b = b + 7, n = 2.25 where id = p_id returning n, c || '|', n * 3, i into v_a, v_b, v_c, v_nn;
  return format('%s %s %s %s %s', v_a, v_b, v_c, v_nn, found);
end $$;
create function ret_self(p_id integer) returns text language plpgsql as $$
declare v_a bigint := 100; v_b bigint := 1;
begin
  update rw set b = b + 1 where id = p_id returning b + v_a, v_a into v_a, v_b;
  return v_a || ' ' || v_b;
end $$;
create function ret_ins_del(p_id integer) returns text language plpgsql as $$
declare k integer; t text; d integer;
begin
  insert into rw (id, c, x) values (p_id, 'i', 'ins') returning id * 10, x || c into k, t;
  delete from rw where id = p_id returning id into d;
  return k || ' ' || t || ' ' || d;
end $$;
select ret(1);
select ret(5);
select ret(9);
select ret_self(1);
select ret_ins_del(7);
select ret_ins_del(1);
select id, b, n from rw where id in (1, 5) order by id;
-- A point UPDATE's patch leaves out the key equalities its key decided (the row the key
-- found has that key), and still tests every other conjunct: a key written either way
-- round, an integer key beyond the column's range (no row has it), a NULL key, and a
-- non-key conjunct that rejects the row the key found.
create function bump_key(p_id bigint, p_min bigint) returns boolean language plpgsql as $$
begin
  update rw set b = b + 100 where p_id = id and b >= p_min;
  return found;
end $$;
select bump_key(1, 0);
select bump_key(1, 1000000);
select bump_key(4294967297, 0);
select bump_key(null, 0);
select bump_key(5, null);
select id, b from rw where id in (1, 5) order by id;
