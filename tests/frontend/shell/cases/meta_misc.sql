--! psql
-- Assorted meta-commands, unknown ones, extra arguments, \o, \qecho, \i.
\bogus
\echo one \echo two
\timing off extra
\o query_output.tmp
select 'to the file' as f;
\qecho qecho goes to the file too
\echo echo goes to stdout
\o
\! cat query_output.tmp; rm -f query_output.tmp
\i nosuch_file.sql
\i
\unset
\echo before \\ select 'after the separator' as s;
\errverbose
\warn warned
\echo done
