-- Queries inside procedures: SELECT INTO over joins and subqueries, RETURN QUERY of a
-- join with grouping and window functions, FOR over a join, expressions that are queries
-- (x := (SELECT ...), IF EXISTS (...), ELSIF and WHILE over queries, DECLARE defaults),
-- and writes keyed by what those queries found (dependent keys, found by reconnaissance
-- and re-checked at execution), pipelined across workers and epochs.
CREATE TABLE owners (id integer PRIMARY KEY, name text NOT NULL, tier integer);
CREATE TABLE accounts (id integer PRIMARY KEY, owner integer, bal integer NOT NULL, opened integer NOT NULL);
CREATE TABLE ledger (id integer PRIMARY KEY, acct integer NOT NULL, amount integer NOT NULL, note text);

INSERT INTO owners VALUES (1, 'ann', 1), (2, 'bob', 2), (3, 'cy', NULL), (4, 'dee', 1), (5, 'eve', 3);
INSERT INTO accounts VALUES
  (10, 1, 100, 1), (11, 1, 5, 2), (12, 2, 70, 1), (13, 3, 0, 3), (14, 4, 250, 2),
  (15, NULL, 40, 1), (16, 2, 15, 3), (17, 5, 90, 2), (18, 4, 1, 1), (19, 3, 33, 2);

-- Pays from the richest account of an owner named p_name to account p_to: the source is
-- a join's answer, so both updates' keys depend on it.
CREATE FUNCTION pay_by_name(p_name text, p_to integer, p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  src integer;
  have integer;
  entry integer;
BEGIN
  SELECT a.id, a.bal INTO src, have
    FROM accounts a JOIN owners o ON o.id = a.owner
   WHERE o.name = p_name
   ORDER BY a.bal DESC, a.id
   LIMIT 1;
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  IF have < p_amount THEN
    RAISE EXCEPTION 'account % of % has only %', src, p_name, have;
  END IF;
  UPDATE accounts SET bal = bal - p_amount WHERE id = src;
  UPDATE accounts SET bal = bal + p_amount WHERE id = p_to;
  SELECT coalesce(max(l.id), 0) + 1 INTO entry FROM ledger l;
  INSERT INTO ledger VALUES (entry, src, -p_amount, 'pay ' || p_name);
  RETURN src;
END $$;

-- Each owner's accounts, ranked, with the owner's total (a join, a window and grouping).
CREATE FUNCTION owner_report(p_tier integer)
  RETURNS TABLE (owner_name text, acct integer, bal integer, rnk bigint, total bigint) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
    SELECT o.name, a.id, a.bal, rank() OVER (PARTITION BY o.id ORDER BY a.bal DESC),
           sum(a.bal) OVER (PARTITION BY o.id)
      FROM owners o JOIN accounts a ON a.owner = o.id
     WHERE o.tier = p_tier OR (p_tier IS NULL AND o.tier IS NULL)
     ORDER BY o.name, a.bal DESC, a.id;
END $$;

-- Moves every account of an owner whose balance is under the owner's average into the
-- owner's richest account (FOR over a join with a correlated subquery).
CREATE FUNCTION consolidate(p_owner integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  best integer := (SELECT id FROM accounts WHERE owner = p_owner ORDER BY bal DESC, id LIMIT 1);
  moved integer := 0;
BEGIN
  IF best IS NULL THEN
    RETURN 0;
  END IF;
  FOR r IN SELECT a.id, a.bal FROM accounts a JOIN owners o ON o.id = a.owner
            WHERE o.id = p_owner AND a.id <> best
              AND a.bal < (SELECT avg(b.bal) FROM accounts b WHERE b.owner = a.owner)
            ORDER BY a.id LOOP
    UPDATE accounts SET bal = bal + r.bal WHERE id = best;
    UPDATE accounts SET bal = 0 WHERE id = r.id;
    moved := moved + r.bal;
  END LOOP;
  RETURN moved;
END $$;

-- Expressions that are queries: a scalar subquery, EXISTS, an ELSIF over a query, and a
-- WHILE whose condition reads the table the loop changes.
CREATE FUNCTION classify(p_acct integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  n := (SELECT count(*) FROM ledger WHERE acct = p_acct);
  IF NOT EXISTS (SELECT 1 FROM accounts WHERE id = p_acct) THEN
    RETURN 'none';
  ELSIF (SELECT bal FROM accounts WHERE id = p_acct) > (SELECT avg(bal) FROM accounts) THEN
    RETURN 'rich/' || n;
  ELSIF p_acct IN (SELECT a.id FROM accounts a LEFT JOIN owners o ON o.id = a.owner WHERE o.id IS NULL) THEN
    RETURN 'orphan/' || n;
  END IF;
  RETURN 'plain/' || n;
END $$;

CREATE FUNCTION drain(p_acct integer, p_step integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  steps integer := 0;
  k integer := 0;
BEGIN
  FOR i IN 1..3 LOOP
    EXIT WHEN (SELECT bal FROM accounts WHERE id = p_acct) < p_step OR NOT FOUND;
    UPDATE accounts SET bal = bal - p_step WHERE id = p_acct;
    EXIT WHEN NOT FOUND;
    steps := steps + 1;
  END LOOP;
  -- A WHILE over a query (no writes): entries of the ledger after this account's id.
  WHILE (SELECT count(*) FROM ledger WHERE id > k) > 0 AND k < 4 LOOP
    k := k + 1;
  END LOOP;
  RETURN steps * 10 + k;
END $$;

-- An account for an owner, numbered after the owner's last one; refused for an unknown
-- owner (a key computed from an aggregate query).
CREATE FUNCTION open_account(p_owner integer, p_bal integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  next_id integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM owners WHERE id = p_owner) THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(max(id), 0) + 1 INTO next_id FROM accounts WHERE id >= 20;
  next_id := greatest(next_id, 20);
  INSERT INTO accounts VALUES (next_id, p_owner, p_bal, 9);
  RETURN next_id;
END $$;

-- PERFORM of a join, GET DIAGNOSTICS and FOUND after it.
CREATE FUNCTION busy_owners(p_min integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM o.id FROM owners o JOIN accounts a ON a.owner = o.id GROUP BY o.id HAVING count(*) >= p_min;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  RETURN n;
END $$;

SELECT pay_by_name('ann', 12, 10);
SELECT * FROM owner_report(1);
SELECT * FROM owner_report(NULL);
SELECT consolidate(4);
SELECT classify(10);
SELECT classify(15);
SELECT classify(99);
SELECT classify(13);
SELECT drain(19, 10);
SELECT open_account(2, 7);
SELECT open_account(42, 1);
SELECT open_account(3, 8);
SELECT busy_owners(2);
SELECT busy_owners(9);
SELECT pay_by_name('nobody', 12, 1);
SELECT pay_by_name('cy', 12, 1000);
--- calls: q_procedures 300
SELECT * FROM accounts ORDER BY id;
SELECT * FROM ledger ORDER BY id;
SELECT * FROM owner_report(2);
SELECT o.name, count(a.id), sum(a.bal) FROM owners o LEFT JOIN accounts a ON a.owner = o.id GROUP BY o.name ORDER BY o.name;
