-- EXCEPTION blocks: a block's writes are undone when its handler runs, writes before the
-- block stay, variables keep what the block assigned; conditions by name, by class, by
-- SQLSTATE and OTHERS; SQLSTATE / SQLERRM, GET STACKED DIAGNOSTICS, RAISE; to re-raise;
-- nested blocks, blocks in loops, RETURN and EXIT out of blocks; errors a handler does not
-- catch (and errors in a handler) abort the whole call.
CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL CHECK (n <= 50));
CREATE TABLE ledger (id integer PRIMARY KEY, amount numeric(10,2) NOT NULL);
CREATE TABLE audit (id integer PRIMARY KEY, what text NOT NULL);
CREATE TABLE stats (id integer PRIMARY KEY, calls integer NOT NULL);

-- The upsert idiom: insert, and on a duplicate key add to the row instead. A CHECK
-- failure in either is caught by the function's own block, undoing both.
CREATE FUNCTION bump(k integer, d integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    INSERT INTO counter VALUES (k, d);
    RETURN 'new';
  EXCEPTION WHEN unique_violation THEN
    UPDATE counter SET n = n + d WHERE id = k;
    RETURN 'added';
  END;
EXCEPTION WHEN check_violation THEN
  RETURN 'capped: ' || SQLERRM;
END $$;

-- A write before the block stays; the block's are undone, and a read after it sees the
-- row as it was before the block.
CREATE FUNCTION pay(p_from integer, p_to integer, p_amount numeric) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_bal numeric;
  v_step text := 'start';
BEGIN
  UPDATE stats SET calls = calls + 1 WHERE id = 1;
  BEGIN
    v_step := 'debit';
    UPDATE ledger SET amount = amount - p_amount WHERE id = p_from RETURNING amount INTO v_bal;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no account %', p_from USING ERRCODE = 'no_data_found';
    END IF;
    IF v_bal < 0 THEN
      RAISE EXCEPTION 'overdraft on %', p_from USING DETAIL = 'balance would be ' || v_bal, HINT = 'pay less';
    END IF;
    v_step := 'credit';
    UPDATE ledger SET amount = amount + p_amount WHERE id = p_to;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no account %', p_to USING ERRCODE = 'P0002';
    END IF;
    v_step := 'done';
  EXCEPTION
    WHEN no_data_found THEN
      RAISE NOTICE 'step % failed: %', v_step, SQLERRM;
    WHEN raise_exception THEN
      DECLARE
        d text;
        h text;
        c text;
      BEGIN
        GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT, c = PG_EXCEPTION_CONTEXT;
        RAISE NOTICE 'refused at %: % (%; %) [%]', v_step, SQLERRM, d, h, c;
      END;
  END;
  SELECT amount INTO v_bal FROM ledger WHERE id = p_from;
  RETURN v_step || ' ' || coalesce(v_bal::text, 'none');
END $$;

-- Nested blocks: the inner handler re-raises with RAISE;, the outer one catches the
-- class (division_by_zero is a data_exception); a duplicate key is caught by neither.
CREATE FUNCTION ratio(k integer, d integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r integer;
BEGIN
  BEGIN
    BEGIN
      INSERT INTO audit VALUES (k, 'ratio ' || d);
      r := 100 / d;
    EXCEPTION WHEN division_by_zero THEN
      RAISE NOTICE 'inner: %', SQLERRM;
      RAISE;
    END;
  EXCEPTION WHEN data_exception THEN
    RAISE NOTICE 'outer: % %', SQLSTATE, SQLERRM;
    r := -1;
  END;
  RETURN r;
END $$;

-- A block per loop iteration: each failed insert is undone alone.
CREATE FUNCTION fill(k0 integer, cnt integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  ok integer := 0;
BEGIN
  FOR i IN k0 .. k0 + cnt - 1 LOOP
    BEGIN
      INSERT INTO audit VALUES (i, 'fill');
      ok := ok + 1;
    EXCEPTION WHEN unique_violation THEN
      UPDATE audit SET what = what || '+' WHERE id = i;
    END;
  END LOOP;
  RETURN ok;
END $$;

-- A handler that raises fails the call (the write before the block goes too); OTHERS
-- and SQLSTATE 'xxxxx' conditions.
CREATE FUNCTION take(k integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  w text;
BEGIN
  UPDATE stats SET calls = calls + 1 WHERE id = 2;
  BEGIN
    SELECT what INTO STRICT w FROM audit WHERE id = k;
    DELETE FROM audit WHERE id = k;
    IF length(w) > 8 THEN
      PERFORM 1 / 0;
    END IF;
  EXCEPTION
    WHEN no_data_found THEN
      RAISE EXCEPTION 'nothing at %', k USING HINT = 'fill it first';
    WHEN SQLSTATE '22012' THEN
      RETURN 'too long: ' || w;
    WHEN OTHERS THEN
      RETURN 'other: ' || SQLSTATE;
  END;
  RETURN w;
END $$;

-- EXIT out of a block in a loop: the first key that is free.
CREATE FUNCTION first_free(k0 integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  at integer;
BEGIN
  FOR i IN k0 .. k0 + 5 LOOP
    BEGIN
      INSERT INTO audit VALUES (i, 'first_free');
      at := i;
      EXIT;
    EXCEPTION WHEN unique_violation OR not_null_violation THEN
      NULL;
    END;
  END LOOP;
  RETURN at;
END $$;

INSERT INTO ledger VALUES (1, 100.00), (2, 50.50), (3, 0.00), (4, 1000.00), (5, 7.25), (6, 20.00);
INSERT INTO stats VALUES (1, 0), (2, 0);
INSERT INTO audit VALUES (120, 'a long entry here'), (121, 'short');
--- calls: exception_blocks 300
SELECT * FROM counter ORDER BY id;
SELECT * FROM ledger ORDER BY id;
SELECT * FROM audit ORDER BY id;
SELECT * FROM stats ORDER BY id;

-- An error in a block's declarations is not its handlers' to catch.
CREATE FUNCTION init_error(d integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  DECLARE
    q integer := 10 / d;
  BEGIN
    RETURN 'q=' || q;
  EXCEPTION WHEN division_by_zero THEN
    RETURN 'caught';
  END;
END $$;
SELECT init_error(2);
SELECT init_error(0);

-- RAISE; and GET STACKED DIAGNOSTICS outside a handler fail when they run.
CREATE FUNCTION bare_raise(x integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  m text;
BEGIN
  IF x = 1 THEN
    RAISE;
  END IF;
  IF x = 2 THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT;
  END IF;
  RETURN x;
END $$;
SELECT bare_raise(0);
SELECT bare_raise(1);
SELECT bare_raise(2);

-- An unknown condition is refused when the function is created.
CREATE FUNCTION bad_condition() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN 1;
EXCEPTION WHEN no_such_condition THEN
  RETURN 0;
END $$;

-- DO blocks, and an error no handler matches.
DO $$
BEGIN
  INSERT INTO audit VALUES (1000, 'do');
  BEGIN
    INSERT INTO audit VALUES (1000, 'again');
  EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'do block caught % (%)', SQLSTATE, SQLERRM;
  END;
END $$;
DO $$
BEGIN
  INSERT INTO audit VALUES (1001, 'do');
  BEGIN
    INSERT INTO audit VALUES (1001, 'again');
  EXCEPTION WHEN check_violation THEN
    RAISE NOTICE 'not reached';
  END;
END $$;
SELECT * FROM audit WHERE id >= 1000 ORDER BY id;
