-- Loop keys: point writes inside FOR i IN a..b and FOREACH x IN ARRAY, enumerated by
-- the init program for the call's arguments.
CREATE TABLE slot (k integer PRIMARY KEY, hits bigint NOT NULL DEFAULT 0);

-- 5. FOR over parameter bounds
CREATE FUNCTION fill(p_from integer, p_to integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN p_from..p_to LOOP
    INSERT INTO slot (k) VALUES (i) ON CONFLICT DO NOTHING;
  END LOOP;
END $$;
EXPLAIN PROCEDURE fill;

-- 6. FOREACH over an array parameter, an ApplyRowUpdate candidate
CREATE FUNCTION hit(p_keys integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_k integer;
BEGIN
  FOREACH v_k IN ARRAY p_keys LOOP
    UPDATE slot SET hits = hits + 1 WHERE k = v_k;
  END LOOP;
END $$;
EXPLAIN PROCEDURE hit;

-- 7. REVERSE, BY, an EXIT decided by a parameter and nested loops
CREATE FUNCTION grid(p_n integer, p_stop integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_count integer := 0;
BEGIN
  <<outer>>
  FOR i IN REVERSE p_n..1 BY 2 LOOP
    FOR j IN 1..2 LOOP
      EXIT outer WHEN i * 10 + j = p_stop;
      INSERT INTO slot (k, hits) VALUES (i * 10 + j, 1) ON CONFLICT (k) DO UPDATE SET hits = slot.hits + 1;
      v_count := v_count + 1;
    END LOOP;
  END LOOP;
  RETURN v_count;
END $$;
EXPLAIN PROCEDURE grid;

-- 8. a WHILE loop whose condition is computed from the parameters
CREATE FUNCTION evens(p_n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_i integer := 0;
BEGIN
  WHILE v_i < p_n LOOP
    v_i := v_i + 2;
    UPDATE slot SET hits = hits * 2 WHERE k = v_i;
  END LOOP;
END $$;
EXPLAIN PROCEDURE evens;

SELECT fill(1, 6);
SELECT hit(ARRAY[1, 2, 2, 9]);
SELECT grid(5, 32);
SELECT evens(5);
EXPLAIN CALL grid(5, 32);
SELECT * FROM slot ORDER BY k;
