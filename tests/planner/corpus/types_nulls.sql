-- Types in procedures: PostgreSQL's assignment casts, numeric(p,s) scales, NULLs.
CREATE TABLE price (id integer PRIMARY KEY, amount numeric(8,2), code varchar(4));

-- 29. numeric arithmetic keeps PostgreSQL's scales; assignment rounds to the target
CREATE FUNCTION money(p_a numeric, p_b integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_rate numeric(6,4) := p_a / 3;
  v_total numeric(10,2);
BEGIN
  v_total := p_b * v_rate;
  RETURN format('%s %s %s %s', v_rate, v_total, p_a * p_b, p_a / p_b);
END $$;
SELECT money(1, 7);
SELECT money(2.5, 3);
SELECT money(1, 0);

-- 30. NULLs: three-valued logic, COALESCE, NOT NULL variables
CREATE FUNCTION nulls(p_x integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_safe integer NOT NULL := 0;
BEGIN
  IF p_x > 0 OR p_x IS NULL THEN
    v_safe := COALESCE(p_x, -1);
  END IF;
  RETURN format('%s|%s|%s', v_safe, p_x + 1 IS NULL, NULLIF(p_x, 5));
END $$;
SELECT nulls(NULL);
SELECT nulls(5);
SELECT nulls(-3);

-- 31. assignment errors surface at run time with PostgreSQL's messages
CREATE FUNCTION store(p_id integer, p_amount numeric, p_code text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO price VALUES (p_id, p_amount, p_code);
END $$;
SELECT store(1, 12.345, 'ab');
SELECT store(2, 1234567.1, 'ab');
SELECT store(3, 1, 'abcdef');
SELECT * FROM price ORDER BY id;

-- 32. CASE statement, simple and searched, and ASSERT
CREATE FUNCTION classify(p_n integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v text;
BEGIN
  CASE p_n
    WHEN 1, 2 THEN v := 'small';
    WHEN 3 THEN v := 'three';
    ELSE v := 'other';
  END CASE;
  CASE
    WHEN p_n < 0 THEN v := v || '-';
    WHEN p_n >= 0 THEN v := v || '+';
  END CASE;
  ASSERT p_n <> 99, 'ninety-nine';
  RETURN v;
END $$;
SELECT classify(2);
SELECT classify(3);
SELECT classify(-4);
SELECT classify(99);
SELECT classify(NULL);
