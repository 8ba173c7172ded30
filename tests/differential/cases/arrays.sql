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

-- op ANY / ALL (array): PostgreSQL's NULL rules, element conversion (int[] against
-- numeric), in WHERE (a write's WHERE scans the range) and in conditions
SELECT id FROM counter WHERE id = ANY (ARRAY[1, 3, 99]) ORDER BY id;
SELECT id FROM counter WHERE id <> ALL ('{1,2,3}') ORDER BY id LIMIT 3;
SELECT 1 = ANY ('{}'::integer[]), NULL::integer = ANY ('{}'::integer[]), 1 = ALL ('{}'::integer[]),
       1 = ANY (NULL::integer[]), NULL::integer = ANY (ARRAY[1]), 2 = ANY (ARRAY[1, NULL]), 1 = ANY (ARRAY[1, NULL]),
       1 = ALL (ARRAY[1, NULL]), 2 = ALL (ARRAY[1, NULL]), 2.0 = ANY (ARRAY[2]), 2.5 > ALL (ARRAY[1, 2]),
       'b' = ANY ('{a,b}'), 'b'::char(3) = ANY (ARRAY['b', 'c']);
SELECT 1 + ANY (ARRAY[1]);
SELECT 1 = ANY (1);
CREATE FUNCTION reset_some(p_ids integer[], p_keep integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_n bigint := 0;
BEGIN
  UPDATE counter SET n = 0 WHERE id = ANY (p_ids) AND id <> ALL (p_keep);
  IF 3 = ANY (p_ids) AND NOT (3 = ANY (p_keep)) THEN
    v_n := 3;
  END IF;
  RETURN v_n || ':' || (NULL::integer = ANY (p_keep) IS NULL)::text || ':' || (1.0 = ANY (p_ids))::text;
END $$;
SELECT reset_some(ARRAY[1, 2, 3], ARRAY[2]);
SELECT reset_some(ARRAY[5], '{}');
SELECT id, n FROM counter WHERE id <= 5 ORDER BY id;
-- an integer array assigned to a numeric[] variable converts its elements
CREATE FUNCTION thirds(p_ids integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  q numeric[];
BEGIN
  q := p_ids;
  RETURN (q[1] / 3)::text || ' ' || (q[2] * 1.5)::text;
END $$;
SELECT thirds(ARRAY[7, 8]);
