-- Why the analysis falls back: reads it cannot prefetch, updates it will not split,
-- branches it cannot decide ahead of time.
CREATE TABLE item (id integer PRIMARY KEY, qty integer NOT NULL, note text);
CREATE TABLE audit (id integer PRIMARY KEY, msg text);
INSERT INTO item VALUES (1, 10, NULL), (2, 0, NULL), (3, 5, 'x');

-- 16. RETURNING ... INTO: an ApplyRowUpdate candidate all the same (the callback assigns
--     v_left from the new row, and the body waits for it)
CREATE FUNCTION take(p_id integer, p_n integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_left integer;
BEGIN
  UPDATE item SET qty = qty - p_n WHERE id = p_id RETURNING qty INTO v_left;
  RETURN v_left;
END $$;
EXPLAIN PROCEDURE take;

-- 17. the new value depends on a read; the table is written again later
CREATE FUNCTION copy_qty(p_from integer, p_to integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_q integer;
BEGIN
  SELECT qty INTO v_q FROM item WHERE id = p_from;
  UPDATE item SET qty = v_q WHERE id = p_to;
  UPDATE item SET note = 'copied' WHERE id = p_to;
END $$;
EXPLAIN PROCEDURE copy_qty;

-- 18. a branch decided by FOUND: both branches' writes are declared, the unused one
--     becomes an ignore marker
CREATE FUNCTION restock(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM item WHERE id = p_id AND qty = 0;
  IF FOUND THEN
    UPDATE item SET qty = 100 WHERE id = p_id;
    RETURN 'restocked';
  ELSE
    INSERT INTO audit VALUES (p_id, 'not empty') ON CONFLICT (id) DO UPDATE SET msg = audit.msg || '!';
    RETURN 'skipped';
  END IF;
END $$;
EXPLAIN PROCEDURE restock;

-- 19. a read whose key depends on an earlier read is not prefetched
CREATE FUNCTION chase(p_id integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_next integer;
  v_note text;
BEGIN
  SELECT qty INTO v_next FROM item WHERE id = p_id;
  SELECT note INTO v_note FROM item WHERE id = v_next;
  RETURN v_note;
END $$;
EXPLAIN PROCEDURE chase;

SELECT take(1, 3);
SELECT restock(2);
SELECT copy_qty(1, 2);
SELECT restock(3);
SELECT restock(3);
SELECT chase(3);
SELECT * FROM item ORDER BY id;
SELECT * FROM audit ORDER BY id;
