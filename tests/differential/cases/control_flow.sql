-- Control flow (WHILE, EXIT WHEN, CONTINUE, labels, nested IF/ELSIF) and set-returning
-- functions: RETURNS TABLE with RETURN NEXT, SETOF with RETURN QUERY.
CREATE TABLE score (player integer, round integer, pts integer NOT NULL, PRIMARY KEY (player, round));

CREATE FUNCTION play(p_player integer, p_rounds integer, p_seed integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_r integer := 0;
  v_x integer := p_seed;
  v_total integer := 0;
BEGIN
  WHILE v_r < p_rounds LOOP
    v_r := v_r + 1;
    v_x := (v_x * 31 + 7) % 101;
    CONTINUE WHEN v_x % 5 = 0;
    EXIT WHEN v_x > 95;
    IF v_x < 20 THEN
      v_total := v_total + 1;
    ELSIF v_x < 60 THEN
      v_total := v_total + 2;
    ELSE
      v_total := v_total + 3;
    END IF;
    INSERT INTO score VALUES (p_player, v_r, v_x) ON CONFLICT (player, round) DO UPDATE SET pts = score.pts + EXCLUDED.pts;
  END LOOP;
  RETURN v_total;
END $$;

CREATE FUNCTION leaderboard(p_player integer) RETURNS TABLE (r integer, p integer, running bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_sum bigint := 0;
BEGIN
  FOR i IN 1..5 LOOP
    SELECT pts INTO p FROM score WHERE player = p_player AND round = i;
    CONTINUE WHEN NOT FOUND;
    v_sum := v_sum + p;
    r := i;
    running := v_sum;
    RETURN NEXT;
  END LOOP;
END $$;

CREATE FUNCTION top_rounds(p_player integer, p_n integer) RETURNS SETOF integer
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT round FROM score WHERE player = p_player ORDER BY pts DESC, round LIMIT p_n;
END $$;

--- calls: control_flow 200
SELECT player, round, pts FROM score ORDER BY player, round;
