-- RETURNS SETOF record without OUT parameters, called with a column definition list (the
-- shape of HammerDB's OSTAT): RETURN NEXT of a record filled by a FOR over a query,
-- RETURN QUERY, the list's names (with and without an alias), a type modifier left out
-- in the list, a function that returns no row; and the errors: no list, a list for a
-- function that does not return record, a list of the wrong length or types.
CREATE TABLE line (o integer, n integer, item integer NOT NULL, qty smallint NOT NULL, amount numeric(6,2),
                   PRIMARY KEY (o, n));
INSERT INTO line VALUES (1, 1, 10, 2, 3.50), (1, 2, 11, 1, NULL), (2, 1, 12, 5, 10.00);

CREATE FUNCTION lines_of(p_o integer) RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  label varchar;
BEGIN
  label := 'order ' || p_o;
  FOR r IN SELECT n, item, qty, amount, label FROM line WHERE o = p_o ORDER BY n LOOP
    RETURN NEXT r;
  END LOOP;
END $$;

CREATE FUNCTION all_items() RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT o, item FROM line ORDER BY o, n;
END $$;

CREATE FUNCTION nothing() RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
  RETURN;
END $$;

CREATE FUNCTION plain(p integer) RETURNS SETOF integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN NEXT p;
END $$;

--- calls: setof_record 12
SELECT * FROM lines_of(1) AS (n integer, item integer, qty smallint, amount numeric, label character varying);
SELECT * FROM lines_of(2) AS t(a integer, b integer, c smallint, d numeric(6,2), e varchar);
SELECT * FROM all_items() AS (o integer, item integer);
SELECT * FROM nothing() AS (x integer);
SELECT * FROM lines_of(1);
SELECT * FROM plain(1) AS (x integer);
SELECT * FROM lines_of(1) AS (n integer, item integer);
SELECT * FROM lines_of(1) AS (n bigint, item integer, qty smallint, amount numeric, label varchar);
SELECT * FROM all_items() AS (o integer, item numeric);
