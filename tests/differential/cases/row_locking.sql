-- SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t] [NOWAIT | SKIP LOCKED],
-- ad hoc and in procedures, as PostgreSQL code locks the rows it is about to change. The
-- rows are those of the query without the clause (a transaction here runs alone at its
-- serial position: nothing else holds a lock). PostgreSQL's errors for clauses it
-- refuses to combine with locking, and for OF naming a relation not in FROM.
CREATE TABLE stock (id integer PRIMARY KEY, qty integer NOT NULL, ytd integer NOT NULL DEFAULT 0);
INSERT INTO stock (id, qty) VALUES (1, 10), (2, 20), (3, 30), (4, 5);

CREATE FUNCTION take(p_id integer, p_n integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_qty integer;
BEGIN
  SELECT qty INTO v_qty FROM stock WHERE id = p_id FOR UPDATE;
  IF v_qty < p_n THEN
    v_qty := v_qty + 91;
  END IF;
  UPDATE stock SET qty = v_qty - p_n, ytd = ytd + p_n WHERE id = p_id;
  RETURN v_qty - p_n;
END $$;

CREATE FUNCTION restock(p_below integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  r record;
  n integer := 0;
BEGIN
  FOR r IN SELECT id, qty FROM stock WHERE id BETWEEN 1 AND 4 ORDER BY id FOR NO KEY UPDATE OF stock LOOP
    IF r.qty < p_below THEN
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END $$;

SELECT id, qty FROM stock WHERE id = 2 FOR UPDATE;
SELECT id, qty FROM stock ORDER BY id FOR SHARE;
SELECT s.id FROM stock s WHERE s.qty > 10 ORDER BY s.id FOR KEY SHARE OF s NOWAIT;
SELECT id FROM stock ORDER BY id LIMIT 2 FOR UPDATE SKIP LOCKED;
SELECT id FROM stock WHERE id = 99 FOR UPDATE;
SELECT take(99, 1);
SELECT take(NULL, 1);
SELECT take(1, 3);
SELECT take(4, 7);
--- calls: row_locking 200
SELECT restock(15);
SELECT id, qty, ytd FROM stock ORDER BY id;
SELECT DISTINCT qty FROM stock FOR UPDATE;
SELECT qty, count(*) FROM stock GROUP BY qty FOR UPDATE;
SELECT count(*) FROM stock FOR SHARE;
SELECT 1 FROM stock HAVING count(*) > 0 FOR KEY SHARE;
SELECT id FROM stock FOR UPDATE OF nosuch;
SELECT id FROM stock s FOR UPDATE OF stock;
SELECT id FROM stock FOR UPDATE OF public.stock;
