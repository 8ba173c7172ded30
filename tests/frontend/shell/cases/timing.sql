--! psql
-- \timing prints "Time: ... ms" after each statement.
\timing
select 1 as a;
select nosuch;
\timing off
select 2 as b;
\timing maybe
