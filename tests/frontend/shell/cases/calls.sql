--! psql
-- Procedures and ad-hoc DML through the shell: command tags, NOTICEs, errors from
-- \gexec, \gset of a function's result.
create table account (id int primary key, owner text not null, balance numeric(10,2) not null default 0);
insert into account values (1, 'ann', 100), (2, 'bob', 50);
insert into account (id, owner) values (3, 'cy');
update account set balance = balance + 1 where id = 3;
delete from account where id = 99;
create function deposit(p_id int, p_amount numeric) returns numeric language plpgsql as $$
declare
  v_balance numeric;
begin
  if p_amount <= 0 then
    raise exception 'amount must be positive, got %', p_amount;
  end if;
  update account set balance = balance + p_amount where id = p_id returning balance into v_balance;
  if not found then
    raise notice 'no account %', p_id;
  end if;
  return v_balance;
end $$;
create procedure touch(p_id int) language plpgsql as $$
begin
  raise notice 'touching %', p_id;
  update account set balance = balance where id = p_id;
end $$;
select deposit(1, 10);
select deposit(9, 10);
set client_min_messages = warning;
select deposit(9, 10);
reset client_min_messages;
call touch(2);
select deposit(2, 5) as new_balance \gset
\echo bob has :new_balance
select format('select deposit(%s, 1)', id) from account order by id \gexec
select * from account order by id;
