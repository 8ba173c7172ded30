--! psql
-- \g with one-query \pset options, to a file and to a pipe; a failed query creates no file.
select 1 as a, null as b \g (format=csv null=NULL tuples_only=on)
select 2 as c;
select 1 as a \gx (format=unaligned)
select 1 as a \g (bogus=1)
select 3 as d \g (format=csv
select 4 as e \g (format=csv) g_out.tmp
\! cat g_out.tmp 2>&1 | sed 's/^[^:]*: //'
select 5 as f \g (format=csv) g_out.tmp
\! cat g_out.tmp; rm -f g_out.tmp
select 6 as g \g |tr 6 X
