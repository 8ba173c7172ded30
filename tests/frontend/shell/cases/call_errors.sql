-- Errors raised inside procedures reach the shell as ERROR and DETAIL lines (PL/pgSQL's CONTEXT
-- line is not produced yet), and the session goes on.
create table t (k int primary key, v int);
create function fail_if(p_k int) returns int language plpgsql as $$
begin
  if p_k < 0 then
    raise exception 'negative key %', p_k using errcode = '22023';
  end if;
  insert into t values (p_k, p_k);
  return p_k;
end $$;
select fail_if(1);
select fail_if(-1);
select fail_if(1);
\set VERBOSITY verbose
select fail_if(-2);
\errverbose
\set VERBOSITY default
select count(*) from t;
