-- CREATE TABLE ... AS and SELECT ... INTO: a table of the query's columns (names, the
-- ones given, types as the query returns them), without a primary key, filled from the
-- query; WITH NO DATA; IF NOT EXISTS; a query that fails leaves no table.
CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL, price numeric(8,2), tag varchar(5));
INSERT INTO item VALUES (1, 'apple', 1.25, 'fr'), (2, 'bread', NULL, NULL), (3, 'cheese', 7.5, 'da'), (4, 'apple', 1.30, 'fr');
CREATE TABLE cheap AS SELECT id, name || '*' AS label, price, tag FROM item WHERE price < 5 OR price IS NULL;
SELECT * FROM cheap ORDER BY id;
CREATE TABLE names (n, how_many) AS SELECT name, count(*) FROM item GROUP BY name;
SELECT * FROM names ORDER BY n;
CREATE TABLE empty_copy AS SELECT * FROM item WITH NO DATA;
SELECT count(*) FROM empty_copy;
INSERT INTO empty_copy VALUES (5, 'egg', 0.2, 'x');
INSERT INTO empty_copy VALUES (5, 'egg', 0.2, 'x');
SELECT * FROM empty_copy;
CREATE TABLE IF NOT EXISTS names AS SELECT 1;
SELECT id * 10 AS x, rank() OVER (ORDER BY price DESC NULLS LAST) AS r INTO ranked FROM item;
SELECT * FROM ranked ORDER BY x;
CREATE TABLE lits AS SELECT 1 AS one, 'two' AS two, 2.5::numeric(4,1) AS three, true AS four, DATE '2026-01-02' AS five;
SELECT * FROM lits;
UPDATE cheap SET price = 0 WHERE price IS NULL;
DELETE FROM cheap WHERE id = 4;
SELECT * FROM cheap ORDER BY id;
-- Errors.
CREATE TABLE bad AS SELECT 1 / (id - 2) FROM item;
SELECT * FROM bad;
CREATE TABLE bad (a, b, c) AS SELECT 1, 2;
CREATE TABLE bad AS SELECT id, id FROM item;
CREATE TABLE cheap AS SELECT 1;
CREATE TABLE bad AS SELECT * FROM nosuch;
