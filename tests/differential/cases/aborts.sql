-- Aborts before and after writes: nothing of an aborted call stays visible, and what it
-- raised reaches the client. A NOTICE raised before the abort is still printed.
CREATE TABLE account (id integer PRIMARY KEY, balance numeric(12,2) NOT NULL, ops integer NOT NULL DEFAULT 0);

-- Checks first, writes after: aborts before any write.
CREATE FUNCTION transfer(p_from integer, p_to integer, p_amount numeric) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
  v_bal numeric(12,2);
BEGIN
  SELECT balance INTO STRICT v_bal FROM account WHERE id = p_from;
  IF v_bal < p_amount THEN
    RAISE EXCEPTION 'insufficient funds in % (% < %)', p_from, v_bal, p_amount;
  END IF;
  PERFORM 1 FROM account WHERE id = p_to;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no account %', p_to USING ERRCODE = 'P0002';
  END IF;
  UPDATE account SET balance = balance - p_amount, ops = ops + 1 WHERE id = p_from;
  UPDATE account SET balance = balance + p_amount, ops = ops + 1 WHERE id = p_to;
  RETURN v_bal - p_amount;
END $$;

-- Writes first, check after: an abort after writes must undo them.
CREATE FUNCTION withdraw_then_check(p_id integer, p_amount numeric) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
  v_bal numeric(12,2);
BEGIN
  UPDATE account SET balance = balance - p_amount, ops = ops + 1 WHERE id = p_id
    RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no account %', p_id;
  END IF;
  RAISE NOTICE 'account % would hold %', p_id, v_bal;
  IF v_bal < 0 THEN
    RAISE EXCEPTION 'overdraft on %: %', p_id, v_bal;
  END IF;
  RETURN v_bal;
END $$;

INSERT INTO account (id, balance) VALUES (1, 100.00), (2, 50.50), (3, 0.00), (4, 1000.00), (5, 7.25);
--- calls: aborts 300
SELECT id, balance, ops FROM account ORDER BY id;
SELECT sum(balance), sum(ops) FROM account;
