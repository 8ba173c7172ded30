CREATE TABLE t1 (a integer PRIMARY KEY, b integer, c text);
CREATE TABLE t2 (x integer PRIMARY KEY, y integer, z text);
CREATE TABLE empty (k integer PRIMARY KEY, v integer);
INSERT INTO t1 VALUES (1, NULL, 'one'), (2, 2, NULL), (3, 3, 'three'), (4, NULL, NULL), (5, 5, 'five');
INSERT INTO t2 VALUES (1, 1, 'uno'), (2, NULL, 'dos'), (3, 3, NULL), (6, 6, 'seis');
SELECT * FROM t1 JOIN t2 ON t1.b = t2.y ORDER BY a;
SELECT * FROM t1 LEFT JOIN t2 ON t1.b = t2.y ORDER BY a, x;
SELECT * FROM t1 FULL JOIN t2 ON t1.b = t2.y ORDER BY a, x;
SELECT * FROM t1 LEFT JOIN empty ON k = a ORDER BY a;
SELECT * FROM empty RIGHT JOIN t1 ON k = a ORDER BY a;
SELECT count(*), count(k), sum(v) FROM t1 LEFT JOIN empty ON k = a;
SELECT * FROM empty e1 JOIN empty e2 ON e1.k = e2.k;
SELECT a FROM t1 WHERE b NOT IN (SELECT y FROM t2) ORDER BY a;
SELECT a FROM t1 WHERE b NOT IN (SELECT y FROM t2 WHERE y IS NOT NULL) ORDER BY a;
SELECT a FROM t1 WHERE b IN (SELECT y FROM t2) ORDER BY a;
SELECT a, b IN (SELECT y FROM t2) AS inn, b NOT IN (SELECT k FROM empty) AS notin_empty FROM t1 ORDER BY a;
SELECT a, EXISTS (SELECT 1 FROM t2 WHERE y = t1.b) FROM t1 ORDER BY a;
SELECT a, (SELECT z FROM t2 WHERE x = t1.a) FROM t1 ORDER BY a;
SELECT a, (SELECT max(y) FROM t2 WHERE y < t1.a) AS below FROM t1 ORDER BY a;
SELECT a FROM t1 WHERE a > ANY (SELECT y FROM t2) ORDER BY a;
SELECT a FROM t1 WHERE a < ALL (SELECT y FROM t2) ORDER BY a;
SELECT a FROM t1 WHERE a < ALL (SELECT y FROM t2 WHERE y IS NOT NULL) ORDER BY a;
SELECT a FROM t1 WHERE a <> ALL (SELECT k FROM empty) ORDER BY a;
SELECT (SELECT y FROM t2 WHERE y > 1);
SELECT (SELECT y, z FROM t2);
SELECT a FROM t1 WHERE b IN (SELECT y, z FROM t2);
SELECT ARRAY(SELECT x FROM t2 ORDER BY x DESC);
SELECT c, count(*) FROM t1 GROUP BY c ORDER BY c NULLS FIRST;
SELECT b FROM t1 UNION SELECT y FROM t2 ORDER BY 1;
SELECT b FROM t1 UNION ALL SELECT y FROM t2 ORDER BY 1 NULLS FIRST;
SELECT b FROM t1 INTERSECT SELECT y FROM t2 ORDER BY 1;
SELECT b FROM t1 INTERSECT ALL SELECT y FROM t2 ORDER BY 1;
SELECT b FROM t1 EXCEPT SELECT y FROM t2 ORDER BY 1;
SELECT b FROM t1 EXCEPT ALL SELECT y FROM t2 ORDER BY 1;
SELECT 1 UNION SELECT 'a';
SELECT 1, 2 UNION SELECT 3;
SELECT a, c FROM t1 UNION SELECT x, z FROM t2 ORDER BY 1, 2 LIMIT 4 OFFSET 1;
SELECT a FROM t1 UNION SELECT x FROM t2 ORDER BY a + 1;
SELECT DISTINCT b FROM t1 ORDER BY b;
SELECT DISTINCT ON (b) b, a FROM t1 ORDER BY b, a DESC;
SELECT DISTINCT ON (b) b, a FROM t1 ORDER BY a;
SELECT * FROM t1 WHERE a = (SELECT max(x) FROM t2 WHERE x < 5);
SELECT nosuch FROM t1 JOIN t2 ON a = x;
SELECT t3.a FROM t1;
SELECT t1.nosuch FROM t1 JOIN t2 ON a = x;
SELECT * FROM t1 JOIN t2 ON a = nosuch;
SELECT * FROM t1, t1;
SELECT * FROM (SELECT a FROM t1);
SELECT q.a, q.n FROM (SELECT a, count(*) OVER () AS n FROM t1) q WHERE q.a > 3 ORDER BY 1;
WITH a AS (SELECT 1 AS v), b AS (SELECT v + 1 AS v FROM a) SELECT * FROM a, b;
WITH x AS (SELECT a FROM t1) SELECT count(*) FROM x JOIN x y ON x.a = y.a;
WITH RECURSIVE fib(i, a, b) AS (SELECT 1, 0::bigint, 1::bigint UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 20) SELECT i, a FROM fib ORDER BY i DESC LIMIT 3;
WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM r) SELECT * FROM r ORDER BY n;
SELECT x, y, sum(y) OVER w, avg(y) OVER w, count(*) OVER w FROM t2 WINDOW w AS (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY x;
SELECT x, first_value(z) OVER (ORDER BY x), last_value(z) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), nth_value(x, 2) OVER (ORDER BY x) FROM t2 ORDER BY x;
SELECT a, dense_rank() OVER (ORDER BY b NULLS FIRST), percent_rank() OVER (ORDER BY b), cume_dist() OVER (ORDER BY b), ntile(2) OVER (ORDER BY a) FROM t1 ORDER BY a;
SELECT b, count(*), rank() OVER (ORDER BY count(*) DESC, b) FROM t1 GROUP BY b ORDER BY b;
SELECT a FROM t1 WHERE row_number() OVER () > 1;
SELECT * FROM unnest(ARRAY[1,2], ARRAY['a','b','c']) AS u(n, s);
SELECT * FROM unnest('{}'::integer[]);
SELECT * FROM generate_series(1, 10, 0);
SELECT * FROM generate_series(5, 1);
SELECT t1.a, g FROM t1, generate_series(1, t1.a) g WHERE t1.a < 3 ORDER BY 1, 2;
SELECT * FROM (VALUES (1), (NULL), (3)) v(n) ORDER BY n;
VALUES (1, 'x'), (2, 'y');
SELECT * FROM (VALUES (1, 2), (3)) v;
SELECT a, b, c FROM t1 t WHERE (SELECT count(*) FROM t2 WHERE t2.x <= t.a) >= 2 ORDER BY a;
SELECT t1.a, t2.x, t3.a FROM t1 JOIN t2 ON t1.a = t2.x JOIN t1 t3 ON t3.a = t2.y ORDER BY 1;
SELECT * FROM t1 a JOIN t1 b ON a.a = b.b LEFT JOIN t2 ON t2.x = b.a ORDER BY 1;
SELECT count(DISTINCT b), string_agg(c, ',') FROM t1;
SELECT sum(count(*)) OVER (), count(*) FROM t1;
SELECT b, sum(sum(a)) OVER (ORDER BY b NULLS FIRST) FROM t1 GROUP BY b ORDER BY b NULLS FIRST;
SELECT bool_and(a > 1), bool_or(a > 4), every(b IS NULL) FROM t1;
SELECT c, string_agg(c, '-') OVER (ORDER BY a) FROM t1 ORDER BY a;
SELECT a FROM t1 ORDER BY (SELECT count(*) FROM t2 WHERE x > t1.a), a;
SELECT a, b FROM t1 WHERE EXISTS (SELECT 1) AND NOT EXISTS (SELECT 1 FROM empty) ORDER BY a;
SELECT * FROM t1 WHERE a IN (1, 2) AND b IN (SELECT y FROM t2 WHERE z IS NULL OR z = 'dos');
SELECT max(a) FROM (SELECT a FROM t1 UNION ALL SELECT x FROM t2) u;
SELECT * FROM t1 FOR UPDATE OF nosuch;
SELECT * FROM t1 JOIN t2 ON a = x ORDER BY a FOR UPDATE;
SELECT DISTINCT a FROM t1 JOIN t2 ON a = x FOR SHARE;
SELECT a, (SELECT count(*) FROM t2 WHERE y = t1.b OR (y IS NULL AND t1.b IS NULL)) AS same_b, EXISTS (SELECT 1 FROM t1 x WHERE x.b = t1.b AND x.a <> t1.a) AS dup FROM t1 ORDER BY a;
SELECT a, (SELECT min(x) FROM t2 WHERE x > t1.a % 2) FROM t1 ORDER BY a;
SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.x > t1.a % 3) AND (SELECT count(*) FROM t2 WHERE t2.x > t1.a % 3) > 2 ORDER BY a;
SELECT a, b, (a, b) = (2, 2) AS eq, (a, b) <> (3, 3) AS ne, (a, b) < (3, 4) AS lt, (a, b) <= (3, 3) AS le, (a, b) > (2, NULL) AS gt, (a, b) >= (4, 1) AS ge FROM t1 ORDER BY a;
SELECT a FROM t1 WHERE (a, b) IN ((2, 2), (3, 3), (4, NULL)) ORDER BY a;
SELECT a FROM t1 WHERE (a, b) NOT IN ((2, 2), (3, 3)) ORDER BY a;
SELECT a, c FROM t1 WHERE (b, a) > (2, 2) ORDER BY b, a LIMIT 2;
SELECT (1, 2) = (1, 2, 3);

