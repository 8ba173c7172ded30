-- \d shows a generated column's expression; an UPDATE of a table with generated columns
-- inside a data-modifying WITH is refused (its RETURNING would read the old generated
-- values), while the same UPDATE ... RETURNING alone returns the new ones.
create table parcels (id int primary key, grams int not null, kilos numeric(8,3) generated always as (grams / 1000.0) stored,
  label text generated always as ('P' || id || '-' || grams) stored);
insert into parcels (id, grams) values (1, 1500), (2, 250);
\d parcels
with u as (update parcels set grams = grams * 2 returning id, kilos) select * from u order by id;
update parcels set grams = grams * 2 returning id, kilos, label;
select * from parcels order by id;
