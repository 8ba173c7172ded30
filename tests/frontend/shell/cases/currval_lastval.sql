--! psql
-- currval / lastval: the session's own last draws, not transactional (a rolled-back
-- block keeps them), one per sequence; errors as PostgreSQL words them.
CREATE SEQUENCE s START 10;
SELECT currval('s');
SELECT lastval();
SELECT nextval('s');
SELECT currval('s');
SELECT lastval() AS last;
CREATE TABLE t (id serial PRIMARY KEY, v text);
INSERT INTO t (v) VALUES ('a'), ('b');
SELECT currval('t_id_seq');
SELECT lastval();
SELECT currval('public.s');
SELECT currval('nosuch');
BEGIN;
SELECT nextval('s');
SELECT currval('s');
ROLLBACK;
SELECT currval('s');
SELECT lastval();
DROP TABLE t;
SELECT lastval();