-- Row comparisons with subqueries: (a, b) IN / NOT IN / = ANY / <> ALL (SELECT x, y ...),
-- correlated or not, with NULLs on either side, an empty subquery, a type to unify, and
-- DML filtered by them.
CREATE TABLE rt (a integer, b integer, c text, PRIMARY KEY (a, b));
CREATE TABLE rs (x integer PRIMARY KEY, y integer, z text);
INSERT INTO rt VALUES (1, 1, 'p'), (1, 2, 'q'), (2, 1, NULL), (3, 3, 'r');
INSERT INTO rs VALUES (1, 1, 'p'), (2, NULL, 'q'), (3, 3, NULL), (4, 2, 'x');
SELECT * FROM rt WHERE (a, b) IN (SELECT x, y FROM rs) ORDER BY a, b;
SELECT * FROM rt WHERE (a, b) NOT IN (SELECT x, y FROM rs) ORDER BY a, b;
SELECT a, b, (a, b) IN (SELECT x, y FROM rs) AS inn, (a, b) NOT IN (SELECT x, y FROM rs) AS notin FROM rt ORDER BY a, b;
SELECT a, b, (a, c) IN (SELECT x, z FROM rs) FROM rt ORDER BY a, b;
SELECT a, (a, b) = ANY (SELECT x, y FROM rs WHERE x > rt.a) FROM rt ORDER BY a, b;
SELECT a, (a, b) <> ALL (SELECT x, y FROM rs WHERE y IS NOT NULL) FROM rt ORDER BY a, b;
SELECT (1, 2) IN (SELECT 1, 2.0);
SELECT (1, 'a') IN (SELECT 1, 'a' WHERE false);
SELECT * FROM rt WHERE (a, b) IN (SELECT x FROM rs);
SELECT * FROM rt WHERE (a, b) IN (SELECT x, y, z FROM rs);
DELETE FROM rt WHERE (a, b) IN (SELECT x, y FROM rs WHERE y IS NOT NULL) RETURNING *;
UPDATE rt SET c = 'u' WHERE (a, c) IN (SELECT x, z FROM rs) RETURNING *;
SELECT * FROM rt ORDER BY a, b;

