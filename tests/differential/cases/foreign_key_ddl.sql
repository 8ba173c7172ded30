-- Foreign keys through DDL: renames keep them, a dropped referencing column takes its
-- key along, DROP ... CASCADE drops the keys of other tables, ALTER TABLE ... DROP
-- CONSTRAINT, NOT VALID skips the check of the rows there are.
CREATE TABLE dept (id integer PRIMARY KEY, code text UNIQUE NOT NULL);
CREATE TABLE emp (id integer PRIMARY KEY, dept integer REFERENCES dept, code text, extra integer,
  CONSTRAINT emp_code_fk FOREIGN KEY (code) REFERENCES dept (code));
INSERT INTO dept VALUES (1, 'a'), (2, 'b');
INSERT INTO emp VALUES (1, 1, 'a', 0), (2, 2, 'b', 0);
ALTER TABLE dept RENAME TO departments;
INSERT INTO emp VALUES (3, 3, 'a', 0);
INSERT INTO emp VALUES (3, 1, 'c', 0);
ALTER TABLE emp RENAME COLUMN dept TO dept_id;
INSERT INTO emp VALUES (3, 5, 'a', 0);
ALTER TABLE emp DROP COLUMN code;
INSERT INTO emp VALUES (3, 1, 0);
DELETE FROM departments WHERE id = 1;
ALTER TABLE emp DROP COLUMN extra;
ALTER TABLE departments DROP COLUMN code;
ALTER TABLE emp ADD COLUMN note text DEFAULT 'x';
INSERT INTO emp VALUES (4, 9, 'y');
INSERT INTO emp VALUES (4, 2, 'y');
CREATE TABLE audit (emp integer, what text);
INSERT INTO audit VALUES (99, 'stale');
ALTER TABLE audit ADD CONSTRAINT audit_emp_fk FOREIGN KEY (emp) REFERENCES emp NOT VALID;
INSERT INTO audit VALUES (98, 'new');
INSERT INTO audit VALUES (1, 'ok');
ALTER TABLE audit DROP CONSTRAINT audit_emp_fk;
ALTER TABLE audit DROP CONSTRAINT audit_emp_fk;
ALTER TABLE audit DROP CONSTRAINT IF EXISTS audit_emp_fk;
INSERT INTO audit VALUES (98, 'free');
DROP TABLE departments;
DROP TABLE departments CASCADE;
INSERT INTO emp VALUES (5, 77, 'z');
SELECT id, dept_id, note FROM emp ORDER BY id;
DROP TABLE emp, audit;
-- A procedure made before a foreign key references its table checks it from then on.
CREATE TABLE kinds (id integer PRIMARY KEY);
INSERT INTO kinds VALUES (1), (2);
CREATE FUNCTION drop_kind(p integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM kinds WHERE id = p;
  RETURN p;
END $$;
CREATE TABLE items (id integer PRIMARY KEY, kind integer REFERENCES kinds ON DELETE CASCADE);
INSERT INTO items VALUES (10, 1), (11, 2), (12, 2);
SELECT drop_kind(2);
SELECT id, kind FROM items ORDER BY id;
