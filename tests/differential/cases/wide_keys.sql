-- Point keys compiled code builds itself: a key longer than a Key's inline bytes (eight
-- bigint columns, 64 bytes, made by the runtime) and a short one with smallint, integer
-- and bigint parts (written in place), with negative and extreme values, through every
-- point statement: INSERT (declared), SELECT INTO, UPDATE (ApplyRowUpdate) and DELETE.
CREATE TABLE wide (a bigint, b bigint, c bigint, d bigint, e bigint, f bigint, g bigint, h bigint,
                   v bigint NOT NULL, PRIMARY KEY (a, b, c, d, e, f, g, h));
CREATE TABLE mixed (s smallint, i integer, l bigint, v bigint NOT NULL, PRIMARY KEY (s, i, l));

CREATE FUNCTION wide_put(p_a bigint, p_h bigint, p_v bigint) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_v bigint;
BEGIN
  SELECT v INTO v_v FROM wide WHERE a = p_a AND b = -p_a AND c = 3 AND d = 4 AND e = 5 AND f = 6 AND g = 7 AND h = p_h;
  IF FOUND THEN
    UPDATE wide SET v = v + p_v WHERE a = p_a AND b = -p_a AND c = 3 AND d = 4 AND e = 5 AND f = 6 AND g = 7 AND h = p_h;
    RETURN 1;
  END IF;
  INSERT INTO wide VALUES (p_a, -p_a, 3, 4, 5, 6, 7, p_h, p_v);
  RETURN 0;
END $$;

CREATE FUNCTION wide_del(p_a bigint, p_b bigint, p_h bigint) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM wide WHERE a = p_a AND b = p_b AND c = 3 AND d = 4 AND e = 5 AND f = 6 AND g = 7 AND h = p_h;
  IF FOUND THEN
    RETURN 1;
  END IF;
  RETURN 0;
END $$;

CREATE FUNCTION mixed_put(p_s smallint, p_i integer, p_l bigint, p_v bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_v bigint;
BEGIN
  SELECT v INTO v_v FROM mixed WHERE s = p_s AND i = p_i AND l = p_l;
  IF NOT FOUND THEN
    INSERT INTO mixed VALUES (p_s, p_i, p_l, p_v);
    RETURN -1;
  END IF;
  UPDATE mixed SET v = v + p_v WHERE s = p_s AND i = p_i AND l = p_l;
  RETURN v_v;
END $$;

CREATE FUNCTION mixed_del(p_s smallint, p_i integer, p_l bigint) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mixed WHERE s = p_s AND i = p_i AND l = p_l;
  IF FOUND THEN
    RETURN 1;
  END IF;
  RETURN 0;
END $$;

--- calls: wide_keys 300
SELECT * FROM wide ORDER BY a, b, c, d, e, f, g, h;
SELECT * FROM mixed ORDER BY s, i, l;
