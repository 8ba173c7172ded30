-- Domains (CREATE DOMAIN): NOT NULL, DEFAULT and CHECK constraints over VALUE, enforced
-- wherever a value becomes one of the domain - columns (INSERT, UPDATE, ON CONFLICT,
-- INSERT ... SELECT, COPY, omitted columns), procedure parameters, variables and
-- results, casts - in pipelined procedures and ad hoc; expressions over a domain value
-- are of its base type; DROP DOMAIN; and PostgreSQL's errors.
CREATE DOMAIN quantity AS integer CHECK (VALUE > 0);
CREATE DOMAIN email AS text NOT NULL CONSTRAINT email_has_at CHECK (VALUE LIKE '%_@_%') CHECK (length(VALUE) <= 40);
CREATE DOMAIN percent AS numeric(5,2) DEFAULT 0 CHECK (VALUE BETWEEN 0 AND 100);
CREATE DOMAIN code AS varchar(4) CHECK (VALUE = upper(VALUE));
CREATE DOMAIN public.maybe_pos AS bigint CHECK (VALUE IS NULL OR VALUE >= 0);

CREATE TABLE customers (id integer PRIMARY KEY, contact email, discount percent, region code, credit maybe_pos);
CREATE TABLE stock (sku code PRIMARY KEY, on_hand integer NOT NULL CHECK (on_hand >= 0), reorder quantity NOT NULL DEFAULT 10);

INSERT INTO customers VALUES (1, 'ann@example.com', 5, 'EU', 100), (2, 'bob@example.com', DEFAULT, 'US', NULL);
INSERT INTO customers (id, contact) VALUES (3, 'cy@example.com');
INSERT INTO stock (sku, on_hand) VALUES ('A1', 50), ('B2', 5), ('C3', 0);
INSERT INTO stock VALUES ('D4', 7, 3);

CREATE FUNCTION take(p_sku code, p_qty quantity) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  left_over integer;
BEGIN
  UPDATE stock SET on_hand = on_hand - p_qty WHERE sku = p_sku RETURNING on_hand INTO left_over;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN left_over;
EXCEPTION WHEN check_violation THEN
  RETURN -1;
END $$;

CREATE FUNCTION set_discount(p_id integer, p_discount numeric) RETURNS percent LANGUAGE plpgsql AS $$
DECLARE
  d percent := 0;
BEGIN
  d := p_discount;
  UPDATE customers SET discount = d WHERE id = p_id;
  RETURN d;
END $$;

CREATE FUNCTION restock(p_sku text, p_qty integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock (sku, on_hand) VALUES (p_sku, p_qty)
    ON CONFLICT (sku) DO UPDATE SET on_hand = stock.on_hand + EXCLUDED.on_hand, reorder = stock.reorder + 1;
  RETURN (SELECT reorder FROM stock WHERE sku = p_sku);
END $$;

--- calls: domains 150
SELECT * FROM customers ORDER BY id;
SELECT * FROM stock ORDER BY sku;

-- Expressions over domain values are of the base type.
SELECT id, discount * 2, contact || '!', credit + 1, length(region) FROM customers ORDER BY id;
SELECT sku, reorder - 100, coalesce(reorder, 0), greatest(reorder, 5) FROM stock ORDER BY sku;
SELECT 5::quantity + 1, '7'::quantity, 'ab@cd'::email, 12.5::percent, NULL::percent, 'XY'::code;
SELECT sku FROM stock WHERE reorder IN (0, 10) ORDER BY sku;

-- Ad-hoc writes.
UPDATE customers SET discount = discount + 10 WHERE discount IS NOT NULL;
UPDATE stock SET reorder = reorder * 2 WHERE sku < 'C';
INSERT INTO stock (sku, on_hand) SELECT 'Z' || sku, on_hand + 1 FROM stock WHERE sku IN ('A1', 'B2');
COPY stock (sku, on_hand, reorder) FROM STDIN;
E5	1	2
F6	2	\N
\.
COPY stock (sku, on_hand) FROM STDIN WITH (FORMAT csv);
G7,3
\.
SELECT * FROM stock ORDER BY sku;
SELECT * FROM customers ORDER BY id;

-- Errors.
INSERT INTO customers (id, contact) VALUES (10, 'no-at-sign');
INSERT INTO customers (id) VALUES (11);
INSERT INTO customers (id, contact, discount) VALUES (12, 'a@b.c', 101);
INSERT INTO customers (id, contact, region) VALUES (13, 'a@b.c', 'eu');
INSERT INTO customers (id, contact, region) VALUES (14, 'a@b.c', 'EUROPE');
INSERT INTO customers (id, contact, credit) VALUES (15, 'a@b.c', -5);
UPDATE stock SET reorder = 0 WHERE sku = 'A1';
UPDATE stock SET reorder = NULL WHERE sku = 'A1';
UPDATE customers SET contact = NULL WHERE id = 1;
SELECT 0::quantity;
SELECT (-1)::quantity;
SELECT NULL::email;
SELECT set_discount(1, 150);
SELECT take('A1', 0);
SELECT take('a1', 1);
SELECT restock('Q9', -3);
COPY stock (sku, on_hand, reorder) FROM STDIN;
H8	1	0
\.
CREATE DOMAIN quantity AS integer;
CREATE DOMAIN bad1 AS integer CHECK (VALUE > (SELECT 1));
CREATE DOMAIN bad2 AS integer CHECK (x > 1);
CREATE DOMAIN bad3 AS integer NULL NOT NULL;
CREATE TABLE quantity (a integer);
DROP DOMAIN quantity;
DROP DOMAIN IF EXISTS no_such_domain;
DROP DOMAIN no_such_domain;
CREATE DOMAIN unused AS text;
DROP DOMAIN unused;
SELECT 'x'::unused;
SELECT * FROM stock ORDER BY sku;
