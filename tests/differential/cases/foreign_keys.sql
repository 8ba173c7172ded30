-- FOREIGN KEY ... REFERENCES: a referencing row's referenced row must exist; a referenced
-- row may not be deleted (or its key changed) while rows reference it, unless the key's
-- ON DELETE / ON UPDATE action writes them (CASCADE, SET NULL, SET DEFAULT: such calls
-- run alone in their epoch). Errors are PostgreSQL's 23503 with its DETAIL.
CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, email text UNIQUE);
CREATE TABLE orders (
  id integer PRIMARY KEY,
  customer integer NOT NULL REFERENCES customers,
  placed_by text REFERENCES customers (email) ON DELETE SET NULL ON UPDATE CASCADE,
  total integer NOT NULL DEFAULT 0
);
CREATE TABLE lines (
  order_id integer REFERENCES orders ON DELETE CASCADE,
  n integer,
  qty integer NOT NULL,
  PRIMARY KEY (order_id, n)
);
CREATE TABLE staff (id integer PRIMARY KEY, boss integer REFERENCES staff (id) ON DELETE RESTRICT, name text);
CREATE TABLE notes (id serial PRIMARY KEY, customer integer, body text,
  CONSTRAINT notes_customer_fk FOREIGN KEY (customer) REFERENCES customers (id) ON DELETE SET DEFAULT);
INSERT INTO customers VALUES (0, 'nobody', NULL), (1, 'ann', 'ann@x'), (2, 'bob', 'bob@x'), (3, 'cy', NULL);
INSERT INTO staff VALUES (1, NULL, 'root'), (2, 1, 'mid'), (3, 2, 'leaf');
ALTER TABLE notes ALTER COLUMN customer SET DEFAULT 0;

-- Referencing rows: the referenced row must exist (NULL references nothing).
INSERT INTO orders VALUES (1, 1, 'ann@x', 10);
INSERT INTO orders VALUES (2, 9, NULL, 10);
INSERT INTO orders VALUES (3, 2, 'zed@x', 10);
INSERT INTO orders (id, customer) VALUES (4, 3), (5, 2);
INSERT INTO lines VALUES (1, 1, 5), (1, 2, 7), (4, 1, 1);
INSERT INTO lines VALUES (7, 1, 1);
UPDATE orders SET customer = 8 WHERE id = 4;
-- Referenced rows.
DELETE FROM customers WHERE id = 3;
UPDATE customers SET name = 'cyrus' WHERE id = 3;
DELETE FROM staff WHERE id = 2;
-- A self-referencing row inserted with its parent in one statement, child first.
INSERT INTO staff VALUES (5, 4, 'late'), (4, 1, 'early');
-- ON UPDATE CASCADE and ON DELETE SET NULL through the UNIQUE email.
UPDATE customers SET email = 'ann@y' WHERE id = 1;
SELECT id, customer, placed_by FROM orders ORDER BY id;
-- ON UPDATE CASCADE of a key set to NULL: the referencing rows get NULL and stay.
INSERT INTO orders VALUES (6, 2, 'bob@x', 1);
UPDATE customers SET email = NULL WHERE id = 2;
SELECT id, customer, placed_by FROM orders WHERE id = 6;
UPDATE customers SET email = 'bob@x' WHERE id = 2;
-- ON DELETE CASCADE: the order's lines go with it.
DELETE FROM orders WHERE id = 1;
SELECT order_id, n, qty FROM lines ORDER BY 1, 2;
-- ALTER TABLE ... ADD FOREIGN KEY validates the rows there are.
CREATE TABLE tags (order_id integer, tag text);
INSERT INTO tags VALUES (4, 'a'), (99, 'b');
ALTER TABLE tags ADD FOREIGN KEY (order_id) REFERENCES orders;
DELETE FROM tags WHERE order_id = 99;
ALTER TABLE tags ADD FOREIGN KEY (order_id) REFERENCES orders;
INSERT INTO tags VALUES (98, 'c');
-- Dependencies: DROP and TRUNCATE.
DROP TABLE customers;
TRUNCATE customers;
TRUNCATE lines;
ALTER TABLE tags DROP CONSTRAINT tags_order_id_fkey;
INSERT INTO tags VALUES (98, 'c');
-- Errors at CREATE.
CREATE TABLE bad1 (x integer REFERENCES nowhere);
CREATE TABLE bad2 (x integer REFERENCES customers (name));
CREATE TABLE bad3 (x text REFERENCES customers);
CREATE TABLE bad4 (x integer, y integer, FOREIGN KEY (x, y) REFERENCES customers);

CREATE FUNCTION place(p_id integer, p_customer integer, p_lines integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO orders (id, customer) VALUES (p_id, p_customer);
  FOR i IN 1..p_lines LOOP
    INSERT INTO lines VALUES (p_id, i, i * 2);
  END LOOP;
  RETURN p_lines;
END $$;

CREATE FUNCTION drop_customer(p_id integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  DELETE FROM orders WHERE customer = p_id;
  GET DIAGNOSTICS n = ROW_COUNT;
  DELETE FROM customers WHERE id = p_id;
  RETURN n;
END $$;

CREATE FUNCTION note(p_customer integer, p_body text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE v integer;
BEGIN
  INSERT INTO notes (customer, body) VALUES (p_customer, p_body) RETURNING id INTO v;
  RETURN v;
EXCEPTION WHEN foreign_key_violation THEN
  RETURN -1;
END $$;

CREATE FUNCTION rehire(p_id integer, p_boss integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE staff SET boss = p_boss WHERE id = p_id;
END $$;

--- calls: foreign_keys 120
SELECT id, name, email FROM customers ORDER BY id;
SELECT id, customer, placed_by, total FROM orders ORDER BY id;
SELECT order_id, n, qty FROM lines ORDER BY 1, 2;
SELECT id, customer, body FROM notes ORDER BY id;
SELECT id, boss, name FROM staff ORDER BY id;
SELECT order_id, tag FROM tags ORDER BY 1, 2;
