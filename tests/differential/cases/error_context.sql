-- Errors as PostgreSQL reports them with psql's default verbosity: DETAIL, HINT and the
-- PL/pgSQL CONTEXT lines ("SQL statement ..." when the SQL raised, then "PL/pgSQL
-- function f(types) line N at <statement>"), from every kind of statement, at either
-- level of a table statement (its SQL, or PL/pgSQL's INTO and STRICT), from DECLARE
-- defaults and from the conversion of a function's result.
CREATE TABLE ec (k integer PRIMARY KEY, v integer NOT NULL, note varchar(20));

CREATE FUNCTION trip(p_case integer, p_k integer, p_name varchar, p_amt numeric,
                     p_at timestamp, p_ids integer[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v integer;
  s smallint;
  t integer;
BEGIN
  IF p_case = 0 THEN
    INSERT INTO ec VALUES (p_k, p_k * 10, p_name) ON CONFLICT (k) DO UPDATE SET v = ec.v + 1;
    RETURN p_k;
  ELSIF p_case = 1 THEN
    v := 10 / (p_k - p_k);
  ELSIF p_case = 2 THEN
    IF 10 / (p_k - p_k) > 0 THEN
      v := 1;
    END IF;
  ELSIF p_case = 3 THEN
    SELECT ec.v / (k - p_k) INTO v FROM ec WHERE k = p_k;
  ELSIF p_case = 4 THEN
    SELECT ec.v * 100000 INTO s FROM ec WHERE k = p_k;
  ELSIF p_case = 5 THEN
    SELECT ec.v INTO STRICT v FROM ec WHERE k = p_k;
  ELSIF p_case = 6 THEN
    INSERT INTO ec VALUES (p_k, 1, p_name);
  ELSIF p_case = 7 THEN
    UPDATE ec SET v = NULL WHERE k = p_k;
  ELSIF p_case = 8 THEN
    INSERT INTO ec VALUES (p_k + 1000, NULL, p_name);
  ELSIF p_case = 9 THEN
    PERFORM 1 / (ec.v - ec.v) FROM ec WHERE k = p_k;
  ELSIF p_case = 10 THEN
    FOR i IN 1 .. v LOOP
      t := i;
    END LOOP;
  ELSIF p_case = 11 THEN
    FOREACH t IN ARRAY p_ids LOOP
      v := 100 / t;
    END LOOP;
  ELSIF p_case = 12 THEN
    WHILE 1 / (p_k - p_k) > 0 LOOP
      v := 1;
    END LOOP;
  ELSIF p_case = 13 THEN
    LOOP
      EXIT WHEN 1 / (p_k - p_k) > 0;
    END LOOP;
  ELSIF p_case = 14 THEN
    RAISE EXCEPTION 'trip % at %', p_k, p_at USING DETAIL = 'name ' || p_name, HINT = 'amount ' || p_amt;
  ELSIF p_case = 15 THEN
    ASSERT p_k < 0, 'k must be negative';
  ELSIF p_case = 16 THEN
    CASE p_k
      WHEN -1 THEN v := 1;
    END CASE;
  ELSIF p_case = 17 THEN
    DELETE FROM ec WHERE k = p_k RETURNING ec.v INTO STRICT v;
  ELSIF p_case = 18 THEN
    UPDATE ec SET v = ec.v + 1 WHERE k = p_k RETURNING ec.v / (ec.k - p_k) INTO v;
  ELSIF p_case = 19 THEN
    RETURN 10 / (p_k - p_k);
  ELSIF p_case = 20 THEN
    RETURN p_amt;
  END IF;
  RETURN v;
END $$;

CREATE FUNCTION init_trip(p_d integer, p_n integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  a integer := 1;
  b integer := 100 / p_d;

  c integer NOT NULL := p_n;
BEGIN
  IF p_d = 5 THEN
    DECLARE
      y integer := 2;
      z integer := 10 / (p_d - 5);
    BEGIN
      RETURN y + z;
    END;
  END IF;
  RETURN a + b + c;
END $$;

CREATE PROCEDURE move_ec(p_from integer, p_to integer, INOUT p_moved integer)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ec SET v = v - 1 WHERE k = p_from;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no row %', p_from USING ERRCODE = 'no_data_found';
  END IF;
  UPDATE ec SET v = v + 1 WHERE k = p_to;
  p_moved := p_moved + 1;
END $$;

CREATE FUNCTION ec_ratio(p_d integer) RETURNS TABLE (o_k integer, o_r integer)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT k, v / (k - p_d) FROM ec WHERE k >= p_d - 1 AND k <= p_d + 1 ORDER BY k;
  o_k := 0;
  o_r := 100 / (p_d % 3);
  RETURN NEXT;
END $$;

CREATE FUNCTION ec_div(p_d integer) RETURNS SETOF integer
LANGUAGE plpgsql AS $$
BEGIN
  RETURN NEXT p_d;
  RETURN NEXT 10 / p_d;
END $$;

--- calls: error_context 300

SELECT k, v, note FROM ec ORDER BY k;

-- PostgreSQL 14+: CALL passes a procedure's OUT parameters too, as placeholders that
-- are converted and not used
CREATE PROCEDURE ec_out(p_k integer, OUT o_v integer, OUT o_note text)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT v, note INTO o_v, o_note FROM ec WHERE k = p_k;
END $$;
CALL ec_out(1, NULL, NULL);
CALL ec_out(2, 5, 'ignored');
CALL ec_out(1);
CALL ec_out(1, 'x', NULL);
CREATE FUNCTION ec_int(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
SELECT ec_int('12');
SELECT ec_int('x');
