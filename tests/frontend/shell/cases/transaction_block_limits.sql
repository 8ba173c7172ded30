-- What a transaction block cannot hold here, each refused with an error that fails the
-- block (DDL, COPY TO, VACUUM, SELECT INTO), READ ONLY refused, the isolation level
-- always serializable, LOCK TABLE accepted in a block (the commit check needs no lock)
-- and refused outside one, and AUTOCOMMIT off: a block opened before a statement but not
-- before DDL, which commits on its own.
create table t (id integer primary key, v text);
begin;
insert into t values (1, 'a');
create table u (x integer);
select * from t;
rollback;
begin;
copy t to stdout;
rollback;
begin;
vacuum t;
rollback;
begin;
select * into t2 from t;
rollback;
lock table t;
begin;
lock table t in exclusive mode;
lock table nosuch;
rollback;
begin;
lock t;
commit;
begin read only;
begin isolation level read committed;
show transaction_isolation;
commit;
\set AUTOCOMMIT off
insert into t values (2, 'b');
\echo :AUTOCOMMIT
rollback;
create table v (x integer);
insert into t values (3, 'c');
commit;
\set AUTOCOMMIT on
select * from t order by id;
\d v
