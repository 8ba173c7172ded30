--! psql
-- \dT lists the enum types and \dD the domains, and
-- enum values print as their labels.
create type mood as enum ('sad', 'ok', 'happy');
create type level as enum ();
create table diary (day int primary key, m mood not null default 'ok');
insert into diary values (1, 'happy'), (2, 'sad'), (3, default);
\dT
\dT moo*
select * from diary order by m;
-- \dD lists the domains with their constraints.
create domain posint as integer not null check (value > 0);
\dD
