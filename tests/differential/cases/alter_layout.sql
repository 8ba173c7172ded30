-- ALTER TABLE that rebuilds a table's rows: ADD PRIMARY KEY on a table created without
-- one (pgbench's initialisation), ADD COLUMN with a default and constraints, DROP
-- COLUMN (its indexes and CHECKs go with it), ALTER COLUMN ... TYPE [USING]; procedures
-- using the table are compiled again and run on the new layout.
CREATE TABLE branches (bid integer NOT NULL, bbalance integer, filler char(88));
CREATE TABLE tellers (tid integer NOT NULL, bid integer, tbalance integer, filler char(84));
CREATE TABLE hist (tid integer, bid integer, delta integer, mtime timestamp, filler char(22));
INSERT INTO branches SELECT g, 0, NULL FROM generate_series(1, 3) g;
INSERT INTO tellers SELECT g, (g - 1) / 4 + 1, 0, NULL FROM generate_series(1, 12) g;
ALTER TABLE branches ADD PRIMARY KEY (bid);
ALTER TABLE tellers ADD PRIMARY KEY (tid);
CREATE INDEX tellers_bid ON tellers (bid);

CREATE FUNCTION pay(p_tid integer, p_delta integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE v_bid integer; v integer;
BEGIN
  SELECT bid INTO v_bid FROM tellers WHERE tid = p_tid;
  IF NOT FOUND THEN RETURN NULL; END IF;
  UPDATE tellers SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE branches SET bbalance = bbalance + p_delta WHERE bid = v_bid RETURNING bbalance INTO v;
  INSERT INTO hist (tid, bid, delta, mtime) VALUES (p_tid, v_bid, p_delta, '2026-01-01 00:00:00');
  RETURN v;
END $$;

-- Changed under it below: a column added, the type of another changed.
ALTER TABLE tellers ADD COLUMN visits integer NOT NULL DEFAULT 0, ADD COLUMN label text DEFAULT 'teller';
ALTER TABLE tellers ALTER COLUMN tbalance TYPE bigint;
ALTER TABLE branches DROP COLUMN filler;
CREATE FUNCTION visit(p_tid integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  UPDATE tellers SET visits = visits + 1 WHERE tid = p_tid RETURNING tbalance INTO v;
  RETURN v;
END $$;

--- calls: alter_layout 200
SELECT * FROM branches ORDER BY bid;
SELECT tid, bid, tbalance, visits, label FROM tellers ORDER BY tid;
SELECT bid, count(*), sum(delta) FROM hist GROUP BY bid ORDER BY bid;
-- The invariant pgbench checks.
SELECT (SELECT sum(bbalance) FROM branches) = (SELECT sum(tbalance) FROM tellers) AND
       (SELECT sum(tbalance) FROM tellers) = (SELECT coalesce(sum(delta), 0) FROM hist) AS balanced;

-- After the calls: more layout changes, and the rows they check.
ALTER TABLE tellers ALTER COLUMN label TYPE varchar(3) USING upper(substr(label, 1, 3));
SELECT DISTINCT label FROM tellers;
ALTER TABLE tellers ALTER COLUMN label TYPE integer;
ALTER TABLE hist ALTER COLUMN delta TYPE text;
SELECT delta || '!' FROM hist ORDER BY tid, mtime, delta LIMIT 1;
ALTER TABLE hist ALTER COLUMN delta TYPE integer USING delta::integer;
ALTER TABLE tellers ADD COLUMN rank integer CHECK (rank > 0);
ALTER TABLE tellers ADD COLUMN must integer NOT NULL;
ALTER TABLE tellers ADD COLUMN code integer UNIQUE;
UPDATE tellers SET code = tid % 5;
UPDATE tellers SET code = tid;
ALTER TABLE tellers ADD COLUMN IF NOT EXISTS code integer;
ALTER TABLE tellers DROP COLUMN IF EXISTS nosuch;
ALTER TABLE tellers DROP COLUMN nosuch;
ALTER TABLE tellers ADD COLUMN tid integer;
ALTER TABLE tellers DROP COLUMN code;
INSERT INTO tellers (tid, bid, tbalance) VALUES (100, 1, 5) RETURNING *;
ALTER TABLE tellers ADD COLUMN nums integer DEFAULT 3 CHECK (nums < 3);
ALTER TABLE tellers ADD CONSTRAINT tb_pos CHECK (tbalance >= -100000), DROP COLUMN label;
SELECT * FROM tellers WHERE tid IN (1, 100) ORDER BY tid;
ALTER TABLE tellers ADD PRIMARY KEY (bid);
CREATE TABLE dup (a integer, b integer);
INSERT INTO dup VALUES (2, 1), (1, 1), (2, 2), (3, 3), (NULL, 4);
ALTER TABLE dup ADD PRIMARY KEY (a);
DELETE FROM dup WHERE a IS NULL;
ALTER TABLE dup ADD PRIMARY KEY (a);
DELETE FROM dup WHERE b > 1;
ALTER TABLE dup ADD PRIMARY KEY (a, b);
ALTER TABLE dup ADD PRIMARY KEY (a);
INSERT INTO dup VALUES (2, 9);
ALTER TABLE dup ALTER COLUMN a TYPE bigint;
SELECT * FROM dup ORDER BY a;
