--! psql
-- A boolean casts to text as true/false (::text, ||) but prints as t/f (output, concat, format, RAISE).
select true::text, 'a' || false, false::varchar, cast(true as char(5)), true::text || 'x', length(false::text);
select concat('x', true, false), format('%s %L %I', true, false, true), concat(null::boolean, 'z');
create function fb(b boolean) returns text language plpgsql as $$ begin raise notice '% %', b, b::text; return concat(b, format('%s', b), b::text, '-' || b); end $$;
select fb(true);
select fb(false);
select fb(null);
