--! psql
-- Statement boundaries as psql finds them: ';' inside quotes, dollar quotes, comments
-- and parentheses does not end a statement; several statements on one line; \;.
select 'a;b' as quoted, 1 as "?column?";
select $$dollar ; quoted$$ as d1, $tag$nested $$ inside ; $tag$ as d2;
select 1 as one; select 2 as two;
select /* a ; comment /* nested ; */ still */ 3 as three;
select (1 +
  2) as paren;
-- a comment line; with a semicolon
select 4 as four -- trailing comment;
;
select 'multi
line ; string' as s;
select E'escaped \' quote ; here' as e;
select 5 as five \; select 6 as six;
select 1 as "weird;name";
select 7
as seven
\g
select 8 as eight
