-- Point writes of every kind on a small table with one hot row: upserts (ON CONFLICT DO
-- UPDATE), read-modify-write increments (ApplyRowUpdate candidates), deletes, reads.
CREATE TABLE kv (k integer PRIMARY KEY, v bigint NOT NULL, note text);

CREATE FUNCTION kv_put(p_k integer, p_v bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO kv (k, v, note) VALUES (p_k, p_v, 'put')
    ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, note = kv.note || '+';
END $$;

CREATE PROCEDURE kv_add(p_k integer, p_d bigint) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kv SET v = v + p_d WHERE k = p_k;
END $$;

CREATE FUNCTION kv_get(p_k integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_v bigint;
BEGIN
  SELECT v INTO v_v FROM kv WHERE k = p_k;
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  RETURN v_v;
END $$;

CREATE FUNCTION kv_del(p_k integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM kv WHERE k = p_k;
  IF FOUND THEN
    RETURN 1;
  END IF;
  RETURN 0;
END $$;

INSERT INTO kv VALUES (0, 0, 'hot');
--- calls: kv_hot 400
SELECT k, v, note FROM kv ORDER BY k;
