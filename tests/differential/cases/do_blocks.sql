-- DO blocks, as setup scripts and migrations use them: each runs once as one transaction
-- (its writes all or nothing), with PL/pgSQL's control flow, NOTICEs, errors with
-- PostgreSQL's CONTEXT ("PL/pgSQL function inline_code_block line N at ..."), the
-- explicit LANGUAGE clause, and PostgreSQL's errors for a language that cannot run inline.
CREATE TABLE item (id integer PRIMARY KEY, qty integer NOT NULL, note text);

DO $$
BEGIN
  FOR i IN 1..5 LOOP
    INSERT INTO item VALUES (i, i * 10, NULL);
  END LOOP;
  RAISE NOTICE 'loaded % rows', 5;
END $$;

DO LANGUAGE plpgsql $$
DECLARE
  v integer;
BEGIN
  SELECT qty INTO v FROM item WHERE id = 3;
  UPDATE item SET qty = qty + v, note = 'doubled' WHERE id = 3;
END $$;

DO $body$ BEGIN UPDATE item SET note = 'one-liner' WHERE id = 1; END $body$;

-- An error after a write: nothing of the block stays.
DO $$
DECLARE
  v integer;
BEGIN
  UPDATE item SET qty = 0 WHERE id = 2 RETURNING qty INTO v;
  RAISE EXCEPTION 'stop after writing: qty is now %', v;
END $$;

DO $$
DECLARE
  r record;
  total integer := 0;
BEGIN
  FOR r IN SELECT id, qty FROM item ORDER BY id LOOP
    total := total + r.qty;
  END LOOP;
  RAISE NOTICE 'total %', total;
END $$;

DO $$ BEGIN RAISE NOTICE 'nothing to write'; END $$;
DO $$ BEGIN END $$;
DO $$ DECLARE v integer; BEGIN SELECT qty INTO v FROM item WHERE id = 99; RAISE NOTICE 'v is %, found %', v, FOUND; END $$;
DO $$ BEGIN INSERT INTO item VALUES (1, 1, 'duplicate'); END $$;
DO LANGUAGE sql $$ SELECT 1 $$;
DO LANGUAGE nosuchlang $$ SELECT 1 $$;
SELECT id, qty, note FROM item ORDER BY id;
