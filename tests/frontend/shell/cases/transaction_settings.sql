-- SET inside a transaction block, PostgreSQL's rules: ROLLBACK undoes it, COMMIT keeps
-- it, SET LOCAL lasts until the block ends either way (and outside a block only warns),
-- a plain SET after SET LOCAL of the same parameter is kept, RESET inside a block is
-- undone by ROLLBACK too.
set local search_path = public;
show client_min_messages;
begin;
set client_min_messages = warning;
set local extra_float_digits = 3;
show client_min_messages;
show extra_float_digits;
rollback;
show client_min_messages;
show extra_float_digits;
begin;
set client_min_messages = warning;
set local extra_float_digits = 2;
commit;
show client_min_messages;
show extra_float_digits;
begin;
set local client_min_messages = error;
set client_min_messages = notice;
commit;
show client_min_messages;
set client_min_messages = warning;
begin;
reset client_min_messages;
show client_min_messages;
rollback;
show client_min_messages;
