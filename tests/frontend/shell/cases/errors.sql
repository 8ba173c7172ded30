--! psql
-- Errors as libpq lays them out: LINE n, the caret, long lines cut, DETAIL/HINT.
select nosuch;
select 1,
  2,
  nosuch3;
select 'a' + 'b';
select 1/0;
select 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' as a, nosuch_at_the_end;
select nosuch_at_the_start, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' as a;
select 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' as a, 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', nosuch_in_the_middle, 'ccccccccccccccccccccccccccccccccccccccccccccccc';
select 'naïve' as a, nosuch;
select '日本語の文字' as wide, nosuch_after_wide;
select 1 as crlf,
  nosuch_after_crlf;
select	1 as tabbed,	nosuch;
selec 1;
create table t (a int primary key);
create table t (a int primary key);
select * from nosuch_table;
\set VERBOSITY terse
select nosuch;
\set VERBOSITY sqlstate
select nosuch;
\set VERBOSITY default
select 'after the errors' as ok;
-- An unclosed parenthesis swallows the rest of the script into one statement.
select (1;
select 2;
