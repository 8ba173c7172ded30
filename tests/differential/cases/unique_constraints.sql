-- UNIQUE constraints (column and table ones, named or not) and CREATE UNIQUE INDEX,
-- enforced in serial order: of calls in one epoch that want the same value, the first
-- wins and the later ones fail with 23505 and PostgreSQL's DETAIL. NULLs never collide;
-- an UPDATE that keeps its value is no conflict; ON CONFLICT DO NOTHING without a target
-- skips rows any unique index refuses; bulk loads are checked too.
CREATE TABLE member (
  id integer PRIMARY KEY,
  email text UNIQUE,
  team integer,
  nick text,
  score integer NOT NULL DEFAULT 0,
  CONSTRAINT member_team_nick UNIQUE (team, nick)
);
CREATE TABLE slot (id integer PRIMARY KEY, owner integer);
CREATE UNIQUE INDEX slot_owner_idx ON slot (owner);

CREATE FUNCTION join_team(p_id integer, p_email text, p_team integer, p_nick text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member (id, email, team, nick) VALUES (p_id, p_email, p_team, p_nick);
  RETURN 'joined';
EXCEPTION WHEN unique_violation THEN
  RETURN 'taken: ' || SQLERRM;
END $$;

-- A violation that no handler catches fails the call.
CREATE FUNCTION rename(p_id integer, p_nick text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member SET nick = p_nick, score = score + 1 WHERE id = p_id;
  RETURN p_id;
END $$;

-- Give the owner's slot up, then take another (or make it): the value moves between rows
-- within one call.
CREATE FUNCTION claim(p_slot integer, p_owner integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE slot SET owner = NULL WHERE owner = p_owner;
  UPDATE slot SET owner = p_owner WHERE id = p_slot;
  IF NOT FOUND THEN
    INSERT INTO slot VALUES (p_slot, p_owner);
  END IF;
  RETURN 'claimed';
END $$;

CREATE FUNCTION quiet_add(p_id integer, p_email text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member (id, email) VALUES (p_id, p_email) ON CONFLICT DO NOTHING;
  RETURN FOUND;
END $$;

--- calls: unique_constraints 300
SELECT * FROM member ORDER BY id;
SELECT * FROM slot ORDER BY id;

-- Ad hoc.
INSERT INTO member (id, email) VALUES (100, 'x@z'), (101, 'x@z');
INSERT INTO member (id, email) VALUES (100, 'x@z'), (101, 'y@z');
UPDATE member SET email = 'x@z' WHERE id = 101;
UPDATE member SET email = 'x@z' WHERE id = 100;
UPDATE member SET team = 7, nick = 'same' WHERE id >= 100;
INSERT INTO member (id, email) VALUES (102, 'x@z') ON CONFLICT (id) DO NOTHING;
INSERT INTO member (id, email) VALUES (102, 'x@z') ON CONFLICT DO NOTHING;
INSERT INTO member (id, email) SELECT id + 200, email FROM member WHERE id >= 100;
INSERT INTO member (id, email) SELECT id + 200, email || '.2' FROM member WHERE id >= 100;
INSERT INTO member (id, email) SELECT g, 'same@z' FROM generate_series(400, 401) AS g;
SELECT * FROM member WHERE id >= 100 ORDER BY id;

-- CREATE UNIQUE INDEX over rows that already break it fails, and leaves no index.
CREATE TABLE tag (id integer PRIMARY KEY, label text, n integer);
INSERT INTO tag VALUES (1, 'a', 1), (2, 'b', 1), (3, NULL, 2), (4, NULL, 2);
CREATE UNIQUE INDEX tag_n ON tag (n);
INSERT INTO tag VALUES (5, 'c', 1);
CREATE UNIQUE INDEX tag_label ON tag (label);
INSERT INTO tag VALUES (6, 'a', 9);
INSERT INTO tag VALUES (6, NULL, 9);
UPDATE tag SET label = 'b' WHERE id = 1;
DELETE FROM tag WHERE id = 2;
UPDATE tag SET label = 'b' WHERE id = 1;
INSERT INTO tag VALUES (7, 'a', 9);
SELECT * FROM tag ORDER BY id;

-- ON CONFLICT (a unique index's columns) DO NOTHING: only that index arbitrates; a taken
-- primary key still raises. DO UPDATE on such a target is not supported here (no diff).
INSERT INTO member (id, email) VALUES (500, 'x@z') ON CONFLICT (email) DO NOTHING;
INSERT INTO member (id, email) VALUES (500, 'fresh@z') ON CONFLICT (email) DO NOTHING;
INSERT INTO member (id, email) VALUES (500, 'other@z') ON CONFLICT (email) DO NOTHING;
INSERT INTO member (id, email, team, nick) VALUES (501, 'u@z', 7, 'same') ON CONFLICT (email) DO NOTHING;
INSERT INTO member (id, email, team, nick) VALUES (501, 'u@z', 7, 'same') ON CONFLICT ON CONSTRAINT member_team_nick DO NOTHING;
CREATE FUNCTION claim_email(p_id integer, p_email text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member (id, email) VALUES (p_id, p_email) ON CONFLICT (email) DO NOTHING;
  RETURN FOUND;
END $$;
SELECT claim_email(600, 'fresh@z');
SELECT claim_email(601, 'new@z');
SELECT claim_email(601, 'newer@z');
SELECT * FROM member WHERE id >= 500 ORDER BY id;
