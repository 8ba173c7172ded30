-- Secondary indexes whose new entries a call cannot name before it runs: a new indexed
-- value read from another row, computed from the row itself (an ApplyRowUpdate
-- candidate), taken from EXCLUDED, or written by a range UPDATE, racing index scans in
-- the same epoch (before and after the write in serial order) and in later ones.
CREATE TABLE acct (id integer PRIMARY KEY, owner text NOT NULL, region integer NOT NULL,
                   bal integer NOT NULL);
CREATE INDEX acct_owner ON acct (owner);
CREATE INDEX acct_region_bal ON acct (region, bal);
INSERT INTO acct VALUES (1, 'ann', 1, 10), (2, 'bob', 1, 20), (3, 'ann', 2, 30), (4, 'cy', 2, 40);

CREATE FUNCTION acct_open(p_id integer, p_owner text, p_region integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct VALUES (p_id, p_owner, p_region, 0) ON CONFLICT (id) DO NOTHING;
END $$;

CREATE FUNCTION acct_owner_like(p_id integer, p_from integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE o text; n bigint;
BEGIN
  SELECT owner INTO o FROM acct WHERE id = p_from;
  UPDATE acct SET owner = o WHERE id = p_id;
  SELECT count(*) INTO n FROM acct WHERE owner = o;
  RETURN COALESCE(o, 'none') || ' ' || n;
END $$;

CREATE FUNCTION acct_shout(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET owner = upper(owner) WHERE id = p_id;
END $$;

CREATE FUNCTION acct_deposit(p_id integer, p_amount integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET bal = bal + p_amount WHERE id = p_id;
END $$;

CREATE FUNCTION acct_move(p_lo integer, p_hi integer, p_region integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE acct SET region = p_region WHERE id >= p_lo AND id <= p_hi;
END $$;

CREATE FUNCTION acct_rename(p_id integer, p_owner text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO acct VALUES (p_id, p_owner, 1, 0)
    ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner || '.';
END $$;

CREATE FUNCTION acct_close(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM acct WHERE id = p_id;
END $$;

CREATE FUNCTION acct_report(p_owner text, p_region integer, p_min integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE n bigint; total bigint; ids integer[];
BEGIN
  SELECT count(*), sum(bal) INTO n, total FROM acct WHERE owner = p_owner;
  SELECT array_agg(id ORDER BY id) INTO ids FROM acct WHERE region = p_region AND bal >= p_min;
  RETURN n || ' ' || COALESCE(total::text, 'null') || ' ' || COALESCE(ids::text, '{}');
END $$;

--- calls: indexes 400
SELECT id, owner, region, bal FROM acct ORDER BY id;
SELECT owner, count(*) FROM acct GROUP BY owner ORDER BY owner;
SELECT acct_report('ann', 1, 0);
SELECT acct_report('ANN', 2, 0);
SELECT acct_report('cy.', 3, -100);
-- Ad hoc, through the indexes' snapshot scans: entries left behind by renames and moves
-- must not show.
SELECT id, bal FROM acct WHERE owner = 'ann' ORDER BY id;
SELECT id, owner FROM acct WHERE owner = 'ANN' ORDER BY id;
SELECT id, bal FROM acct WHERE region = 2 AND bal > 15 ORDER BY bal, id;
SELECT id FROM acct WHERE region = 3 ORDER BY id;
SELECT DISTINCT region FROM acct WHERE owner = 'bob' ORDER BY region;
SELECT DISTINCT owner, region FROM acct ORDER BY owner DESC, region LIMIT 5;
