-- PL/pgSQL cursors: bound (with arguments, positional and named) and unbound (OPEN ...
-- FOR), every FETCH / MOVE direction with FOUND and ROW_COUNT, FOR over a cursor, the
-- snapshot of OPEN (a write after it does not show in the rows), SCROLL / NO SCROLL,
-- the errors PL/pgSQL raises at run time, and writes driven by a cursor's rows.
CREATE TABLE stock (id integer PRIMARY KEY, grp integer NOT NULL, qty integer NOT NULL, note text);
CREATE TABLE moves (id integer PRIMARY KEY, qty integer NOT NULL);

-- Every direction, over the rows of one group.
CREATE FUNCTION walk(p_grp integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c SCROLL CURSOR (g integer) FOR SELECT id, qty FROM stock WHERE grp = g ORDER BY id;
  k integer; q integer; n bigint;
  res text := '';
BEGIN
  OPEN c(p_grp);
  FETCH c INTO k, q;
  res := res || 'first=' || coalesce(k::text, '-') || ' found=' || FOUND;
  FETCH LAST FROM c INTO k;
  res := res || ' last=' || coalesce(k::text, '-');
  FETCH NEXT FROM c INTO k;
  GET DIAGNOSTICS n = ROW_COUNT;
  res := res || ' past=' || coalesce(k::text, '-') || '/' || n || '/' || FOUND;
  FETCH PRIOR FROM c INTO k;
  res := res || ' prior=' || coalesce(k::text, '-');
  FETCH ABSOLUTE 2 FROM c INTO k;
  res := res || ' abs2=' || coalesce(k::text, '-');
  FETCH ABSOLUTE -2 IN c INTO k;
  res := res || ' abs-2=' || coalesce(k::text, '-');
  FETCH RELATIVE 0 FROM c INTO k;
  res := res || ' rel0=' || coalesce(k::text, '-');
  FETCH RELATIVE 5 FROM c INTO k;
  res := res || ' rel5=' || coalesce(k::text, '-') || '/' || FOUND;
  FETCH FIRST FROM c INTO k;
  res := res || ' first=' || coalesce(k::text, '-');
  MOVE FORWARD 2 FROM c;
  GET DIAGNOSTICS n = ROW_COUNT;
  res := res || ' fwd2=' || n || '/' || FOUND;
  MOVE FORWARD ALL FROM c;
  GET DIAGNOSTICS n = ROW_COUNT;
  res := res || ' all=' || n;
  MOVE BACKWARD 1 FROM c;
  FETCH c INTO k;
  res := res || ' after=' || coalesce(k::text, '-');
  MOVE BACKWARD ALL FROM c;
  GET DIAGNOSTICS n = ROW_COUNT;
  res := res || ' back=' || n || '/' || FOUND;
  MOVE NEXT FROM c;
  MOVE RELATIVE -1 FROM c;
  res := res || ' rel-1=' || FOUND;
  MOVE 3 FROM c;
  GET DIAGNOSTICS n = ROW_COUNT;
  res := res || ' three=' || n;
  MOVE FORWARD -1 FROM c;
  FETCH RELATIVE 0 FROM c INTO k;
  res := res || ' minus1=' || coalesce(k::text, '-');
  CLOSE c;
  RETURN res;
END $$;

-- Named arguments, a record target, a %ROWTYPE target, a cursor reopened.
CREATE FUNCTION pick(p_lo integer, p_hi integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c CURSOR (lo integer, hi integer) IS SELECT * FROM stock WHERE id BETWEEN lo AND hi ORDER BY qty DESC, id;
  r record;
  s stock%ROWTYPE;
  res text := '';
BEGIN
  OPEN c(hi := p_hi, lo := p_lo);
  FETCH c INTO r;
  IF NOT FOUND THEN
    CLOSE c;
    RETURN 'none';
  END IF;
  res := r.id || ':' || r.qty || ':' || coalesce(r.note, 'null');
  CLOSE c;
  OPEN c(p_lo + 1, hi := p_hi);
  FETCH c INTO s;
  res := res || ' then ' || coalesce(s.id::text, '-') || ':' || coalesce(s.grp::text, '-');
  CLOSE c;
  RETURN res;
END $$;

-- An unbound cursor opened for two different queries in turn.
CREATE FUNCTION two_queries(p_grp integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  u refcursor;
  a integer; b text;
  res text := '';
BEGIN
  OPEN u FOR SELECT count(*)::integer FROM stock WHERE grp = p_grp;
  FETCH u INTO a;
  CLOSE u;
  OPEN u NO SCROLL FOR SELECT note, id FROM stock WHERE grp = p_grp AND note IS NOT NULL ORDER BY id DESC;
  FETCH u INTO b, a;
  res := a || ' ' || coalesce(b, '-') || ' ' || coalesce(a::text, '-');
  LOOP
    FETCH u INTO b;
    EXIT WHEN NOT FOUND;
    res := res || ',' || b;
  END LOOP;
  CLOSE u;
  RETURN res;
END $$;

-- FOR over a cursor drives writes; the cursor's rows are those of its OPEN, not of the
-- updates the loop makes.
CREATE FUNCTION drain(p_grp integer, p_take integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c CURSOR (g integer) FOR SELECT id, qty FROM stock WHERE grp = g ORDER BY id;
  moved integer := 0;
BEGIN
  <<rows>>
  FOR r IN c(p_grp) LOOP
    CONTINUE rows WHEN r.qty < p_take;
    UPDATE stock SET qty = qty - p_take, note = 'drained' WHERE id = r.id;
    INSERT INTO moves VALUES (r.id, p_take) ON CONFLICT (id) DO UPDATE SET qty = moves.qty + EXCLUDED.qty;
    moved := moved + 1;
    EXIT WHEN moved >= 2;
  END LOOP rows;
  -- The loop closed the cursor: it can be opened again.
  OPEN c(p_grp);
  CLOSE c;
  RETURN moved;
END $$;

CREATE FUNCTION restock(p_id integer, p_qty integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock VALUES (p_id, p_id % 3, p_qty, NULL)
    ON CONFLICT (id) DO UPDATE SET qty = stock.qty + EXCLUDED.qty, note = 'restocked';
END $$;

-- A snapshot taken at OPEN: the delete after it does not change the rows fetched.
CREATE FUNCTION snapshot(p_grp integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c CURSOR FOR SELECT id FROM stock WHERE grp = p_grp ORDER BY id;
  k integer;
  res text := '';
BEGIN
  OPEN c;
  DELETE FROM moves WHERE id IN (SELECT id FROM stock WHERE grp = p_grp);
  UPDATE stock SET note = 'seen' WHERE grp = p_grp;
  LOOP
    FETCH c INTO k;
    EXIT WHEN NOT FOUND;
    res := res || k || ' ';
  END LOOP;
  CLOSE c;
  RETURN res;
END $$;

-- A cursor declared inside a FOR over another cursor, opened on each outer row.
CREATE FUNCTION nested(p_grp integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  outer_c CURSOR FOR SELECT id FROM stock WHERE grp = p_grp ORDER BY id LIMIT 3;
  res text := '';
BEGIN
  FOR o IN outer_c LOOP
    DECLARE
      inner_c CURSOR (k integer) FOR SELECT count(*)::integer AS n FROM stock WHERE id > k;
      n integer;
    BEGIN
      OPEN inner_c(o.id);
      FETCH inner_c INTO n;
      CLOSE inner_c;
      res := res || o.id || '>' || n || ' ';
    END;
  END LOOP;
  RETURN res;
END $$;

-- The run-time errors, caught and reported.
CREATE FUNCTION misuse(p_case integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c CURSOR FOR SELECT id FROM stock ORDER BY id;
  f NO SCROLL CURSOR FOR SELECT id FROM stock ORDER BY id;
  u refcursor;
  named refcursor := 'mine';
  k integer;
  pos integer;
BEGIN
  BEGIN
    IF p_case = 1 THEN
      FETCH c INTO k;
    ELSIF p_case = 2 THEN
      OPEN c;
      OPEN c;
    ELSIF p_case = 3 THEN
      FETCH u INTO k;
    ELSIF p_case = 4 THEN
      OPEN c;
      FETCH ABSOLUTE pos FROM c INTO k;
    ELSIF p_case = 5 THEN
      OPEN f;
      FETCH f INTO k;
      FETCH PRIOR FROM f INTO k;
    ELSIF p_case = 6 THEN
      CLOSE c;
    ELSE
      OPEN named FOR SELECT 1;
      CLOSE named;
      CLOSE named;
    END IF;
    RETURN 'no error';
  EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
  END;
END $$;

INSERT INTO stock VALUES
  (1, 1, 3, NULL), (2, 2, 9, 'b'), (3, 0, 4, NULL), (4, 1, 12, 'd'), (5, 2, 1, NULL),
  (6, 0, 7, 'f'), (7, 1, 2, NULL), (8, 2, 15, 'h'), (9, 0, 6, NULL), (10, 1, 0, 'j'),
  (11, 2, 8, NULL), (12, 0, 3, 'l');
SELECT walk(1);
SELECT walk(2);
SELECT walk(7);
SELECT pick(2, 6), pick(6, 6), pick(20, 30);
SELECT two_queries(0), two_queries(2), two_queries(9);
SELECT nested(0), nested(1), nested(5);
SELECT misuse(1);
SELECT misuse(2);
SELECT misuse(3);
SELECT misuse(4);
SELECT misuse(5);
SELECT misuse(6);
SELECT misuse(7);
--- calls: cursors 300
SELECT id, grp, qty, note FROM stock ORDER BY id;
SELECT id, qty FROM moves ORDER BY id;
SELECT snapshot(1);
SELECT id, note FROM stock WHERE grp = 1 ORDER BY id;
-- An error in a function's cursor statement names it in CONTEXT.
CREATE FUNCTION stuck() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c CURSOR FOR SELECT id FROM stock;
  k integer;
BEGIN
  FETCH c INTO k;
  RETURN k;
END $$;
SELECT stuck();
