--! args: -X -1 -c "create table t (k int primary key, v int)" -f {file} -c "select count(*) from t"
-- -1: the commands and files run as one pipeline; the results print at the end, in order.
insert into t values (1, 10);
insert into t values (2, 20);
insert into t values (1, 30);
select v from t where k = 2;
