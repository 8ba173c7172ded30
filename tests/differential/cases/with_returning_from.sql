-- A data-modifying WITH whose RETURNING names the columns of the other FROM / USING
-- items (the shape of HammerDB's NEWORD stock update: UPDATE ... FROM UNNEST(arrays)
-- RETURNING target and array columns, then aggregated): ad hoc and in a function,
-- with expressions over both, the same FROM column twice, rows of the FROM item that
-- join no row, and DELETE ... USING.
CREATE TABLE stock (item integer, w integer, qty integer NOT NULL, dist char(8) NOT NULL, PRIMARY KEY (item, w));
INSERT INTO stock SELECT i, w, 50, 'd' || i || '-' || w FROM generate_series(1, 12) i, generate_series(1, 2) w;

CREATE FUNCTION take(p_items integer[], p_ws integer[], p_qs integer[], p_price numeric) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  left_qty bigint;
  total numeric;
  first_dist char(8);
BEGIN
  WITH taken AS (
    UPDATE stock
    SET qty = (CASE WHEN qty < s.q + 10 THEN qty + 91 ELSE qty END) - s.q
    FROM unnest(p_items, p_ws, p_qs) AS s (item, w, q)
    WHERE stock.item = s.item AND stock.w = s.w
    RETURNING stock.dist AS dist, stock.qty, s.q * p_price AS amount, s.q AS q
  )
  SELECT count(*), sum(qty), sum(amount), min(dist)
  INTO n, left_qty, total, first_dist
  FROM taken;
  RETURN n || ' / ' || coalesce(left_qty::text, '-') || ' / ' || coalesce(total::text, '-') || ' / '
         || coalesce(first_dist, '-');
END $$;

--- calls: with_returning_from 60
WITH u AS (UPDATE stock SET qty = qty - v.q FROM (VALUES (1, 1, 3), (2, 2, 4), (99, 1, 5)) AS v (item, w, q)
           WHERE stock.item = v.item AND stock.w = v.w
           RETURNING stock.item, v.q, v.q * 2 AS twice, stock.qty + v.q AS before)
SELECT * FROM u ORDER BY item;
WITH d AS (DELETE FROM stock USING (VALUES (12, 2, 'gone')) AS g (item, w, why)
           WHERE stock.item = g.item AND stock.w = g.w RETURNING stock.dist, g.why)
SELECT * FROM d;
SELECT item, w, qty, dist FROM stock ORDER BY item, w;
