-- ALTER TABLE ... RENAME [COLUMN] / RENAME TO / RENAME CONSTRAINT and ALTER INDEX ...
-- RENAME: names change, rows and constraints stay; the primary key keeps its name (as
-- PostgreSQL's does) and a new table may take the old name.
CREATE TABLE item (id integer PRIMARY KEY, name text NOT NULL, qty integer CHECK (qty >= 0), code integer UNIQUE);
CREATE TABLE other (k integer, CONSTRAINT other_key PRIMARY KEY (k));
CREATE INDEX item_name_idx ON item (name);
INSERT INTO item VALUES (1, 'a', 1, 10), (2, 'b', 2, 20);
ALTER TABLE item RENAME COLUMN name TO title;
SELECT id, title FROM item ORDER BY id;
ALTER TABLE item RENAME qty TO stock;
ALTER TABLE item RENAME TO product;
SELECT * FROM product ORDER BY id;
INSERT INTO product VALUES (1, 'dup', 1, 30);
INSERT INTO product VALUES (3, 'neg', -1, 30);
INSERT INTO product VALUES (3, 'same code', 1, 10);
ALTER TABLE product RENAME CONSTRAINT item_qty_check TO stock_never_negative;
ALTER TABLE product RENAME CONSTRAINT item_code_key TO product_code_key;
INSERT INTO product VALUES (3, 'neg', -1, 30);
INSERT INTO product VALUES (3, 'same code', 1, 10);
ALTER INDEX item_name_idx RENAME TO product_title_idx;
SELECT title FROM product WHERE title = 'b';
CREATE TABLE item (id integer PRIMARY KEY);
INSERT INTO item VALUES (1);
INSERT INTO item VALUES (1);
INSERT INTO other VALUES (1), (1);
-- Errors.
ALTER TABLE product RENAME COLUMN nosuch TO x;
ALTER TABLE product RENAME COLUMN title TO id;
ALTER TABLE product RENAME TO item;
ALTER TABLE nosuch RENAME TO x;
ALTER TABLE IF EXISTS nosuch RENAME TO x;
ALTER TABLE product RENAME CONSTRAINT nosuch TO x;
ALTER INDEX nosuch RENAME TO x;
SELECT * FROM product ORDER BY id;
