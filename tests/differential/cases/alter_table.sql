-- ALTER TABLE of what keeps the rows' layout: column defaults, NOT NULL, CHECK and UNIQUE
-- constraints added (the table's rows checked first) and dropped; procedures created
-- before see the change.
CREATE TABLE acct (id integer PRIMARY KEY, owner text, bal integer, kind text);
INSERT INTO acct VALUES (1, 'ann', 10, NULL), (2, NULL, -5, 'x');
CREATE FUNCTION open_acct(p integer, p_owner text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct (id, owner) VALUES (p, p_owner);
  RETURN (SELECT coalesce(kind, '-') || ' ' || coalesce(bal::text, 'null') FROM acct WHERE id = p);
EXCEPTION WHEN not_null_violation OR unique_violation OR check_violation THEN
  RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
CREATE FUNCTION spend(p integer, p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  left_over integer;
BEGIN
  UPDATE acct SET bal = bal - p_amount WHERE id = p RETURNING bal INTO left_over;
  RETURN left_over;
END $$;
SELECT open_acct(3, 'cy');
ALTER TABLE acct ALTER COLUMN bal SET DEFAULT 0, ALTER COLUMN kind SET DEFAULT 'std';
SELECT open_acct(4, NULL);
ALTER TABLE acct ALTER COLUMN owner SET NOT NULL;
UPDATE acct SET owner = 'bob' WHERE id = 2;
UPDATE acct SET owner = 'di' WHERE id = 4;
ALTER TABLE acct ALTER COLUMN owner SET NOT NULL;
SELECT open_acct(5, NULL);
ALTER TABLE acct ADD CONSTRAINT positive CHECK (bal >= 0);
UPDATE acct SET bal = 0 WHERE bal < 0 OR bal IS NULL;
ALTER TABLE acct ADD CONSTRAINT positive CHECK (bal >= 0), ADD CHECK (bal < 1000);
ALTER TABLE acct ADD UNIQUE (owner);
ALTER TABLE acct ALTER COLUMN kind DROP DEFAULT;
--- calls: alter_table 120
SELECT * FROM acct ORDER BY id;
DROP INDEX acct_owner_key;
ALTER TABLE acct DROP CONSTRAINT acct_owner_key, DROP CONSTRAINT acct_bal_check;
ALTER TABLE acct DROP CONSTRAINT nosuch;
ALTER TABLE acct DROP CONSTRAINT IF EXISTS nosuch;
ALTER TABLE acct ALTER COLUMN id DROP NOT NULL;
ALTER TABLE acct ALTER COLUMN owner DROP NOT NULL;
ALTER TABLE acct ALTER COLUMN nosuch SET DEFAULT 1;
ALTER TABLE nosuch ALTER COLUMN a SET DEFAULT 1;
ALTER TABLE IF EXISTS nosuch ALTER COLUMN a SET DEFAULT 1;
SELECT open_acct(50, 'ann');
SELECT open_acct(51, NULL);
SELECT spend(1, 5000);
SELECT * FROM acct ORDER BY id;
