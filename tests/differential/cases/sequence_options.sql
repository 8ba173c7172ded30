-- Sequence options as PostgreSQL has them: AS, MINVALUE / MAXVALUE (and NO ...), CYCLE,
-- CACHE (1: a larger cache's gaps between sessions are PostgreSQL's, not kept here), descending sequences, OWNED BY, ALTER SEQUENCE (RESTART, INCREMENT, bounds, AS),
-- setval within the bounds; and pipelined draws that reach a bound: in serial order the
-- draw past a NO CYCLE maximum fails (2200H) and a CYCLE sequence starts again, so a key
-- drawn from it collides (23505), exactly where PostgreSQL's serial run has them.
CREATE SEQUENCE ticket_no AS smallint MINVALUE 1 MAXVALUE 40 NO CYCLE CACHE 1;
CREATE SEQUENCE slot_no MINVALUE 0 MAXVALUE 9 START WITH 7 CYCLE;
CREATE SEQUENCE down_no INCREMENT BY -3 MINVALUE -20 MAXVALUE 0;
CREATE TABLE tickets (id smallint PRIMARY KEY DEFAULT nextval('ticket_no'), label text);
CREATE TABLE slots (id integer PRIMARY KEY DEFAULT nextval('slot_no'), label text);
CREATE TABLE log (n bigint GENERATED ALWAYS AS IDENTITY (MINVALUE 100 MAXVALUE 1000000 INCREMENT BY 7) PRIMARY KEY,
                  slot integer, down integer);
CREATE FUNCTION note(p_label text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  INSERT INTO log (slot, down) VALUES (nextval('slot_no'), nextval('down_no') % 100) RETURNING n INTO v;
  RETURN v;
END $$;
ALTER SEQUENCE down_no CYCLE;
-- Draws that fail at sequencing name their statement, as PL/pgSQL's CONTEXT does.
CREATE SEQUENCE tiny MAXVALUE 12;
CREATE SEQUENCE tiny2 MAXVALUE 20;
CREATE TABLE grabbed (n bigint PRIMARY KEY, m bigint);
CREATE FUNCTION grab() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint := nextval('tiny');
BEGIN
  INSERT INTO grabbed VALUES (v, nextval('tiny2'));
  RETURN v;
END $$;
CREATE FUNCTION grab2() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  v := nextval('tiny2');
  RETURN v;
END $$;

SELECT nextval('ticket_no'), nextval('slot_no'), nextval('down_no');
SELECT setval('down_no', -20, false);
SELECT nextval('down_no'), nextval('down_no');

--- calls: sequence_options 150
SELECT * FROM tickets ORDER BY id;
SELECT * FROM slots ORDER BY id;
SELECT n, slot, down FROM log ORDER BY n;
SELECT * FROM grabbed ORDER BY n;

-- ALTER SEQUENCE: RESTART, a new increment after a draw, a new AS type and its bounds.
ALTER SEQUENCE ticket_no RESTART;
SELECT nextval('ticket_no');
ALTER SEQUENCE ticket_no RESTART WITH 30 INCREMENT BY 4;
SELECT nextval('ticket_no'), nextval('ticket_no');
ALTER SEQUENCE ticket_no INCREMENT BY 1;
SELECT nextval('ticket_no');
ALTER SEQUENCE ticket_no MAXVALUE 35;
SELECT nextval('ticket_no');
SELECT nextval('ticket_no');
ALTER SEQUENCE ticket_no NO MAXVALUE RESTART WITH 32767;
SELECT nextval('ticket_no');
SELECT nextval('ticket_no');
ALTER SEQUENCE ticket_no AS integer;
SELECT nextval('ticket_no');
CREATE SEQUENCE wide AS integer;
ALTER SEQUENCE wide AS bigint;
ALTER SEQUENCE wide RESTART WITH 3000000000;
SELECT nextval('wide');
SELECT setval('wide', 0);
SELECT setval('slot_no', 9, true);
SELECT nextval('slot_no');

-- OWNED BY: dropping the table drops the sequence.
CREATE TABLE owner_t (id integer NOT NULL);
CREATE SEQUENCE owned_seq OWNED BY owner_t.id;
ALTER SEQUENCE owned_seq OWNED BY NONE;
ALTER SEQUENCE wide OWNED BY owner_t.id;
DROP TABLE owner_t;
SELECT nextval('owned_seq');
DROP SEQUENCE IF EXISTS wide;
ALTER SEQUENCE owned_seq OWNED BY nosuch.id;
ALTER SEQUENCE owned_seq OWNED BY tickets.nosuch;
ALTER SEQUENCE nosuch RESTART;
ALTER SEQUENCE IF EXISTS nosuch RESTART;

-- What CREATE / ALTER SEQUENCE refuse.
CREATE SEQUENCE bad AS text;
CREATE SEQUENCE bad AS numeric;
CREATE SEQUENCE bad MINVALUE 10 MAXVALUE 5;
CREATE SEQUENCE bad MINVALUE 5 MAXVALUE 5;
CREATE SEQUENCE bad START 0;
CREATE SEQUENCE bad START 11 MAXVALUE 10;
CREATE SEQUENCE bad INCREMENT -1 START 1;
CREATE SEQUENCE bad AS smallint MAXVALUE 100000;
CREATE SEQUENCE bad AS smallint MINVALUE -100000 INCREMENT -1;
CREATE SEQUENCE bad CACHE 0;
CREATE SEQUENCE bad INCREMENT 0;
CREATE SEQUENCE bad INCREMENT 1 INCREMENT 2;
CREATE SEQUENCE bad RESTART 5;
ALTER SEQUENCE slot_no RESTART WITH 10;
ALTER SEQUENCE slot_no MINVALUE 20;
ALTER SEQUENCE ticket_no AS smallint;
SELECT nextval('bad');
