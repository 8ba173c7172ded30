-- random(): its values differ between runs and from PostgreSQL's, so what is compared is
-- what does not depend on them: ranges, counts, distinctness, keys drawn from random()
-- that the write set must have found (hit counters whose total is the number of calls,
-- stock lines taken one per draw), a STRICT helper, calls that abort after drawing, a
-- DEFAULT random(), and comparisons with random() evaluated for each row as PostgreSQL
-- evaluates a volatile function.
CREATE TABLE hits (k integer PRIMARY KEY, n integer NOT NULL);
CREATE TABLE draws (id integer PRIMARY KEY, r double precision NOT NULL CHECK (r >= 0 AND r < 1),
                    d double precision DEFAULT random());
CREATE TABLE stock (id integer PRIMARY KEY, qty integer NOT NULL);
INSERT INTO stock SELECT g, 100 FROM generate_series(1, 30) g;

CREATE FUNCTION pick(lo integer, hi integer) RETURNS integer STRICT
LANGUAGE plpgsql AS $$
BEGIN
  RETURN lo + floor(random() * (hi - lo + 1))::integer;
END $$;

CREATE FUNCTION play(p_id integer, p_lines integer) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_k integer := pick(1, 20);
  item integer;
  x double precision;
BEGIN
  INSERT INTO hits VALUES (v_k, 1) ON CONFLICT (k) DO UPDATE SET n = hits.n + 1;
  FOR i IN 1..p_lines LOOP
    x := random();
    item := 1 + floor(x * 30)::integer;
    UPDATE stock SET qty = qty - 1 WHERE id = item;
  END LOOP;
  IF random() < 2 THEN
    INSERT INTO draws (id, r) VALUES (p_id, random());
  END IF;
  RETURN v_k BETWEEN 1 AND 20 AND pick(NULL, 5) IS NULL;
END $$;

--- calls: random 80
SELECT sum(n) FROM hits;
SELECT count(*) <= 20, min(k) >= 1, max(k) <= 20 FROM hits;
SELECT sum(100 - qty) FROM stock;
SELECT count(*), count(DISTINCT r), bool_and(r >= 0 AND r < 1), bool_and(d >= 0 AND d < 1) FROM draws;
UPDATE draws SET r = random() WHERE id <= 10;
SELECT count(*) FROM draws WHERE r >= 0 AND r < 1;
INSERT INTO draws (id, r) SELECT g, random() FROM generate_series(1001, 1010) g;
SELECT count(DISTINCT d) = count(*), count(*) FROM draws;
SELECT count(*) FROM (SELECT random() AS r FROM generate_series(1, 1000)) s WHERE r >= 0 AND r < 1;
SELECT count(DISTINCT r) FROM (SELECT random() AS r FROM generate_series(1, 1000)) s;
SELECT id FROM stock WHERE id = 1 + (random() * 0)::integer;
SELECT count(*) BETWEEN 0 AND 30 FROM stock WHERE random() < 0.5;
SELECT random() * 0, random() < 1;
DO $$ BEGIN IF random() < 1 THEN RAISE NOTICE 'drawn'; END IF; END $$;
