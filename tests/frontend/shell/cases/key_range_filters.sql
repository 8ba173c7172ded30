--! psql
-- A primary-key range decides the WHERE conjuncts it encodes exactly, and a row of it is
-- checked only against the rest; a value the key cannot hold as it is (out of the
-- column's range, more scale than the column, longer than char(n)) widens the range and
-- the whole WHERE is checked per row.
create table ev (g integer, s integer, v text, primary key (g, s));
insert into ev values (1, 1, 'a'), (1, 2, 'b'), (1, 3, 'c'), (1, 4, 'd'), (2, 1, 'e'), (2, 2, 'f');
select s from ev where g = 1 and s >= 2 and s < 4 order by s;
select s from ev where g = 1 and s > 1 and s > 2 order by s;
select s from ev where g = 1 and s <= 3 and s < 2 order by s;
select s from ev where g = 1 and s >= 2 and v <> 'c' order by s;
select s from ev where g = 1 and g = 2;
select s from ev where s = 2 and g = 1 and s = 3;
select count(*) from ev where g = 1 and s < 3000000000;
select count(*) from ev where g = 1 and s > -3000000000 and s <= 2;
select count(*) from ev where g = 3000000000;
select count(*) from ev where g = 1 and s > null;
create table nk (k numeric(4,1) primary key, t text);
insert into nk values (1.0, 'x'), (1.5, 'y'), (2.0, 'z');
select k from nk where k > 1.55 order by k;
select k from nk where k >= 1.5 and k <= 2.0 order by k;
select k from nk where k = 1.50;
select k from nk where k = 1.55;
select k from nk where k < 1.45 order by k;
create table ck (c char(4) primary key, x integer);
insert into ck values ('ab', 1), ('abc', 2);
select x from ck where c = 'ab  ';
select x from ck where c = 'ab'::char(2);
select x from ck where c = 'abcde';
select x from ck where c = 'abc' and x > 1;
create table tk (t text primary key);
insert into tk values ('a'), ('ab'), ('b'), ('ba');
select t from tk where t >= 'a' and t < 'b' order by t;
select t from tk where t > 'a' and t <= 'b' order by t;
create function rng(p_g integer, p_lo integer, p_hi bigint) returns text language plpgsql as $$
declare r text;
begin
  select array_agg(s order by s)::text into r from ev where g = p_g and s >= p_lo and s < p_hi and v <> 'c';
  return coalesce(r, 'none');
end $$;
select rng(1, 1, 4);
select rng(1, 2, 3000000000);
select rng(1, null, 4);
select rng(2, -5, 2);
create function nrng(p_lo numeric, p_hi numeric) returns text language plpgsql as $$
declare r text;
begin
  select array_agg(k order by k)::text into r from nk where k > p_lo and k <= p_hi;
  return coalesce(r, 'none');
end $$;
select nrng(1.0, 2.0);
select nrng(1.05, 1.95);
select nrng(0, 1.5);
