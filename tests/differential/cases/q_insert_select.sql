-- INSERT ... SELECT: rows from a query (joins, subqueries, generate_series) converted to the
-- target's columns, with defaults, NOT NULL and duplicate-key checks; all or nothing.
CREATE TABLE src (id integer PRIMARY KEY, v integer, s text);
CREATE TABLE dst (id bigint PRIMARY KEY, v numeric(6,2) NOT NULL, s varchar(3) DEFAULT 'def', n integer);
INSERT INTO src SELECT g, g * 10, 'x' || g FROM generate_series(1, 5) g;
SELECT * FROM src ORDER BY id;
INSERT INTO dst (id, v) SELECT id, v / 3.0 FROM src WHERE id <= 3;
INSERT INTO dst (id, v, s) SELECT id + 10, v, s FROM src WHERE id > 3;
SELECT * FROM dst ORDER BY id;
INSERT INTO dst (id, v) SELECT id, v FROM src;
INSERT INTO dst (id, v) VALUES (100, 1) , (101, (SELECT max(v) FROM src));
INSERT INTO dst (id, v) SELECT 200, NULL;
INSERT INTO dst (id, v, s) SELECT 300, 1, 'toolong';
INSERT INTO dst (id, v) SELECT 1, 2, 3;
INSERT INTO dst (id, v) SELECT 's', 1;
INSERT INTO dst (id, v) SELECT 400, 1 UNION ALL SELECT 400, 2;
INSERT INTO dst SELECT d.id + 1000, d.v, d.s, (SELECT count(*) FROM src) FROM dst d JOIN src ON src.id = d.id;
SELECT * FROM dst ORDER BY id;
SELECT count(*) FROM dst;
