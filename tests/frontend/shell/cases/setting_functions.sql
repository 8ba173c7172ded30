--! psql
-- set_config / current_setting as pg_dump and applications use them, custom
-- (placeholder) parameters, and pg_dump's \restrict bracket.
SELECT pg_catalog.set_config('search_path', '', false);
SELECT set_config('search_path', 'public', false);
SHOW search_path;
SELECT set_config('app.user_id', '42', false) AS who;
SELECT current_setting('app.user_id');
SELECT current_setting('APP.USER_ID') AS upper_case;
SHOW app.user_id;
SELECT current_setting('app.missing', true) AS missing;
SELECT current_setting('app.missing');
SHOW app.missing;
SELECT set_config('client_min_messages', 'warning', false);
SELECT current_setting('client_min_messages');
SELECT set_config('client_min_messages', NULL, false);
SHOW client_min_messages;
SELECT set_config('no_such_parameter', 'x', false);
SELECT set_config('app.x', 'local', true);
SHOW app.x;
BEGIN;
SELECT set_config('app.x', 'in block', true);
SHOW app.x;
COMMIT;
SHOW app.x;
BEGIN;
SELECT set_config('app.x', 'kept', false);
COMMIT;
SHOW app.x;
BEGIN;
SET app.x = 'undone';
ROLLBACK;
SHOW app.x;
BEGIN;
SET app.fresh = 'new';
ROLLBACK;
SHOW app.fresh;
RESET app.x;
SHOW app.x;
SET app.list = a, b;
SHOW app.list;
\restrict K3y
\echo not printed
SELECT 'statements still run' AS note;
\unrestrict wrong
\unrestrict K3y
\unrestrict K3y
\echo printed
\restrict
