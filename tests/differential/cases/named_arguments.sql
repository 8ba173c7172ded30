-- Calls in named notation (a => 1, and the older a := 1), mixed with positional
-- arguments, with defaults filling what is not named; PostgreSQL's errors for a name used
-- twice, a positional argument after a named one, a name no parameter has, and a
-- parameter left without argument or default. Procedures take names too.
CREATE TABLE acct (id integer PRIMARY KEY, balance numeric(10,2) NOT NULL, memo text);
INSERT INTO acct VALUES (1, 100.00, NULL), (2, 50.00, NULL);

CREATE FUNCTION fee(amount numeric, rate numeric DEFAULT 0.01, minimum numeric DEFAULT 1) RETURNS numeric
LANGUAGE plpgsql AS $$
BEGIN
  RETURN greatest(round(amount * rate, 2), minimum);
END $$;

CREATE FUNCTION label(p_id integer, p_prefix text DEFAULT 'acct-', p_suffix text DEFAULT '') RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  RETURN p_prefix || p_id || p_suffix;
END $$;

CREATE PROCEDURE move(p_from integer, p_to integer, p_amount numeric, p_memo text DEFAULT 'transfer')
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET balance = balance - p_amount, memo = p_memo WHERE id = p_from;
  UPDATE acct SET balance = balance + p_amount, memo = p_memo WHERE id = p_to;
END $$;

SELECT fee(250);
SELECT fee(250, rate => 0.02);
SELECT fee(amount => 250, minimum => 10);
SELECT fee(minimum => 0, amount => 10, rate => 0.5);
SELECT fee(10, minimum := 3);
SELECT fee(amount => NULL);
SELECT fee(250, rate => NULL);
SELECT label(p_id => NULL, p_suffix => NULL);
SELECT label(7);
SELECT label(7, p_suffix => '!');
SELECT label(p_suffix => '?', p_id => 8);
SELECT * FROM label(p_id => 9, p_prefix => 'id:');
CALL move(1, 2, p_amount => 10);
CALL move(p_to => 1, p_from => 2, p_amount => 5, p_memo => 'back');
SELECT id, balance, memo FROM acct ORDER BY id;
SELECT fee(amount => 1, amount => 2);
SELECT fee(amount => 1, 2);
SELECT fee(1, nosuch => 2);
SELECT fee(1, amount => 2);
SELECT label(p_prefix => 'x');
CALL move(1, p_amount => 1);