-- GROUPING SETS / ROLLUP / CUBE, with NULL keys in the data (a NULL group and a rolled-up
-- row print alike), HAVING, window functions over the groups, empty input.
CREATE TABLE sales (id integer PRIMARY KEY, region text, product text, qty integer, price numeric(8,2));
INSERT INTO sales VALUES (1, 'north', 'a', 3, 1.50), (2, 'north', 'b', 1, 2.00), (3, 'south', 'a', 5, 1.50),
  (4, 'south', NULL, 2, 9.99), (5, NULL, 'b', 7, 2.00), (6, 'north', 'a', 1, 1.75);
SELECT region, product, sum(qty), count(*) FROM sales GROUP BY ROLLUP (region, product) ORDER BY 1, 2, 3, 4;
SELECT region, product, sum(qty) FROM sales GROUP BY CUBE (region, product) ORDER BY 1, 2, 3;
SELECT region, product, sum(qty) FROM sales GROUP BY GROUPING SETS ((region), (product), ()) ORDER BY 1, 2, 3;
SELECT region, sum(qty) FROM sales GROUP BY GROUPING SETS (region, ()) HAVING sum(qty) > 5 ORDER BY 1, 2;
SELECT region, product, sum(qty * price) FROM sales GROUP BY region, ROLLUP (product) ORDER BY 1, 2, 3;
SELECT sum(qty) FROM sales GROUP BY ();
SELECT region, count(*) FROM sales WHERE false GROUP BY ROLLUP (region);
SELECT region, count(*) FROM sales WHERE false GROUP BY GROUPING SETS ((), (), region);
SELECT upper(region), count(*) FROM sales GROUP BY ROLLUP (upper(region)) ORDER BY 1, 2;
SELECT region, product, sum(qty) FROM sales GROUP BY ROLLUP ((region, product)) ORDER BY 1, 2, 3;
SELECT region, product, sum(qty) FROM sales GROUP BY ROLLUP (region), CUBE (product) ORDER BY 1, 2, 3;
SELECT region, product, sum(qty) FROM sales GROUP BY GROUPING SETS (ROLLUP (region), product) ORDER BY 1, 2, 3;
SELECT region, product, sum(qty), rank() OVER (ORDER BY sum(qty) DESC) FROM sales GROUP BY ROLLUP (region, product)
  ORDER BY 4, 1, 2, 3;
