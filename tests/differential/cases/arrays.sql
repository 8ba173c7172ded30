-- Loop key classes: FOR i IN 1..array_length and FOREACH over array parameters; NULL
-- elements; an empty array. Arrays built in the body: element assignment (v[i] := x)
-- and || (append, prepend, concatenation).
CREATE TABLE counter (id integer PRIMARY KEY, n bigint NOT NULL);

CREATE FUNCTION bump_all(p_ids integer[], p_by bigint[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_total bigint := 0;
BEGIN
  FOR i IN 1..COALESCE(array_length(p_ids, 1), 0) LOOP
    UPDATE counter SET n = n + COALESCE(p_by[i], 0) WHERE id = p_ids[i];
    v_total := v_total + COALESCE(p_by[i], 0);
  END LOOP;
  RETURN v_total;
END $$;

CREATE FUNCTION create_all(p_ids integer[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
  v_made integer := 0;
BEGIN
  FOREACH v_id IN ARRAY p_ids LOOP
    INSERT INTO counter VALUES (v_id, 0) ON CONFLICT (id) DO NOTHING;
    IF FOUND THEN
      v_made := v_made + 1;
    END IF;
  END LOOP;
  RETURN v_made;
END $$;

CREATE FUNCTION sum_of(p_ids integer[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id integer;
  v_n bigint;
  v_sum bigint := 0;
BEGIN
  FOREACH v_id IN ARRAY p_ids LOOP
    SELECT n INTO v_n FROM counter WHERE id = v_id;
    v_sum := v_sum + COALESCE(v_n, 0);
  END LOOP;
  RETURN v_sum;
END $$;

-- Reads every counter into v_before (NULL where it is missing), collects the ids found
-- with ||, then bumps those. p_by = 0 assigns to a NULL subscript, which raises after
-- the reads and before any write.
CREATE FUNCTION snapshot_bump(p_ids integer[], p_by bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_before bigint[];
  v_found integer[] := '{}';
  v_n bigint;
BEGIN
  FOR i IN 1..COALESCE(array_length(p_ids, 1), 0) LOOP
    SELECT n INTO v_n FROM counter WHERE id = p_ids[i];
    IF FOUND THEN
      v_before[i] := v_n;
      v_found := v_found || p_ids[i];
    ELSE
      v_before[i] := NULL;
    END IF;
  END LOOP;
  v_before[CASE WHEN p_by = 0 THEN NULL ELSE 1 END] := v_before[1];
  FOR i IN 1..COALESCE(array_length(p_ids, 1), 0) LOOP
    IF v_before[i] IS NOT NULL THEN
      UPDATE counter SET n = n + p_by WHERE id = p_ids[i];
    END IF;
  END LOOP;
  RETURN v_before::text || ' ' || (0 || v_found || ARRAY[-1])::text || ' ' || array_cat(v_found, v_found)::text;
END $$;

--- calls: arrays 300
SELECT id, n FROM counter ORDER BY id;
