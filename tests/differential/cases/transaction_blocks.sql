-- Transaction blocks (BEGIN ... COMMIT / ROLLBACK) run serially: what each statement of a
-- block shows (its own writes included), errors and the aborted state (25P02) after them,
-- COMMIT of a failed block answering ROLLBACK, savepoints (ROLLBACK TO, RELEASE, an
-- unknown one), calls of a procedure and a function inside blocks, sequence values drawn
-- by blocks that commit, roll back or fail (PostgreSQL keeps their gaps), a table without
-- a primary key, and the warnings outside a block.
CREATE TABLE account (id integer PRIMARY KEY, balance integer NOT NULL CHECK (balance >= -50));
INSERT INTO account SELECT g, 100 FROM generate_series(1, 6) g;
CREATE TABLE ledger (id serial PRIMARY KEY, account integer NOT NULL, amount integer NOT NULL);
CREATE TABLE audit (account integer, note text);
CREATE PROCEDURE deposit(p_id integer, p_amount integer) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account SET balance = balance + p_amount WHERE id = p_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no account %', p_id;
  END IF;
  INSERT INTO ledger (account, amount) VALUES (p_id, p_amount);
END $$;
CREATE FUNCTION balance_of(p_id integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  b integer;
BEGIN
  SELECT balance INTO b FROM account WHERE id = p_id;
  RAISE NOTICE 'balance of % is %', p_id, b;
  RETURN b;
END $$;
-- now() is the block's in every statement of it, and differs between blocks.
CREATE TABLE stamps (k integer, t timestamptz);
BEGIN;
INSERT INTO stamps VALUES (1, now());
SELECT count(*) FROM account;
INSERT INTO stamps VALUES (2, now());
SELECT count(DISTINCT t), bool_and(t = now()) FROM stamps;
COMMIT;
BEGIN;
INSERT INTO stamps VALUES (3, now());
COMMIT;
SELECT count(DISTINCT t) FROM stamps;
COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
RELEASE SAVEPOINT nosuch;
ROLLBACK;
SAVEPOINT outside;

--- calls: transaction_blocks 60
SELECT * FROM account ORDER BY id;
SELECT * FROM ledger ORDER BY id;
SELECT * FROM audit ORDER BY account, note;
SELECT nextval('ledger_id_seq');
