-- Views: bound again wherever a query reads them, so they show their tables as they are
-- now; ad hoc, inside procedures (SELECT INTO, FOR, RETURN QUERY) and in pipelined calls
-- that write the tables they read; views over views, with column lists, joins,
-- aggregates, WITH and set operations; CREATE OR REPLACE and DROP with their checks.
CREATE TABLE account (id integer PRIMARY KEY, owner text NOT NULL, branch integer, balance numeric(12,2) NOT NULL);
CREATE TABLE branch (id integer PRIMARY KEY, city text);
INSERT INTO branch VALUES (1, 'Oslo'), (2, 'Lima'), (3, NULL);
INSERT INTO account VALUES (1, 'ann', 1, 100.00), (2, 'bob', 1, 20.50), (3, 'cy', 2, 0.00), (4, 'di', NULL, 75.25),
  (5, 'ed', 3, 310.00);

CREATE VIEW positive AS SELECT id, owner, balance FROM account WHERE balance > 0;
CREATE VIEW branch_totals (city, accounts, total) AS
  SELECT b.city, count(a.id), coalesce(sum(a.balance), 0) FROM branch b LEFT JOIN account a ON a.branch = b.id GROUP BY b.city;
CREATE VIEW rich_positive AS SELECT owner, balance * 2 AS doubled, 'vip' AS tier FROM positive WHERE balance >= 75;
CREATE VIEW everyone AS
  WITH named AS (SELECT owner AS who FROM account)
  SELECT who FROM named UNION SELECT coalesce(city, '?') FROM branch;

SELECT * FROM positive ORDER BY id;
SELECT owner FROM positive WHERE balance < 100 ORDER BY owner;
SELECT * FROM branch_totals ORDER BY city NULLS FIRST;
SELECT * FROM rich_positive ORDER BY owner;
SELECT * FROM everyone ORDER BY who;
SELECT p.owner, t.total FROM positive p JOIN account a ON a.id = p.id JOIN branch b ON b.id = a.branch
  JOIN branch_totals t ON t.city = b.city ORDER BY p.owner;
SELECT count(*) FROM positive p1, positive p2 WHERE p1.id < p2.id;
SELECT owner FROM account WHERE id IN (SELECT id FROM positive WHERE balance > 50) ORDER BY 1;
SELECT v.total FROM branch_totals AS v WHERE v.city = 'Oslo';

CREATE FUNCTION richest() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  n text;
BEGIN
  SELECT owner INTO n FROM positive ORDER BY balance DESC, id LIMIT 1;
  RETURN n;
END $$;

CREATE FUNCTION city_report() RETURNS TABLE (city text, total numeric) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT coalesce(t.city, '-'), t.total FROM branch_totals t ORDER BY 1;
END $$;

CREATE FUNCTION move(p_from integer, p_to integer, p_amount numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
  out text := '';
  top text;
BEGIN
  UPDATE account SET balance = balance - p_amount WHERE id = p_from;
  UPDATE account SET balance = balance + p_amount WHERE id = p_to;
  FOR r IN SELECT owner FROM positive WHERE id IN (p_from, p_to) ORDER BY id LOOP
    out := out || r.owner || ' ';
  END LOOP;
  SELECT owner INTO top FROM positive ORDER BY balance DESC, id LIMIT 1;
  RETURN out || top;
END $$;

--- calls: views 150
SELECT * FROM positive ORDER BY id;
SELECT * FROM city_report();
SELECT richest();

-- CREATE OR REPLACE keeps the columns it had; DROP keeps what others read.
CREATE OR REPLACE VIEW positive AS SELECT id, owner FROM account;
CREATE OR REPLACE VIEW positive AS SELECT id, owner AS name, balance FROM account;
CREATE OR REPLACE VIEW positive AS SELECT id, owner, balance::text FROM account;
CREATE OR REPLACE VIEW positive AS SELECT id, owner, balance, branch FROM account WHERE balance > 50;
SELECT * FROM positive ORDER BY id;
CREATE VIEW positive AS SELECT 1 AS one;
CREATE VIEW two (a, b) AS SELECT 1;
CREATE VIEW broken AS SELECT nosuch FROM account;
DROP VIEW positive;
DROP VIEW rich_positive;
DROP VIEW branch_totals;
DROP VIEW IF EXISTS branch_totals;
DROP VIEW nosuch;
DROP TABLE branch;
DROP VIEW everyone, positive;
SELECT count(*) FROM account;

-- A function reads a replaced view's new query; a view cannot come to read itself.
CREATE VIEW tv AS SELECT id FROM account;
CREATE FUNCTION count_tv() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT count(*) FROM tv);
END $$;
SELECT count_tv();
CREATE OR REPLACE VIEW tv AS SELECT id FROM account WHERE balance > 200;
SELECT count_tv();
CREATE VIEW v1 AS SELECT 1 AS a;
CREATE VIEW v2 AS SELECT * FROM v1;
CREATE OR REPLACE VIEW v1 AS SELECT * FROM v2;
SELECT * FROM v2;
