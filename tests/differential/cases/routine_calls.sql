-- User functions called inside expressions: pure helpers (STRICT, defaults, named
-- arguments), helpers that read tables (their value is read-derived; a key built from one
-- makes the caller serial), helpers that write (their caller is serial), nested calls,
-- PERFORM of a void function, calls in queries over rows and in ad-hoc statements, errors
-- raised inside a call (CONTEXT lines of both functions) and caught by the caller's
-- EXCEPTION block, which undoes the callee's writes.
CREATE TABLE accounts (id integer PRIMARY KEY, owner text NOT NULL, balance integer NOT NULL);
CREATE TABLE rates (tier integer PRIMARY KEY, pct integer NOT NULL);
CREATE TABLE ledger (id integer, account integer, amount integer, note text);
CREATE TABLE counters (name text PRIMARY KEY, n integer NOT NULL);
CREATE SEQUENCE ledger_ids;
INSERT INTO accounts SELECT g, 'owner' || g, 100 * g FROM generate_series(1, 8) g;
INSERT INTO rates VALUES (0, 1), (1, 2), (2, 5), (3, 10);
INSERT INTO counters VALUES ('calls', 0), ('fails', 0);

-- Pure helpers.
CREATE FUNCTION clamp(v integer, lo integer DEFAULT 0, hi integer DEFAULT 1000) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF v < lo THEN RETURN lo; END IF;
  IF v > hi THEN RETURN hi; END IF;
  RETURN v;
END $$;

CREATE FUNCTION tier_of(amount integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN CASE WHEN amount IS NULL THEN NULL WHEN amount < 100 THEN 0 WHEN amount < 300 THEN 1
              WHEN amount < 600 THEN 2 ELSE 3 END;
END $$;

CREATE FUNCTION label(who text, suffix text DEFAULT '!') RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  RETURN upper(who) || suffix;
END $$;

-- Helpers that read.
CREATE FUNCTION balance_of(p_id integer) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  b integer;
BEGIN
  SELECT balance INTO b FROM accounts WHERE id = p_id;
  RETURN b;
END $$;

CREATE FUNCTION fee(p_id integer, amount integer) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  p integer;
BEGIN
  SELECT pct INTO p FROM rates WHERE tier = tier_of(balance_of(p_id));
  RETURN clamp(amount * p / 100, 1);
END $$;

CREATE FUNCTION richest() RETURNS integer
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT id FROM accounts ORDER BY balance DESC, id LIMIT 1);
END $$;

