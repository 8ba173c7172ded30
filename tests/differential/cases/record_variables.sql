-- Record variables beyond a FOR loop's target: SELECT ... INTO a record (which takes the
-- row's shape; no row leaves its fields NULL), INTO STRICT, UPDATE/INSERT ... RETURNING
-- INTO a record, a record assigned twice with different shapes, and t%ROWTYPE (the
-- table's columns as fields, NULL until assigned, filled by SELECT * INTO and by a FOR
-- over the table's rows); a field of a record assigned (`r.f := x`: record, %ROWTYPE and
-- a table's row type), then the record written back field by field.
CREATE TABLE customer (id integer PRIMARY KEY, name varchar(20) NOT NULL, balance numeric(10,2), since timestamp);
INSERT INTO customer VALUES (1, 'ann', 10.50, '2020-01-02 10:00:00'), (2, 'bob', NULL, '2021-03-04 00:00:00'), (3, 'cy', -2.00, NULL);

CREATE FUNCTION describe(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT name, balance, since INTO r FROM customer WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN 'none: ' || coalesce(r.name, '<null>');
  END IF;
  RETURN r.name || ' ' || coalesce(r.balance::text, '?') || ' ' || coalesce(r.since::text, '?');
END $$;

CREATE FUNCTION strict_name(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  SELECT id, upper(name) AS shout INTO STRICT r FROM customer WHERE id = p_id;
  RETURN r.id || ':' || r.shout;
END $$;

CREATE FUNCTION pay(p_id integer, p_amount numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  UPDATE customer SET balance = coalesce(balance, 0) + p_amount WHERE id = p_id RETURNING id, balance INTO r;
  IF r.id IS NULL THEN
    RETURN 'no customer ' || p_id;
  END IF;
  RETURN 'customer ' || r.id || ' now ' || r.balance;
END $$;

CREATE FUNCTION reshape(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
  first text;
BEGIN
  SELECT name INTO r FROM customer WHERE id = p_id;
  first := r.name;
  SELECT count(*) AS n, max(balance) AS top INTO r FROM customer;
  RETURN first || ' / ' || r.n || ' / ' || coalesce(r.top::text, '?');
END $$;

CREATE FUNCTION whole_row(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c customer%ROWTYPE;
  before text;
BEGIN
  before := coalesce(c.name, '<unset>');
  SELECT * INTO c FROM customer WHERE id = p_id;
  RETURN before || ' -> ' || coalesce(c.name, '<null>') || ' ' || coalesce(c.balance::text, '?');
END $$;

CREATE FUNCTION total_rows() RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  c customer%rowtype;
  total numeric := 0;
BEGIN
  FOR c IN SELECT * FROM customer ORDER BY id LOOP
    total := total + coalesce(c.balance, 0) + c.id;
  END LOOP;
  RETURN total;
END $$;

CREATE FUNCTION adjust(p_id integer, p_by numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c customer%ROWTYPE;
  r RECORD;
  t customer;
BEGIN
  SELECT * INTO c FROM customer WHERE id = p_id;
  IF NOT FOUND THEN
    c.id := p_id;
    c.name := 'new' || p_id;
  END IF;
  c.balance := coalesce(c.balance, 0) + p_by;
  c.since = '2024-05-06 07:08:09';
  UPDATE customer SET balance = c.balance, since = c.since WHERE id = c.id;
  IF NOT FOUND THEN
    INSERT INTO customer VALUES (c.id, c.name, c.balance, c.since);
  END IF;
  SELECT id, name INTO r FROM customer WHERE id = p_id;
  r.name := upper(r.name);
  t.name := r.name || '!';
  RETURN r.name || ' ' || c.balance || ' ' || t.name || ' ' || coalesce(t.id::text, '-');
END $$;

SELECT describe(1);
SELECT describe(2);
SELECT describe(9);
SELECT strict_name(3);
SELECT strict_name(9);
SELECT pay(2, 5);
SELECT pay(9, 5);
SELECT reshape(1);
SELECT whole_row(3);
SELECT whole_row(9);
SELECT total_rows();
SELECT adjust(1, 2.5);
SELECT adjust(7, 1);
--- calls: record_variables 200
SELECT id, name, balance, since FROM customer ORDER BY id;
