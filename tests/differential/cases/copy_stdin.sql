-- COPY ... FROM STDIN as psql scripts and pg_dump output use it: the text format
-- (tabs, \N, backslash escapes, a \. line) and CSV, with column lists, DELIMITER / NULL
-- options and the old spellings; into a table without a primary key too; a bad line
-- loads nothing.
CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL, price numeric(8,2), added timestamp, tags text);
CREATE TABLE event (item integer, what text, at_count integer DEFAULT 0);
COPY item (id, name, price, added, tags) FROM stdin;
1	apple	1.25	2026-01-02 03:04:05	fruit
2	tab\tin name	\N	\N	\N
3	back\\slash and \101\x42	0.10	2026-12-31 23:59:59.5	a,b
4	line\nbreak	-3	\N	\\N is not null here
\.
SELECT id, name, price, added, tags, length(name) FROM item ORDER BY id;
COPY item (id, name) FROM STDIN WITH (FORMAT csv, HEADER true);
id,name
5,"quoted, with comma"
6,"a ""quote"""
\.
COPY item (id, name, price) FROM stdin WITH CSV;
7,seven,7
\.
COPY item (id, name, tags) FROM stdin (DELIMITER '|', NULL 'NULL');
8|eight|NULL
9|nine|
\.
SELECT id, name, price, tags IS NULL AS no_tags, tags FROM item WHERE id >= 5 ORDER BY id;
COPY event FROM stdin;
1	sold	1
1	sold	1
2	returned	\N
\.
COPY event (item, what) FROM stdin;
3	restocked
\.
SELECT item, what, at_count, count(*) FROM event GROUP BY item, what, at_count ORDER BY item, what;
-- Errors: nothing of the COPY is loaded.
COPY item (id, name) FROM stdin;
10	ten
11
\.
COPY item (id, name) FROM stdin;
12	twelve	extra
\.
COPY item (id, name) FROM stdin;
13	thirteen
1	duplicate
\.
COPY item (id, price) FROM stdin;
14	1.00
\.
COPY item (id, name) FROM stdin;
x	not a number
\.
SELECT count(*) FROM item;
-- COPY TO STDOUT: the text format's escapes and \N, CSV's quoting, HEADER, a query.
COPY item TO STDOUT;
COPY item (name, id) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT id, price * 2 AS double_price FROM item WHERE id < 5 ORDER BY id DESC) TO STDOUT (FORMAT csv, DELIMITER ';');
COPY event TO STDOUT (NULL 'nil');
COPY (SELECT NULL::text AS a, '' AS b, '\N' AS c) TO STDOUT CSV;
COPY (SELECT NULL::text AS a, '' AS b, '\N' AS c) TO STDOUT;
