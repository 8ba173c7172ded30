-- \startpipeline ... \endpipeline: statements are submitted without waiting and their
-- results printed, in submission order, at \endpipeline.
create table p (k int primary key, v text);
\copy p from 'data/kept.csv' (format csv)
\startpipeline
select count(*) as n from p;
\echo meta-commands run at once, before the results
select nosuch;
select v from p where k = 2;
\endpipeline
\endpipeline
\startpipeline
\startpipeline
select 1 as a;
\getresults 1
select 2 as b;
select 3 as c;
\getresults
\getresults
\syncpipeline
\endpipeline
\getresults
\syncpipeline
\startpipeline
select 'left open at the end of the script' as o;
