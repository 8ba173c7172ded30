--! psql
-- RAISE WARNING / INFO / NOTICE reach the shell as psql prints them, filtered by client_min_messages.
create function w() returns int language plpgsql as $$ begin raise warning 'careful %', 1; raise info 'fyi'; raise notice 'note'; return 1; end $$;
select w();
set client_min_messages = warning;
select w();
set client_min_messages = error;
select w();
