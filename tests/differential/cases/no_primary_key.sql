-- Tables without a primary key (a history table, as TPC-C's and pgbench's): rows keyed
-- by a hidden row identity, inserted from procedures under IFs decided by reads, in
-- loops, in FOR loops over queries, in EXCEPTION blocks whose body is undone and whose
-- handler writes instead; duplicates are ordinary rows; UPDATE and DELETE by WHERE on
-- their columns; an index and a UNIQUE index on such a table.
CREATE TABLE account (id integer PRIMARY KEY, balance integer NOT NULL, CHECK (balance >= 0));
CREATE TABLE history (acct integer, delta integer, note text, at_step integer DEFAULT 0);
CREATE INDEX history_acct ON history (acct);
CREATE TABLE tag (name text, owner integer);
CREATE UNIQUE INDEX tag_name ON tag (name);
INSERT INTO account SELECT g, 50 FROM generate_series(1, 6) g;

CREATE FUNCTION move(p_from integer, p_to integer, p_amount integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v integer;
BEGIN
  SELECT balance INTO v FROM account WHERE id = p_from;
  IF NOT FOUND THEN
    INSERT INTO history (acct, delta, note) VALUES (p_from, 0, 'no such account');
    RETURN 'missing';
  END IF;
  IF v < p_amount THEN
    INSERT INTO history (acct, delta, note) VALUES (p_from, 0, 'refused');
    RETURN 'refused';
  END IF;
  UPDATE account SET balance = balance - p_amount WHERE id = p_from;
  UPDATE account SET balance = balance + p_amount WHERE id = p_to;
  INSERT INTO history (acct, delta, note) VALUES (p_from, -p_amount, 'out'), (p_to, p_amount, 'in');
  RETURN 'moved';
END $$;

-- The body's rows are undone when the CHECK fails; the handler's row stays.
CREATE FUNCTION spend(p_id integer, p_amount integer, p_times integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE done integer := 0;
BEGIN
  FOR i IN 1..p_times LOOP
    BEGIN
      INSERT INTO history (acct, delta, note, at_step) VALUES (p_id, -p_amount, 'spend', i);
      UPDATE account SET balance = balance - p_amount WHERE id = p_id;
      done := done + 1;
    EXCEPTION WHEN check_violation THEN
      INSERT INTO history (acct, delta, note, at_step) VALUES (p_id, 0, 'overdrawn', i);
    END;
  END LOOP;
  RETURN done;
END $$;

-- One row per account that the query finds.
CREATE FUNCTION audit(p_min integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE r record; n integer := 0;
BEGIN
  FOR r IN SELECT id, balance FROM account WHERE balance >= p_min ORDER BY id LOOP
    INSERT INTO history (acct, delta, note) VALUES (r.id, r.balance, 'audit');
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;

CREATE FUNCTION claim(p_name text, p_owner integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag VALUES (p_name, p_owner);
  RETURN 'claimed';
EXCEPTION WHEN unique_violation THEN
  RETURN SQLERRM;
END $$;

CREATE FUNCTION forget(p_acct integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  DELETE FROM history WHERE acct = p_acct AND note = 'refused';
  GET DIAGNOSTICS n = ROW_COUNT;
  UPDATE history SET note = note || '*' WHERE acct = p_acct AND note = 'in';
  RETURN n;
END $$;

--- calls: no_primary_key 300
SELECT * FROM account ORDER BY id;
SELECT acct, delta, note, at_step, count(*) FROM history GROUP BY acct, delta, note, at_step ORDER BY acct, delta, note, at_step;
SELECT note, count(*), sum(delta) FROM history GROUP BY note ORDER BY note;
SELECT * FROM tag ORDER BY name;
-- Money is conserved.
SELECT (SELECT sum(balance) FROM account) - (SELECT coalesce(sum(delta), 0) FROM history WHERE note = 'spend') AS total;

-- Ad hoc: duplicate rows are rows; UPDATE and DELETE reach all matching ones.
CREATE TABLE log (k integer, v text);
INSERT INTO log VALUES (1, 'a'), (1, 'a'), (2, 'b'), (NULL, NULL);
SELECT * FROM log ORDER BY k, v;
UPDATE log SET v = 'c' WHERE k = 1;
SELECT k, v, count(*) FROM log GROUP BY k, v ORDER BY k, v;
DELETE FROM log WHERE v = 'c' RETURNING k, v;
INSERT INTO log SELECT k + 10, v FROM log;
SELECT * FROM log ORDER BY k, v;
INSERT INTO log (k) SELECT g FROM generate_series(1, 3) g RETURNING k;
SELECT count(*), count(k), count(v) FROM log;
DELETE FROM log;
SELECT count(*) FROM log;
INSERT INTO tag VALUES ('x', 1), ('x', 2);
TRUNCATE history;
SELECT count(*) FROM history;
