-- CHECK constraints: column and table ones, named and unnamed (PostgreSQL's names, in
-- name order), NULL passing, NOT NULL reported first, on INSERT, UPDATE, ON CONFLICT DO
-- UPDATE, INSERT ... SELECT, ad hoc and from pipelined procedure calls (a failing call
-- writes nothing), and the errors at CREATE.
CREATE TABLE acct (
  id integer PRIMARY KEY,
  balance numeric(10,2) NOT NULL CHECK (balance >= 0),
  kind text CHECK (kind IN ('a', 'b')),
  lo integer,
  hi integer,
  CONSTRAINT range_ok CHECK (lo <= hi),
  CHECK (lo > -100)
);
INSERT INTO acct VALUES (1, 10, 'a', 1, 2), (2, 20, 'b', 0, 0), (3, 30, NULL, NULL, NULL);
INSERT INTO acct VALUES (4, -1, 'a', 1, 2);
INSERT INTO acct VALUES (4, 5, 'z', 1, 2);
INSERT INTO acct VALUES (4, 5, NULL, 3, 2);
INSERT INTO acct VALUES (4, 5, 'b', -200, 2);
INSERT INTO acct VALUES (4, NULL, 'q', 1, 2);
INSERT INTO acct VALUES (4, 5, 'b', -200, -300);
UPDATE acct SET balance = balance - 20 WHERE id = 1;
UPDATE acct SET hi = -1 WHERE id = 1;
UPDATE acct SET balance = balance - 5 WHERE id <= 2;
INSERT INTO acct VALUES (1, 1, 'a', 1, 1) ON CONFLICT (id) DO UPDATE SET balance = -5;
INSERT INTO acct VALUES (1, 1, 'a', 1, 1) ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, balance = acct.balance + 1;
INSERT INTO acct SELECT g, g, 'a', g, g FROM generate_series(5, 7) g;
INSERT INTO acct SELECT g, 5 - g, 'a', g, g FROM generate_series(8, 12) g;
SELECT * FROM acct ORDER BY id;

CREATE FUNCTION move(p_from integer, p_to integer, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v numeric;
BEGIN
  UPDATE acct SET balance = balance + p_amount WHERE id = p_to;
  UPDATE acct SET balance = balance - p_amount WHERE id = p_from RETURNING balance INTO v;
  RETURN v;
END $$;

CREATE FUNCTION reshape(p_id integer, p_lo integer, p_hi integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct (id, balance, lo, hi) VALUES (p_id, 0, p_lo, p_hi)
  ON CONFLICT (id) DO UPDATE SET lo = excluded.lo, hi = excluded.hi;
  RETURN p_lo || '..' || p_hi;
END $$;

SELECT move(1, 2, 5);
SELECT move(1, 2, 50);
SELECT reshape(3, 1, 5);
SELECT reshape(3, 6, 5);
--- calls: check_constraints 60
SELECT * FROM acct ORDER BY id;
SELECT sum(balance) FROM acct;

-- A serial value the checks read is drawn once (the checks see the drawn value).
CREATE TABLE numbered (id serial PRIMARY KEY, n integer CHECK (n > 0), CONSTRAINT few CHECK (id < 7));
INSERT INTO numbered (n) VALUES (1);
INSERT INTO numbered (n) VALUES (0);
INSERT INTO numbered (n) VALUES (2), (3);
CREATE FUNCTION number_it(p integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v integer;
BEGIN
  INSERT INTO numbered (n) VALUES (p) RETURNING id INTO v;
  RETURN v;
END $$;
SELECT number_it(4);
SELECT number_it(-4);
SELECT number_it(5);
SELECT number_it(6);
SELECT * FROM numbered ORDER BY id;

-- Errors at CREATE.
CREATE TABLE bad (x integer PRIMARY KEY CHECK (x));
CREATE TABLE bad (x integer PRIMARY KEY, CHECK ((SELECT 1) = 1));
CREATE TABLE bad (x integer PRIMARY KEY CHECK (count(*) > 0));
CREATE TABLE bad (x integer PRIMARY KEY, CONSTRAINT c CHECK (x > 0), CONSTRAINT c CHECK (x < 9));
CREATE TABLE c2 (x integer PRIMARY KEY, y integer CHECK (y > 0) CHECK (y < 10), CONSTRAINT c2_y_check2 CHECK (y <> 5), CHECK (x + y < 100));
INSERT INTO c2 VALUES (1, 5);
INSERT INTO c2 VALUES (1, 50);
INSERT INTO c2 VALUES (1, 0);
INSERT INTO c2 VALUES (99, 9);
INSERT INTO c2 VALUES (1, 9);
SELECT * FROM c2;
