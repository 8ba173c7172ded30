-- Range updates and range deletes on a key prefix racing inserts into the same range:
-- each call must see exactly the rows that exist at its place in the serial order.
CREATE TABLE event (grp integer, seq integer, v integer NOT NULL, tag char(4),
                    PRIMARY KEY (grp, seq));

CREATE FUNCTION ev_add(p_grp integer, p_seq integer, p_v integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event VALUES (p_grp, p_seq, p_v, 'new') ON CONFLICT (grp, seq) DO UPDATE SET v = EXCLUDED.v;
END $$;

CREATE FUNCTION ev_bump(p_grp integer, p_lo integer, p_hi integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE event SET v = v + 1, tag = 'bmp' WHERE grp = p_grp AND seq >= p_lo AND seq <= p_hi;
END $$;

CREATE FUNCTION ev_trim(p_grp integer, p_below integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event WHERE grp = p_grp AND seq < p_below;
END $$;

CREATE FUNCTION ev_clear(p_grp integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM event WHERE grp = p_grp;
END $$;

CREATE FUNCTION ev_stats(p_grp integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_n bigint;
  v_sum bigint;
  v_max integer;
BEGIN
  SELECT count(*), sum(v), max(seq) INTO v_n, v_sum, v_max FROM event WHERE grp = p_grp;
  RETURN v_n || ' rows, sum ' || COALESCE(v_sum::text, 'null') || ', max seq ' || COALESCE(v_max::text, 'null');
END $$;

-- Range statements after the same call's own inserts into the range: they see those
-- rows (and a SELECT between them sees the UPDATE's new values).
CREATE FUNCTION ev_add_settle(p_grp integer, p_seqs integer[], p_below integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_seq integer;
  v_n bigint;
  v_sum bigint;
  v_after bigint;
BEGIN
  FOREACH v_seq IN ARRAY p_seqs LOOP
    INSERT INTO event VALUES (p_grp, v_seq, v_seq * 10, 'own') ON CONFLICT DO NOTHING;
  END LOOP;
  SELECT count(*), sum(v) INTO v_n, v_sum FROM event WHERE grp = p_grp;
  UPDATE event SET v = v + 100, tag = 'set' WHERE grp = p_grp;
  SELECT sum(v) INTO v_after FROM event WHERE grp = p_grp;
  DELETE FROM event WHERE grp = p_grp AND seq < p_below;
  -- A scan that stops early, then a write of its whole range.
  PERFORM 1 FROM event WHERE grp = p_grp LIMIT 1;
  UPDATE event SET v = v - 1 WHERE grp = p_grp;
  RETURN v_n || ' rows, sum ' || COALESCE(v_sum::text, 'null') || ' then ' || COALESCE(v_after::text, 'null');
END $$;

-- RETURNING ... INTO of a range write takes at most one row (STRICT or not), and
-- SELECT ... INTO STRICT exactly one: both raise P0003 with PostgreSQL's HINT.
CREATE FUNCTION ev_take(p_grp integer, p_lo integer, p_hi integer, p_strict boolean) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_seq integer;
  v_total bigint;
BEGIN
  SELECT sum(v) INTO v_total FROM event WHERE grp = p_grp AND seq >= p_lo AND seq <= p_hi;
  IF p_strict THEN
    SELECT seq INTO STRICT v_seq FROM event WHERE grp = p_grp AND seq >= p_lo AND seq <= p_hi;
  END IF;
  UPDATE event SET v = v + 1 WHERE grp = p_grp AND seq >= p_lo AND seq <= p_hi RETURNING seq INTO v_seq;
  RETURN COALESCE(v_total::text, 'null') || ' ' || COALESCE(v_seq::text, 'none');
END $$;

--- calls: ranges 400
SELECT grp, seq, v, tag FROM event ORDER BY grp, seq;