SELECT region, product FROM sales GROUP BY ROLLUP (region) ORDER BY 1;

-- Output names of subquery expressions, as PostgreSQL figures them.
SELECT EXISTS (SELECT 1 FROM rs), ARRAY(SELECT x FROM rs ORDER BY x), (SELECT max(y) FROM rs), (SELECT y AS yy FROM rs LIMIT 1),
       (SELECT z FROM rs ORDER BY x LIMIT 1), (SELECT 1), NOT EXISTS (SELECT 1), 1 IN (SELECT 1);
-- Aggregates ordered by keys other than their value, NULLs placed as PostgreSQL places them.
SELECT array_agg(a ORDER BY b), array_agg(a ORDER BY b DESC), array_agg(a ORDER BY b NULLS FIRST),
       array_agg(a ORDER BY b DESC NULLS LAST), array_agg(c ORDER BY c DESC NULLS LAST) FROM t1;
SELECT string_agg(c, ',' ORDER BY a DESC), string_agg(c, ',' ORDER BY b NULLS FIRST, a DESC),
       string_agg(coalesce(c, '?'), '|' ORDER BY c, a) FROM t1;
SELECT b IS NULL AS nb, array_agg(a ORDER BY c DESC, a), string_agg(c, ';' ORDER BY length(c)) FROM t1 GROUP BY 1 ORDER BY 1;
SELECT x, array_agg(a ORDER BY a DESC) FILTER (WHERE a > 1), json_agg(c ORDER BY a DESC) FROM t2 LEFT JOIN t1 ON b = y GROUP BY x ORDER BY x;
SELECT array_agg(a ORDER BY b) FROM t1 WHERE a > 100;
SELECT array_agg(DISTINCT b ORDER BY b DESC) FROM t1;
SELECT array_agg(DISTINCT b ORDER BY a) FROM t1;
SELECT a, array_agg(a ORDER BY b) OVER () FROM t1;
