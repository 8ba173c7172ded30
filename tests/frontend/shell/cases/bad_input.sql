--! psql
-- Bad input never ends the session: unknown meta-commands, stray backslashes,
-- control characters, an unterminated quote at the end of the script.
\
\\
\nosuch arg1 arg2
select E'\x01\x02' as control, 'tab	tab' as t;
select 'ok after all that' as ok;
select 'unterminated
