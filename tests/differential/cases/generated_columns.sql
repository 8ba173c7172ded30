-- Stored generated columns (GENERATED ALWAYS AS (expr) STORED): computed by every write
-- (INSERT, UPDATE, ON CONFLICT DO UPDATE, INSERT ... SELECT, COPY) in pipelined
-- procedures and ad hoc, read by CHECK constraints, UNIQUE constraints and indexes
-- (a case-insensitive unique email), RETURNING, COPY TO without them, ALTER TABLE's
-- limits, and PostgreSQL's errors.
CREATE TABLE accounts (
  id integer PRIMARY KEY,
  email text NOT NULL,
  email_key text GENERATED ALWAYS AS (lower(email)) STORED UNIQUE,
  first_name text,
  last_name text,
  full_name text GENERATED ALWAYS AS (coalesce(first_name || ' ', '') || coalesce(last_name, '')) STORED,
  balance numeric(12,2) NOT NULL DEFAULT 0,
  credit numeric(12,2) NOT NULL DEFAULT 100,
  available numeric(12,2) GENERATED ALWAYS AS (balance + credit) STORED CHECK (available >= 0),
  tier text GENERATED ALWAYS AS (CASE WHEN balance >= 1000 THEN 'gold' WHEN balance >= 100 THEN 'silver' ELSE 'basic' END) STORED
);
CREATE INDEX accounts_tier ON accounts (tier, id);
CREATE TABLE lines (order_id integer, line integer, qty integer NOT NULL, price numeric(8,2) NOT NULL,
                    amount numeric(10,2) GENERATED ALWAYS AS (qty * price) STORED, PRIMARY KEY (order_id, line));

INSERT INTO accounts (id, email, first_name, last_name, balance) VALUES
  (1, 'Ann@Example.com', 'Ann', 'Lee', 50),
  (2, 'bob@example.com', 'Bob', NULL, 500),
  (3, 'CAROL@example.com', NULL, 'Diaz', 2000);
INSERT INTO accounts VALUES (4, 'dan@example.com', DEFAULT, 'Dan', DEFAULT, DEFAULT, 10, DEFAULT, DEFAULT, DEFAULT);
INSERT INTO lines (order_id, line, qty, price) VALUES (1, 1, 2, 9.99), (1, 2, 1, 100), (2, 1, 10, 0.5);

