-- Enum types (CREATE TYPE ... AS ENUM): columns, keys and indexes of them, order by the
-- declared label order (not the labels' text), casts to and from text, the enum
-- functions, enum parameters, variables and results in pipelined procedures, ALTER TYPE
-- ADD VALUE / RENAME VALUE / RENAME TO, DROP TYPE, COPY, and PostgreSQL's errors.
CREATE TYPE priority AS ENUM ('low', 'medium', 'high', 'urgent');
CREATE TYPE public.ticket_state AS ENUM ('open', 'working', 'blocked', 'closed');
CREATE TYPE empty_kind AS ENUM ();

CREATE TABLE tickets (id integer PRIMARY KEY, title text NOT NULL, prio priority NOT NULL DEFAULT 'medium',
                      state ticket_state NOT NULL DEFAULT 'open', owner text);
CREATE INDEX tickets_state ON tickets (state, prio);
CREATE TABLE state_log (state ticket_state, seq integer, note text, PRIMARY KEY (state, seq));

INSERT INTO tickets VALUES
  (1, 'crash on start', 'urgent', 'working', 'ann'),
  (2, 'typo', 'low', 'open', NULL),
  (3, 'slow report', 'high', 'blocked', 'bob'),
  (4, 'old bug', DEFAULT, 'closed', 'ann');
INSERT INTO tickets (id, title) VALUES (5, 'defaults');
INSERT INTO state_log VALUES ('open', 1, 'a'), ('closed', 1, 'b'), ('working', 1, 'c'), ('open', 2, 'd');

CREATE FUNCTION escalate(p_id integer) RETURNS priority LANGUAGE plpgsql AS $$
DECLARE
  v priority;
BEGIN
  SELECT prio INTO v FROM tickets WHERE id = p_id;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF v < enum_last(v) THEN
    v := (enum_range(v, NULL))[2];
    UPDATE tickets SET prio = v WHERE id = p_id;
  END IF;
  RETURN v;
END $$;

CREATE FUNCTION move_ticket(p_id integer, p_state ticket_state) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  old ticket_state;
  n integer;
BEGIN
  SELECT state INTO old FROM tickets WHERE id = p_id;
  IF old IS NULL THEN
    RAISE EXCEPTION 'no ticket %', p_id;
  END IF;
  IF old = 'closed' AND p_state <> 'open' THEN
    RETURN 'refused: ' || old;
  END IF;
  UPDATE tickets SET state = p_state WHERE id = p_id;
  SELECT coalesce(max(seq), 0) + 1 INTO n FROM state_log WHERE state = p_state;
  INSERT INTO state_log VALUES (p_state, n, format('%s: %s -> %s', p_id, old, p_state));
  RETURN old::text || ' -> ' || p_state::text;
END $$;

CREATE FUNCTION open_ticket(p_id integer, p_title text, p_prio text) RETURNS TABLE (t_id integer, t_prio priority, t_state ticket_state)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tickets (id, title, prio) VALUES (p_id, p_title, p_prio::priority)
    ON CONFLICT (id) DO UPDATE SET prio = greatest(tickets.prio, EXCLUDED.prio);
  RETURN QUERY SELECT t.id, t.prio, t.state FROM tickets t WHERE t.id = p_id;
END $$;

CREATE FUNCTION state_counts() RETURNS TABLE (state ticket_state, n bigint) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT t.state, count(*) FROM tickets t GROUP BY t.state ORDER BY t.state;
END $$;

--- calls: enum_types 160
SELECT * FROM tickets ORDER BY id;
SELECT * FROM state_log ORDER BY state, seq;
SELECT * FROM state_counts();

-- Order, comparison and grouping follow the labels' declared order.
SELECT id, prio, state FROM tickets ORDER BY prio DESC, id;
SELECT id FROM tickets WHERE prio >= 'high' ORDER BY id;
SELECT id FROM tickets WHERE state BETWEEN 'working' AND 'blocked' ORDER BY id;
SELECT id FROM tickets WHERE state IN ('open', 'closed') ORDER BY id;
SELECT prio, count(*), min(state), max(state) FROM tickets GROUP BY prio ORDER BY prio;
SELECT DISTINCT state FROM tickets ORDER BY state;
SELECT state, seq FROM state_log WHERE state > 'open' ORDER BY 1, 2;
SELECT t.id, l.seq FROM tickets t JOIN state_log l ON l.state = t.state ORDER BY 1, 2;
SELECT state FROM tickets UNION SELECT state FROM state_log ORDER BY 1;
SELECT id, CASE WHEN prio > 'medium' THEN prio ELSE 'low' END AS p, coalesce(NULL, state) FROM tickets ORDER BY id;
SELECT id, rank() OVER (ORDER BY prio DESC) FROM tickets ORDER BY id;
SELECT array_agg(prio ORDER BY prio), array_agg(DISTINCT state ORDER BY state) FROM tickets;

-- Text: casts, output in strings, JSON and arrays.
SELECT id, prio::text, state::varchar(3), 'prio ' || prio, concat(prio, '/', state), format('%s|%s', prio, state),
       length(state::text), upper(prio::text) FROM tickets ORDER BY id;
SELECT 'high'::priority, 'closed'::ticket_state::text::ticket_state, CAST('low' AS priority) < 'medium';
SELECT prio, state, to_json(prio), to_jsonb(state), json_build_object('p', prio), json_agg(state ORDER BY id),
       jsonb_agg(prio) FROM tickets GROUP BY prio, state ORDER BY 1, 2;
SELECT enum_range(NULL::priority), enum_first(NULL::priority), enum_last(NULL::ticket_state),
       enum_range('medium'::priority, 'urgent'), enum_range(NULL, 'working'::ticket_state),
       enum_range('high'::priority, 'low'), array_to_string(enum_range(NULL::priority), ',');
SELECT x, x::text FROM unnest(ARRAY['urgent', 'low', 'high']::priority[]) AS u(x) ORDER BY x;
SELECT 'medium' = ANY (enum_range(NULL::priority)), 'high'::priority = ANY (ARRAY['low', 'high']::priority[]);
SELECT string_agg(prio::text, ',' ORDER BY prio) FROM tickets;

-- Writes ad hoc.
UPDATE tickets SET prio = 'low' WHERE state = 'closed';
WITH u AS (UPDATE tickets SET state = 'closed', prio = enum_first(prio) WHERE prio = 'urgent' RETURNING id, prio, state)
SELECT * FROM u ORDER BY id;
DELETE FROM state_log WHERE state = 'closed' AND seq > 1;
INSERT INTO tickets (id, title, prio, state) SELECT id + 100, 'copy ' || title, prio, state FROM tickets WHERE prio < 'high';
SELECT * FROM tickets ORDER BY id;
COPY (SELECT id, prio, state FROM tickets ORDER BY id) TO STDOUT;
COPY tickets (id, title, prio, state) FROM STDIN;
70	copied	high	blocked
71	copied too	low	\N
\.
COPY tickets (id, title, prio) FROM STDIN WITH (FORMAT csv);
72,csv,urgent
\.
SELECT * FROM tickets WHERE id >= 70 ORDER BY id;

-- ALTER TYPE.
ALTER TYPE priority ADD VALUE 'critical';
ALTER TYPE priority ADD VALUE IF NOT EXISTS 'critical';
ALTER TYPE priority ADD VALUE 'blocker' AFTER 'critical';
SELECT enum_range(NULL::priority);
UPDATE tickets SET prio = 'blocker' WHERE id = 2;
SELECT id, prio FROM tickets WHERE prio > 'urgent' ORDER BY prio, id;
SELECT escalate(3), escalate(3), escalate(3), escalate(3);
ALTER TYPE ticket_state RENAME VALUE 'blocked' TO 'waiting';
SELECT id, state FROM tickets ORDER BY state, id;
SELECT move_ticket(1, 'waiting');
ALTER TYPE empty_kind RENAME TO nothing_kind;
SELECT enum_range(NULL::nothing_kind);
DROP TYPE nothing_kind;
DROP TYPE IF EXISTS nothing_kind;
CREATE TYPE scratch AS ENUM ('a', 'b');
DROP TYPE scratch, priority;
SELECT enum_range(NULL::scratch);

-- Errors.
INSERT INTO tickets (id, title, prio) VALUES (90, 'bad', 'whenever');
SELECT 'nope'::priority;
SELECT * FROM tickets WHERE prio = 'sometime';
SELECT prio = 'low'::text FROM tickets;
SELECT prio = state FROM tickets;
SELECT 1::priority;
SELECT 'low'::priority::integer;
SELECT prio + 1 FROM tickets;
UPDATE tickets SET prio = state WHERE id = 1;
UPDATE tickets SET prio = 'low'::text WHERE id = 1;
SELECT enum_first(1);
SELECT enum_first('low');
SELECT enum_range('low'::priority, 'open'::ticket_state);
CREATE TYPE priority AS ENUM ('x');
CREATE TABLE priority (a integer);
CREATE TYPE tickets AS ENUM ('x');
DROP TYPE priority;
DROP TYPE tickets;
DROP TYPE no_such_type;
ALTER TYPE priority ADD VALUE 'low';
ALTER TYPE priority ADD VALUE 'x' BEFORE 'nothing';
ALTER TYPE priority RENAME VALUE 'nothing' TO 'x';
ALTER TYPE priority RENAME VALUE 'low' TO 'high';
ALTER TYPE no_such_type ADD VALUE 'x';
ALTER TYPE priority RENAME TO ticket_state;
SELECT escalate(NULL), move_ticket(3, 'nope');
SELECT * FROM open_ticket(200, 'bad', 'someday');
SELECT * FROM tickets ORDER BY id;
