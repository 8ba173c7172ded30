-- SQL PREPARE / EXECUTE / DEALLOCATE (HammerDB's functions variant calls its routines
-- this way): declared and undeclared parameter types, statements executed many times
-- (INSERT, SELECT, UPDATE, a user function, a SETOF record function with a column
-- definition list), arguments that are expressions, quotes and NULL, and the errors: an
-- unknown statement, the wrong number of arguments, an argument of the wrong type, a
-- name taken, DEALLOCATE of an unknown name.
CREATE TABLE acct (id integer PRIMARY KEY, owner text NOT NULL, bal numeric(10,2) NOT NULL);
CREATE FUNCTION deposit(p_id integer, p_amt numeric) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v numeric;
BEGIN
  UPDATE acct SET bal = bal + p_amt WHERE id = p_id RETURNING bal INTO v;
  RETURN v;
END $$;
CREATE FUNCTION rich(p_min numeric) RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT id, bal FROM acct WHERE bal >= p_min ORDER BY id;
END $$;
PREPARE ins (integer, text, numeric) AS INSERT INTO acct VALUES ($1, $2, $3);
EXECUTE ins(1, 'ann', 10);
EXECUTE ins(2, 'bob', 2.5 * 2);
EXECUTE ins(3, 'o''neil', 0);
PREPARE dep (integer, numeric) AS SELECT deposit($1, $2);
PREPARE get AS SELECT id, owner, bal FROM acct WHERE id = $1;
PREPARE upd (numeric) AS UPDATE acct SET bal = bal * $1 WHERE bal > 0;
PREPARE top (numeric) AS SELECT * FROM rich($1) AS (id integer, bal numeric);

--- calls: prepare_execute 40
EXECUTE get(1);
EXECUTE get('2');
EXECUTE upd(2);
EXECUTE get(NULL);
EXECUTE top(20);
SELECT * FROM acct ORDER BY id;
EXECUTE nosuch(1);
EXECUTE get(1, 2);
EXECUTE ins(1, 'dup', 1);
PREPARE get AS SELECT 1;
EXECUTE ins('x', 'y', 1);
DEALLOCATE get;
EXECUTE get(1);
DEALLOCATE get;
DEALLOCATE ALL;
EXECUTE dep(1, 1);
