-- Parameters without names, read as $n and through ALIAS FOR (old PL/pgSQL still in
-- use): `name ALIAS FOR $n` and `name ALIAS FOR param` in the top DECLARE section, any
-- case, used in expressions and as keys of writes; PostgreSQL's error for an alias of
-- a parameter that does not exist.
CREATE TABLE tally (id integer PRIMARY KEY, n integer NOT NULL DEFAULT 0, tag text);
INSERT INTO tally (id) VALUES (1), (2), (3);

CREATE FUNCTION add_to(integer, integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  target ALIAS FOR $1;
  amount Alias For $2;
  result integer;
BEGIN
  UPDATE tally SET n = n + amount WHERE id = target RETURNING n INTO result;
  RETURN result;
END $$;

CREATE FUNCTION tag_it(p_id integer, text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  which ALIAS FOR p_id;
  label ALIAS FOR $2;
BEGIN
  UPDATE tally SET tag = label || '#' || which WHERE id = which;
  RETURN label || '#' || $1;
END $$;

CREATE FUNCTION twice(integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN $1 * 2;
END $$;

-- An alias as an INTO target (HammerDB's NEWORD assigns its order number this way),
-- with the body in a single-quoted string and the language name quoted.
CREATE FUNCTION bump(integer, integer) RETURNS integer AS '
DECLARE
  target ALIAS FOR $1;
  was ALIAS FOR $2;
BEGIN
  UPDATE tally SET n = n + 1 WHERE id = target RETURNING n - 1 INTO was;
  SELECT was + 100 INTO was;
  RETURN was;
END;' LANGUAGE 'plpgsql';

CREATE FUNCTION broken(integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  x ALIAS FOR $2;
BEGIN
  RETURN x;
END $$;

SELECT add_to(1, 5);
SELECT add_to(2, -3);
SELECT tag_it(3, 'three');
SELECT twice(21);
SELECT twice(NULL);
SELECT add_to(NULL, 5);
SELECT add_to(1, NULL);
SELECT tag_it(2, NULL);
SELECT bump(3, 0);
SELECT bump(3, NULL);
SELECT bump(9, 7);
--- calls: aliases 150
SELECT id, n, tag FROM tally ORDER BY id;
