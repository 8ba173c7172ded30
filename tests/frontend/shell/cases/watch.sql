-- \watch with a count runs the query that many times under psql's title line.
select 1 as a \watch i=0 c=2
\watch c=0
\watch i=-1
\watch x=1
\r
\watch c=1
select nosuch \watch i=0 c=3
