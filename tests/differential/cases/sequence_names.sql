-- Sequences named as pg_dump and ORMs name them: schema-qualified, in any case, quoted,
-- through ::regclass (in column defaults too); PostgreSQL's errors for names that are
-- not valid or name nothing. COMMIT / ROLLBACK in a function: accepted when it is
-- created, 2D000 when reached (often only in a handler that never runs).
CREATE SEQUENCE public.ticket_seq START WITH 10;
CREATE SEQUENCE "Mixed_Seq";
CREATE TABLE ticket (
  id bigint DEFAULT nextval('public.ticket_seq'::regclass) PRIMARY KEY,
  note text,
  grp integer DEFAULT nextval('"Mixed_Seq"'::regclass)
);
INSERT INTO ticket (note) VALUES ('a');
INSERT INTO public.ticket (note) VALUES ('b');
SELECT nextval('TICKET_SEQ');
SELECT nextval('public.ticket_seq');
SELECT nextval(' public . ticket_seq ');
SELECT nextval('"Mixed_Seq"');
SELECT nextval('pg_catalog.ticket_seq');
SELECT 'ticket'::regclass, 'public.ticket_seq'::pg_catalog.regclass, '"Mixed_Seq"'::regclass;
SELECT nextval('nosuch.ticket_seq');
SELECT nextval('a..b');
SELECT nextval('');
SELECT nextval('   ');
SELECT ''::regclass;
SELECT nextval('"unterminated');
SELECT nextval('a.b.c.d');
SELECT 'nosuch'::regclass;

CREATE FUNCTION new_ticket(p_note text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint := nextval('Public.Ticket_Seq');
BEGIN
  INSERT INTO ticket (id, note) VALUES (v_id, p_note);
  RETURN v_id;
END $$;

CREATE FUNCTION careful(p_id bigint, p_note text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket SET note = p_note WHERE id = p_id;
  IF p_note IS NULL THEN
    ROLLBACK;
  END IF;
  RETURN p_note;
EXCEPTION WHEN serialization_failure OR deadlock_detected THEN
  ROLLBACK;
END $$;

CREATE FUNCTION committer() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  COMMIT;
END $$;

SELECT new_ticket('c');
SELECT careful(10, 'changed');
SELECT careful(11, NULL);
SELECT committer();
--- calls: sequence_names 120
SELECT id, note, grp FROM ticket ORDER BY id;
SELECT nextval('ticket_seq');