-- Helpers that write.
CREATE FUNCTION log_entry(p_account integer, p_amount integer, p_note text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v bigint := nextval('ledger_ids');
BEGIN
  INSERT INTO ledger VALUES (v, p_account, p_amount, p_note);
  RETURN v;
END $$;

CREATE FUNCTION bump(p_name text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE counters SET n = n + 1 WHERE name = p_name;
END $$;

CREATE FUNCTION checked(v integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  IF v < 0 THEN
    RAISE EXCEPTION 'negative amount %', v USING HINT = 'Amounts are positive.';
  END IF;
  RETURN v;
END $$;

-- Callers. Reads only: the write set is still found before the call runs.
CREATE FUNCTION pay_fee(p_id integer, amount integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  f integer := fee(p_id, amount);
BEGIN
  UPDATE accounts SET balance = balance - f WHERE id = p_id;
  RETURN clamp(balance_of(p_id), hi => 500);
END $$;

-- A key from a function that reads: serial.
CREATE FUNCTION tip_richest(amount integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts SET balance = balance + checked(amount) WHERE id = richest();
  RETURN richest();
END $$;

-- Writes through helpers (serial), an error from a call caught, the callee's writes undone.
CREATE FUNCTION transfer(p_from integer, p_to integer, amount integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  entry bigint;
BEGIN
  PERFORM bump('calls');
  BEGIN
    entry := log_entry(p_from, -amount, 'out');
    UPDATE accounts SET balance = balance - checked(amount) WHERE id = p_from;
    IF balance_of(p_from) < 0 THEN
      RAISE EXCEPTION 'overdrawn %', p_from;
    END IF;
    UPDATE accounts SET balance = balance + amount WHERE id = p_to;
    PERFORM log_entry(p_to, amount, 'in');
  EXCEPTION WHEN raise_exception THEN
    PERFORM bump('fails');
    RETURN 'failed: ' || SQLERRM;
  END;
  RETURN label('ok ' || entry::text, suffix => '.');
END $$;

-- An error inside a call, uncaught: both functions' CONTEXT lines.
CREATE FUNCTION strict_pay(p_id integer, amount integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v integer;
BEGIN
  v := checked(amount);
  UPDATE accounts SET balance = balance - v WHERE id = p_id;
  RETURN v;
END $$;

-- CALL of a procedure from a body, named arguments and defaults; a failing one.
CREATE PROCEDURE open_account(p_id integer, p_owner text DEFAULT 'nobody', p_balance integer DEFAULT 0)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounts VALUES (p_id, p_owner, checked(p_balance));
END $$;

CREATE FUNCTION open_pair(p_id integer, p_balance integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  CALL open_account(p_id, p_balance => p_balance);
  CALL open_account(p_id + 100, 'twin of ' || p_id);
  RETURN balance_of(p_id) + balance_of(p_id + 100);
END $$;

-- CALL with INOUT and OUT parameters: the values come back into the variables passed.
CREATE PROCEDURE split_fee(INOUT amount integer, OUT fee_part integer, rate integer DEFAULT 10)
LANGUAGE plpgsql AS $$
BEGIN
  fee_part := amount * rate / 100;
  amount := amount - fee_part;
END $$;

CREATE FUNCTION net_of(p integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  a integer := p;
  f integer;
  n numeric;
BEGIN
  CALL split_fee(a, f);
  n := 1;
  CALL split_fee(amount => a, fee_part => f, rate => 50);
  RETURN a || '/' || f;
END $$;

SELECT net_of(100), net_of(7), net_of(NULL);

SELECT clamp(-5), clamp(5000), clamp(NULL), clamp(50, hi => 40), clamp(7, 10, 20);
SELECT label('ann'), label(suffix => '?', who => 'bo'), tier_of(NULL), tier_of(450);
SELECT id, balance, tier_of(balance) AS tier, fee(id, 200) AS fee FROM accounts WHERE clamp(balance, 0, 500) >= 300 ORDER BY id;
SELECT richest(), balance_of(3), balance_of(99);
SELECT strict_pay(1, -5);

--- calls: routine_calls 150

SELECT id, owner, balance FROM accounts ORDER BY id;
SELECT id, account, amount, note FROM ledger ORDER BY id;
SELECT name, n FROM counters ORDER BY name;
UPDATE accounts SET balance = clamp(balance, 0, 400) WHERE tier_of(balance) >= 2;
SELECT id, balance FROM accounts ORDER BY id;
DELETE FROM ledger WHERE amount < clamp(amount, 0) RETURNING id, label(note);
SELECT count(*), sum(fee(account, amount)) FROM ledger;
SELECT nextval('ledger_ids');
-- Replacing a called function binds its callers again: pay_fee now also logs (a write,
-- so it is serial).
CREATE OR REPLACE FUNCTION fee(p_id integer, amount integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM log_entry(p_id, 0, 'fee');
  RETURN 7;
END $$;
SELECT pay_fee(2, 100), pay_fee(3, 100);
SELECT id, account, amount, note FROM ledger WHERE note = 'fee' ORDER BY id;
SELECT id, balance FROM accounts WHERE id IN (2, 3) ORDER BY id;
-- Ad-hoc statements that call a function that writes run as one transaction each.
INSERT INTO ledger SELECT log_entry(id, 1, 'bulk'), id, 2, 'outer' FROM accounts WHERE id = 2;
UPDATE accounts SET balance = balance + log_entry(id, 3, 'update')::integer * 0 WHERE id = 3;
SELECT id, account, amount, note FROM ledger WHERE note IN ('bulk', 'outer', 'update') ORDER BY id, note;