CREATE FUNCTION pay(p_id integer, p_amount numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_available numeric;
  v_tier text;
BEGIN
  UPDATE accounts SET balance = balance - p_amount WHERE id = p_id RETURNING available, tier INTO v_available, v_tier;
  IF NOT FOUND THEN
    RETURN 'no account';
  END IF;
  RETURN v_tier || ' ' || v_available;
EXCEPTION WHEN check_violation THEN
  RETURN 'declined';
END $$;

CREATE FUNCTION sign_up(p_id integer, p_email text, p_first text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_key text;
BEGIN
  INSERT INTO accounts (id, email, first_name) VALUES (p_id, p_email, p_first) RETURNING email_key INTO v_key;
  RETURN v_key;
EXCEPTION WHEN unique_violation THEN
  RETURN 'taken';
END $$;

CREATE FUNCTION add_line(p_order integer, p_line integer, p_qty integer, p_price numeric) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lines (order_id, line, qty, price) VALUES (p_order, p_line, p_qty, p_price)
    ON CONFLICT (order_id, line) DO UPDATE SET qty = lines.qty + EXCLUDED.qty;
  RETURN (SELECT sum(amount) FROM lines WHERE order_id = p_order);
END $$;

CREATE FUNCTION rename(p_id integer, p_first text, p_last text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v text;
BEGIN
  UPDATE accounts SET first_name = p_first, last_name = p_last WHERE id = p_id RETURNING full_name INTO v;
  RETURN v;
END $$;

--- calls: generated_columns 150
SELECT * FROM accounts ORDER BY id;
SELECT * FROM lines ORDER BY order_id, line;

-- Reads of generated columns: filters, the index, grouping.
SELECT id, tier FROM accounts WHERE tier = 'silver' ORDER BY id;
SELECT tier, count(*), sum(available) FROM accounts GROUP BY tier ORDER BY tier;
SELECT id FROM accounts WHERE email_key = lower('BOB@EXAMPLE.COM');
SELECT order_id, sum(amount) FROM lines GROUP BY order_id ORDER BY order_id;

-- Ad-hoc writes.
UPDATE accounts SET balance = balance + 1000 WHERE id = 1 RETURNING id, balance, available, tier;
UPDATE accounts SET first_name = 'Annie', email = 'annie@example.com' WHERE id = 1;
UPDATE accounts SET tier = DEFAULT, balance = 5 WHERE id = 4 RETURNING tier, available;
INSERT INTO accounts (id, email) VALUES (20, 'New@Example.com')
  ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + 1 RETURNING id, email_key, available;
INSERT INTO accounts (id, email) VALUES (20, 'New@Example.com')
  ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + 1 RETURNING id, email_key, available;
INSERT INTO lines (order_id, line, qty, price) SELECT order_id + 10, line, qty * 2, price FROM lines WHERE order_id = 1;
SELECT * FROM accounts ORDER BY id;
SELECT * FROM lines ORDER BY order_id, line;
COPY (SELECT id, email_key, full_name, tier FROM accounts ORDER BY id) TO STDOUT WITH (FORMAT csv);
CREATE TABLE tags (id integer PRIMARY KEY, name text, slug text GENERATED ALWAYS AS (lower(replace(name, ' ', '-'))) STORED);
INSERT INTO tags (id, name) VALUES (1, 'Hello World'), (2, 'Caracal DB');
COPY tags TO STDOUT;
COPY tags FROM STDIN;
3	Third One
\.
SELECT * FROM tags ORDER BY id;
COPY lines (order_id, line, qty, price) FROM STDIN;
30	1	3	1.25
30	2	4	2.50
\.
COPY lines FROM STDIN WITH (FORMAT csv);
31,1,2,7
\.
SELECT * FROM lines WHERE order_id >= 30 ORDER BY order_id, line;

-- Errors.
INSERT INTO accounts (id, email, tier) VALUES (40, 'x@example.com', 'gold');
INSERT INTO accounts VALUES (41, 'y@example.com', 'y@example.com');
UPDATE accounts SET available = 0 WHERE id = 1;
UPDATE accounts SET balance = -1000 WHERE id = 2;
INSERT INTO accounts (id, email) VALUES (42, 'BOB@example.COM');
INSERT INTO lines (order_id, line, qty, price, amount) SELECT 50, 1, 1, 1, 1;
COPY lines (order_id, line, amount) FROM STDIN;
COPY lines (amount) TO STDOUT;
CREATE TABLE bad1 (a integer, b integer GENERATED ALWAYS AS (a) STORED, c integer GENERATED ALWAYS AS (b + 1) STORED);
CREATE TABLE bad2 (a timestamptz, b timestamptz GENERATED ALWAYS AS (now()) STORED);
CREATE TABLE bad3 (a integer, b integer DEFAULT 1 GENERATED ALWAYS AS (a) STORED);
CREATE TABLE bad4 (a integer, b integer GENERATED ALWAYS AS ((SELECT 1)) STORED);
CREATE TABLE bad5 (a integer, b double precision GENERATED ALWAYS AS (random()) STORED);
CREATE TABLE bad6 (a integer, b integer GENERATED ALWAYS AS (sum(a)) STORED);
CREATE TABLE bad7 (a integer, b integer GENERATED ALWAYS AS (nope) STORED);
ALTER TABLE lines DROP COLUMN qty;
ALTER TABLE lines ALTER COLUMN price TYPE numeric(10,2);
ALTER TABLE lines ALTER COLUMN amount SET DEFAULT 0;
CREATE TABLE div (a integer, b integer GENERATED ALWAYS AS (100 / a) STORED);
INSERT INTO div VALUES (0);
INSERT INTO div VALUES (5);
UPDATE div SET a = 0;
SELECT * FROM div;
ALTER TABLE div DROP COLUMN b;
SELECT * FROM div;

-- ALTER TABLE ... ADD COLUMN of a generated column fills the rows there.
ALTER TABLE tags ADD COLUMN name_length integer GENERATED ALWAYS AS (length(name)) STORED;
SELECT * FROM tags ORDER BY id;
INSERT INTO tags (id, name) VALUES (4, 'Four');
UPDATE tags SET name = 'First' WHERE id = 1;
SELECT * FROM tags ORDER BY id;
ALTER TABLE tags ADD COLUMN bad integer GENERATED ALWAYS AS (length(slug)) STORED;
ALTER TABLE tags ADD COLUMN bad integer DEFAULT 0 GENERATED ALWAYS AS (1) STORED;
ALTER TABLE div ADD COLUMN c integer GENERATED ALWAYS AS (10 / (a - 5)) STORED;
SELECT * FROM div;
