-- Functions returning SETOF a table's row type (RETURN QUERY, several of them, empty
-- results; read as SELECT * FROM f(), a column of it, and SELECT f() as records), and
-- CASE statements in bodies written on one line (PL/pgSQL's hidden CASE variable shares
-- the line of the block's declarations).
CREATE TABLE product (id integer PRIMARY KEY, name text NOT NULL, price numeric(8,2), stock integer NOT NULL);
INSERT INTO product VALUES (1, 'bolt', 0.10, 500), (2, 'nut', 0.05, 0), (3, 'gear', 12.50, 7), (4, 'belt', NULL, 3);

CREATE FUNCTION in_stock(p_min integer) RETURNS SETOF product LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM product WHERE stock >= p_min ORDER BY id;
END $$;

CREATE FUNCTION cheap_then_dear(p_limit numeric) RETURNS SETOF product LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM product WHERE price < p_limit ORDER BY id;
  RETURN QUERY SELECT * FROM product WHERE price >= p_limit ORDER BY id DESC;
END $$;

CREATE FUNCTION sell(p_id integer, p_n integer) RETURNS SETOF product LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product SET stock = stock - p_n WHERE id = p_id AND stock >= p_n;
  RETURN QUERY SELECT * FROM product WHERE id = p_id;
END $$;

CREATE FUNCTION grade(p integer) RETURNS text LANGUAGE plpgsql AS $$ DECLARE g text; BEGIN CASE p WHEN 0 THEN g := 'none'; WHEN 1, 2, 3 THEN g := 'few'; ELSE g := 'many'; END CASE; RETURN g; END $$;
CREATE FUNCTION sign_of(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN CASE WHEN p < 0 THEN RETURN -1; WHEN p = 0 THEN RETURN 0; ELSE RETURN 1; END CASE; END $$;
CREATE FUNCTION no_else(p integer) RETURNS text LANGUAGE plpgsql AS $$ BEGIN CASE p WHEN 1 THEN RETURN 'one'; END CASE; RETURN 'unreached'; END $$;

SELECT * FROM in_stock(5);
SELECT name FROM in_stock(100);
SELECT * FROM in_stock(1000);
SELECT in_stock(400);
SELECT * FROM cheap_then_dear(1);
SELECT * FROM sell(3, 2);
SELECT * FROM sell(2, 1);
SELECT grade(0);
SELECT grade(2);
SELECT grade(7);
SELECT sign_of(-5);
SELECT sign_of(0);
SELECT no_else(1);
SELECT no_else(2);
--- calls: setof_table 150
SELECT id, name, price, stock FROM product ORDER BY id;
