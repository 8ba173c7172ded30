-- to_char of numbers: digit positions (9, 0), the point and group separators, FM, the
-- sign patterns (default slot, S, MI, SG, PL, PR), ordinal suffixes, literal text,
-- overflow (#), rounding, integers, numerics and doubles; in a procedure too.
CREATE TABLE amounts (id integer PRIMARY KEY, amount numeric(12,3), shown text);
INSERT INTO amounts VALUES (1, 1234567.891, NULL), (2, -0.5, NULL), (3, 0, NULL), (4, 99.999, NULL), (5, NULL, NULL);
CREATE FUNCTION show_amount(p_id integer, p_format text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v text;
BEGIN
  UPDATE amounts SET shown = '[' || to_char(amount, p_format) || ']' WHERE id = p_id RETURNING shown INTO v;
  RETURN v;
END $$;
SELECT show_amount(1, '9,999,999.99');
SELECT show_amount(2, 'FM990.00');
SELECT show_amount(3, '999');
SELECT show_amount(4, '99.99');
SELECT show_amount(5, '999');
SELECT show_amount(1, 'FM9G999G999D9');
SELECT id, shown FROM amounts ORDER BY id;
SELECT '[' || to_char(12, '999') || ']', '[' || to_char(0, '999') || ']', '[' || to_char(0.5, '9.99') || ']', '[' || to_char(-0.5, '9.99') || ']', '[' || to_char(12345, '999') || ']', '[' || to_char(-12.5, '999.99') || ']';
SELECT '[' || to_char(1234567.891, '9,999,999.99') || ']', '[' || to_char(12, '9,999') || ']', '[' || to_char(12.5, 'FM999.99') || ']', '[' || to_char(12, 'FM99.99') || ']', '[' || to_char(12.5, 'FM999.00') || ']', '[' || to_char(5, '000') || ']', '[' || to_char(-5, '000') || ']';
SELECT '[' || to_char(12, 'S999') || ']', '[' || to_char(-12, '999MI') || ']', '[' || to_char(12, '999MI') || ']', '[' || to_char(-12, '999PR') || ']', '[' || to_char(12, 'PL999') || ']', '[' || to_char(-12, 'SG999') || ']', '[' || to_char(3, '9th') || ']', '[' || to_char(485, 'FM999TH') || ']';
SELECT '[' || to_char(1234.5, 'FM9G999D99') || ']', '[' || to_char(0.05, 'FM0.00') || ']', '[' || to_char(-0.05, 'FM990.00') || ']', '[' || to_char(99.999, '99.99') || ']', '[' || to_char(1.5::float8, '9.9') || ']', '[' || to_char(2.5::float8, '9') || ']', '[' || to_char(125::int, '9,99') || ']';
SELECT '[' || to_char(100, 'FM999,999') || ']', '[' || to_char(1000, 'FM999,999') || ']', '[' || to_char(-1000, 'FM999,999') || ']', '[' || to_char(0, 'FM999') || ']', '[' || to_char(0, 'FM990.99') || ']', '[' || to_char(12, '"Total: "999') || ']';
SELECT '[' || to_char(12, '999S') || ']', '[' || to_char(-12, 'S999') || ']', '[' || to_char(12, '999PR') || ']', '[' || to_char(-12, 'PL999') || ']', '[' || to_char(-1234.567, 'FM9,999.999') || ']';
SELECT '[' || to_char(1234.5::real, '9999.9') || ']', '[' || to_char(-0.001, '9.99') || ']', '[' || to_char(9223372036854775807, '9999999999999999999') || ']', '[' || to_char(12.345, '99D9') || ']';
SELECT '[' || to_char(x, 'FM$999,990.00') || ']' from (values (0), (5.5), (1234.567)) v(x);
SELECT to_char(NULL::numeric, '999'), to_char(5, NULL);
