-- Set-returning functions in the select list (PostgreSQL 10+'s ProjectSet: several of them
-- run in step, the shorter ones padded with NULLs; a row whose functions return nothing
-- is dropped), and where PostgreSQL refuses them.
CREATE TABLE basket_rows (id integer PRIMARY KEY, qty integer);
INSERT INTO basket_rows VALUES (1, 2), (2, 1), (3, 4), (4, 0);
SELECT generate_series(1, 3);
SELECT generate_series(1, 3) AS n, 'x' AS tag;
SELECT unnest(ARRAY['a', 'b']), generate_series(1, 3);
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT id, unnest(items) AS item FROM baskets ORDER BY id, item;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT id, generate_series(1, qty) AS k FROM baskets ORDER BY id, k;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT id, unnest(items), generate_series(1, qty) FROM baskets ORDER BY 1, 2, 3;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT count(*) FROM (SELECT unnest(items) FROM baskets) u;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT sum(q) FROM (SELECT generate_series(1, qty) AS q FROM baskets) s;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT qty, count(*), generate_series(1, 2) FROM baskets GROUP BY qty ORDER BY qty, 3;
SELECT generate_series(1, 5) % 2 AS parity ORDER BY 1;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT id FROM baskets WHERE unnest(items) > 10;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT sum(unnest(items)) FROM baskets;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT id, generate_series(1, 2, 0) FROM baskets;
WITH baskets AS (SELECT id, CASE id WHEN 1 THEN ARRAY[10, 20, 30] WHEN 2 THEN '{}'::integer[] WHEN 4 THEN ARRAY[40] END AS items, qty FROM basket_rows) SELECT * FROM baskets, unnest(items) WITH ORDINALITY AS u(item, pos) ORDER BY id, pos;
SELECT unnest(ARRAY[1, 2], ARRAY[3]);
-- A filter on a LATERAL function's own column runs per left row (it used to crash).
SELECT count(*) FROM basket_rows b, generate_series(1, b.qty) g WHERE g = 2;
SELECT b.id, g FROM basket_rows b CROSS JOIN LATERAL generate_series(1, b.qty) g WHERE g > 1 ORDER BY 1, 2;
