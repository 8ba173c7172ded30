-- FOR over a query (a target list or a record): writes keyed by the rows read (found by
-- reconnaissance, re-checked at execution) while inserts and deletes change the rows
-- the loops scan.
CREATE TABLE items (id integer PRIMARY KEY, grp integer NOT NULL, qty integer NOT NULL, tag text);
CREATE TABLE graveyard (id integer PRIMARY KEY, qty integer NOT NULL, burials integer NOT NULL);

-- Every item of a group (a full scan with a filter), topped up.
CREATE FUNCTION restock(p_grp integer, p_add integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  n integer := 0;
BEGIN
  FOR r IN SELECT id, qty FROM items WHERE grp = p_grp ORDER BY id LOOP
    UPDATE items SET qty = r.qty + p_add, tag = 'restocked' WHERE id = r.id;
    n := n + 1;
  END LOOP;
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  RETURN n;
END $$;

-- A key range, newest first: items running low move to the graveyard; stops after two.
CREATE FUNCTION sweep(p_lo integer) RETURNS TABLE (moved integer, qty integer) LANGUAGE plpgsql AS $$
DECLARE
  k integer;
  q integer;
  n integer := 0;
BEGIN
  <<scan>>
  FOR k, q IN SELECT id, items.qty FROM items WHERE id >= p_lo AND id < p_lo + 4 ORDER BY id DESC LOOP
    CONTINUE scan WHEN q >= 5;
    DELETE FROM items WHERE id = k;
    INSERT INTO graveyard VALUES (k, q, 1)
      ON CONFLICT (id) DO UPDATE SET qty = graveyard.qty + EXCLUDED.qty, burials = graveyard.burials + 1;
    moved := k; sweep.qty := q; RETURN NEXT;
    n := n + 1;
    EXIT WHEN n >= 2;
  END LOOP;
END $$;

CREATE FUNCTION add_item(p_id integer, p_grp integer, p_qty integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO items VALUES (p_id, p_grp, p_qty, 'new') ON CONFLICT DO NOTHING;
  RETURN FOUND;
END $$;

-- Takes from every item of a group; aborts (nothing kept) when one would go negative.
CREATE FUNCTION take(p_grp integer, p_n integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  r record;
  total bigint := 0;
BEGIN
  FOR r IN SELECT id, qty, grp * 0 + p_n AS want FROM items WHERE grp = p_grp LOOP
    IF r.qty < r.want THEN
      RAISE EXCEPTION 'item % has only % left', r.id, r.qty;
    END IF;
    UPDATE items SET qty = qty - r.want WHERE id = r.id;
    total := total + r.want;
  END LOOP;
  RETURN total;
END $$;

INSERT INTO items VALUES
  (1, 1, 3, NULL), (2, 2, 9, NULL), (3, 0, 4, NULL), (4, 1, 12, NULL), (5, 2, 1, NULL),
  (6, 0, 7, NULL), (7, 1, 2, NULL), (8, 2, 15, NULL), (9, 0, 6, NULL), (10, 1, 0, NULL),
  (11, 2, 8, NULL), (12, 0, 3, NULL), (13, 1, 5, NULL), (14, 2, 2, NULL), (15, 0, 11, NULL);
SELECT * FROM sweep(1);
SELECT restock(3, 1);
--- calls: for_query 300
SELECT id, grp, qty, tag FROM items ORDER BY id;
SELECT id, qty, burials FROM graveyard ORDER BY id;
-- A decision on a value computed from a read (y below): the init program must not
-- decide it from a variable it never assigns (it declared no delete, and the call failed
-- with "not declared in its write set").
CREATE FUNCTION drop_if_big(p integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  x integer;
  y integer;
BEGIN
  SELECT qty INTO x FROM items WHERE id = p;
  y := x + 1;
  IF y > 5 THEN
    DELETE FROM graveyard WHERE id = x;
  END IF;
  RETURN y;
END $$;
INSERT INTO graveyard VALUES (40, 0, 0), (41, 0, 0);
UPDATE items SET qty = 40 WHERE id = 2;
SELECT drop_if_big(2);
SELECT drop_if_big(2);
SELECT id, qty, burials FROM graveyard WHERE id >= 40 ORDER BY id;
