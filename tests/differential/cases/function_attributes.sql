-- Function attributes PostgreSQL honours: STRICT (and its spelling RETURNS NULL ON NULL
-- INPUT) means a call with a NULL argument does not run the body and returns NULL (a NULL
-- record for OUT parameters, no rows for SETOF), so its writes and NOTICEs do not happen;
-- CALLED ON NULL INPUT runs it. A procedure cannot be STRICT. PL/pgSQL type names are
-- case-insensitive: RECORD, Record and record declare the same thing.
CREATE TABLE counter (id integer PRIMARY KEY, hits integer NOT NULL DEFAULT 0, last text);
INSERT INTO counter (id) VALUES (1), (2), (3);

CREATE FUNCTION bump(p_id integer, p_note text) RETURNS integer LANGUAGE plpgsql STRICT AS $$
DECLARE v integer;
BEGIN
  RAISE NOTICE 'bump % %', p_id, p_note;
  UPDATE counter SET hits = hits + 1, last = p_note WHERE id = p_id RETURNING hits INTO v;
  RETURN v;
END $$;

CREATE FUNCTION bump_always(p_id integer, p_note text) RETURNS integer LANGUAGE plpgsql CALLED ON NULL INPUT AS $$
DECLARE v integer;
BEGIN
  UPDATE counter SET hits = hits + 10, last = coalesce(p_note, 'null') WHERE id = p_id RETURNING hits INTO v;
  RETURN coalesce(v, -1);
END $$;

CREATE FUNCTION pair(p integer, OUT a integer, OUT b text) LANGUAGE plpgsql RETURNS NULL ON NULL INPUT AS $$
BEGIN
  a := p * 2;
  b := 'n' || p;
END $$;

CREATE FUNCTION upto(p integer) RETURNS SETOF integer LANGUAGE plpgsql STRICT AS $$
BEGIN
  FOR i IN 1..p LOOP
    RETURN NEXT i;
  END LOOP;
END $$;

CREATE FUNCTION nothing(p integer) RETURNS void LANGUAGE plpgsql STRICT AS $$
BEGIN
  RAISE NOTICE 'nothing %', p;
END $$;

CREATE PROCEDURE strict_proc(p integer) LANGUAGE plpgsql STRICT AS $$ BEGIN NULL; END $$;

CREATE FUNCTION sum_upper() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  s integer := 0;
BEGIN
  FOR r IN SELECT id, hits FROM counter ORDER BY id LOOP
    s := s + r.id * 100 + r.hits;
  END LOOP;
  RETURN s;
END $$;

CREATE FUNCTION sum_mixed() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r Record;
  s integer := 0;
BEGIN
  FOR r IN SELECT id FROM counter WHERE hits > 0 ORDER BY id LOOP
    s := s + r.id;
  END LOOP;
  RETURN s;
END $$;

SELECT bump(1, 'a');
SELECT bump(1, NULL);
SELECT bump(NULL, 'x');
SELECT bump_always(2, NULL);
SELECT bump_always(NULL, 'y');
SELECT pair(4);
SELECT pair(NULL);
SELECT * FROM pair(5);
SELECT * FROM pair(NULL);
SELECT a FROM pair(NULL);
SELECT upto(3);
SELECT * FROM upto(NULL);
SELECT nothing(NULL);
SELECT nothing(7);
--- calls: function_attributes 200
SELECT sum_upper();
SELECT sum_mixed();
SELECT id, hits, last FROM counter ORDER BY id;
