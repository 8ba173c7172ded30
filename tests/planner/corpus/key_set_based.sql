-- Set-based statements inside procedures and what their keys become: UPDATE ... FROM and
-- DELETE ... USING over named FROM items (loop keys from the arrays), over a table (keys
-- found by reconnaissance: dependent), INSERT ... SELECT with key lookups, expressions
-- that are queries, and queries of joins.
CREATE TABLE acct (id integer PRIMARY KEY, owner integer, bal integer NOT NULL);
CREATE TABLE person (id integer PRIMARY KEY, name text, vip boolean);
CREATE TABLE audit (id integer, n integer, amount integer, who text, PRIMARY KEY (id, n));

CREATE FUNCTION credit_all(p_ids integer[], p_amounts integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  UPDATE acct SET bal = bal + u.amount FROM unnest(p_ids, p_amounts) AS u(id, amount) WHERE acct.id = u.id;
  GET DIAGNOSTICS n = ROW_COUNT;
  DELETE FROM audit USING unnest(p_ids) AS d(k) WHERE audit.id = d.k AND audit.n = 0;
  RETURN n;
END $$;
EXPLAIN PROCEDURE credit_all;

CREATE FUNCTION credit_vips(p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET bal = bal + p_amount FROM person WHERE person.id = acct.owner AND person.vip;
  DELETE FROM acct WHERE bal < 0 AND owner IN (SELECT id FROM person WHERE NOT vip);
  RETURN 0;
END $$;
EXPLAIN PROCEDURE credit_vips;
-- Serial above (one call per epoch): the DELETE's rows depend on the UPDATE just before
-- it, so they are found only as the call runs. Reading them first declares them in advance.
CREATE FUNCTION credit_vips_first(p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM acct WHERE bal < 0 AND owner IN (SELECT id FROM person WHERE NOT vip);
  UPDATE acct SET bal = bal + p_amount FROM person WHERE person.id = acct.owner AND person.vip;
  RETURN 0;
END $$;
EXPLAIN PROCEDURE credit_vips_first;

CREATE FUNCTION log_all(p_id integer, p_accts integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit
    SELECT p_id, u.n, a.bal, p.name
      FROM unnest(p_accts) WITH ORDINALITY AS u(acct, n)
      JOIN acct a ON a.id = u.acct
      LEFT JOIN person p ON p.id = a.owner;
END $$;
EXPLAIN PROCEDURE log_all;

CREATE FUNCTION richest_owner() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  who text := (SELECT p.name FROM person p JOIN acct a ON a.owner = p.id ORDER BY a.bal DESC LIMIT 1);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM acct) THEN
    RETURN NULL;
  END IF;
  UPDATE acct SET bal = bal - 1 WHERE id = (SELECT max(id) FROM acct);
  RETURN who;
END $$;
EXPLAIN PROCEDURE richest_owner;

-- RETURNING ... INTO of a set-based write: at most one row (P0003 after the loop).
CREATE FUNCTION one_into(p integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  x integer;
BEGIN
  UPDATE acct SET bal = 0 FROM person WHERE person.id = acct.owner AND person.id = p RETURNING acct.id INTO x;
  RETURN x;
END $$;
EXPLAIN PROCEDURE one_into;

-- Refused, with what and why.
CREATE FUNCTION bad_case(p integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  CASE WHEN EXISTS (SELECT 1 FROM acct WHERE id = p) THEN RETURN 1; ELSE RETURN 0; END CASE;
END $$;

-- A data-modifying WITH: the DELETE's rows (its collect query) key the UPDATE through
-- RETURNING, found by reconnaissance; an INSERT's RETURNING may not key a write.
CREATE FUNCTION close_negative(p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  WITH gone AS (DELETE FROM acct WHERE bal < p_amount RETURNING owner, bal)
  UPDATE person SET vip = false FROM gone WHERE person.id = gone.owner;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
EXPLAIN PROCEDURE close_negative;
CREATE FUNCTION open_and_mark(p_id integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  WITH made AS (INSERT INTO acct VALUES (p_id, p_id, 0) RETURNING owner)
  UPDATE person SET vip = true FROM made WHERE person.id = made.owner;
  RETURN 0;
END $$;
