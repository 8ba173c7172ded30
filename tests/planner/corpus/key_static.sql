-- Static keys: every key is an expression of the parameters, constants and nextval().
CREATE TABLE acct (id integer PRIMARY KEY, owner text NOT NULL, balance numeric(12,2) NOT NULL DEFAULT 0);
CREATE TABLE ledger (acct integer, seq bigint, amount numeric(12,2), PRIMARY KEY (acct, seq));
CREATE SEQUENCE ledger_seq;

-- 1. point insert from parameters
CREATE FUNCTION open_acct(p_id integer, p_owner text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct (id, owner) VALUES (p_id, p_owner);
END $$;
EXPLAIN PROCEDURE open_acct;

-- 2. point update through a variable computed from the parameters; the key renders as
--    its definition
CREATE FUNCTION deposit(p_id integer, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v_target integer := p_id * 10;
  v_new numeric(12,2);
BEGIN
  UPDATE acct SET balance = balance + p_amount WHERE id = v_target RETURNING balance INTO v_new;
  RETURN v_new;
END $$;
EXPLAIN PROCEDURE deposit;

-- 3. composite key with nextval(): drawn at sequencing, so the key is known up front
CREATE FUNCTION post(p_acct integer, p_amount numeric) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint := nextval('ledger_seq');
BEGIN
  INSERT INTO ledger VALUES (p_acct, v_seq, p_amount);
  RETURN v_seq;
END $$;
EXPLAIN PROCEDURE post;

-- 4. delete by $1 and an upsert (ON CONFLICT DO UPDATE)
CREATE PROCEDURE close_acct(integer) LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM acct WHERE id = $1;
  INSERT INTO acct VALUES ($1 + 1000, 'archive', 0)
    ON CONFLICT (id) DO UPDATE SET balance = acct.balance + 1;
END $$;
EXPLAIN PROCEDURE close_acct;

SELECT open_acct(10, 'ann');
SELECT open_acct(20, 'bob');
SELECT open_acct(10, 'dup');
SELECT deposit(1, 5.505);
SELECT deposit(3, 1);
-- one statement calls one procedure (a call is one transaction)
SELECT post(10, 1.5), post(20, 2.5);
SELECT post(10, 1.5);
SELECT post(20, 2.5);
CALL close_acct(20);
CALL close_acct(20);
SELECT * FROM acct ORDER BY id;
SELECT * FROM ledger ORDER BY acct, seq;
