-- numeric(p,s) arithmetic and rounding, integer division, NULL propagation, COALESCE,
-- CASE, GREATEST/LEAST, string functions and casts, written back into typed columns.
CREATE TABLE ledger (id integer PRIMARY KEY, amount numeric(10,2), rate numeric(6,4),
                     label varchar(12), flag boolean, qty smallint, ratio double precision);

CREATE FUNCTION apply_rate(p_id integer, p_rate numeric, p_label text) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
  v_amount numeric(10,2);
  v_new numeric(10,2);
BEGIN
  SELECT amount INTO v_amount FROM ledger WHERE id = p_id;
  v_new := v_amount * (1 + p_rate);
  UPDATE ledger
     SET amount = v_new,
         rate = p_rate,
         label = left(COALESCE(p_label, label, 'none') || '/' || (p_id % 7)::text, 12),
         flag = CASE WHEN v_new IS NULL THEN NULL ELSE v_new > 100 END,
         qty = GREATEST(LEAST(COALESCE(qty, 0) + p_id / 3, 30000), -30000),
         ratio = CASE WHEN v_amount IS NULL OR v_amount = 0 THEN NULL ELSE round((v_new / v_amount)::numeric, 6)::double precision END
   WHERE id = p_id;
  RETURN v_new;
END $$;

CREATE FUNCTION describe(p_id integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_row_amount numeric(10,2);
  v_label varchar(12);
  v_flag boolean;
BEGIN
  SELECT amount, label, flag INTO v_row_amount, v_label, v_flag FROM ledger WHERE id = p_id;
  RETURN format('%s: %s %s %s', p_id, COALESCE(v_row_amount::text, '<null>'), upper(COALESCE(v_label, '?')),
                CASE WHEN v_flag THEN 'big' WHEN NOT v_flag THEN 'small' ELSE 'unknown' END)
         || ' ' || length(COALESCE(v_label, '')) || ' ' || (COALESCE(v_row_amount, 0) / 3)::numeric(10,3)
         -- a boolean prints as t/f (concat, format) but casts to true/false (::text, ||)
         || ' ' || concat(v_flag, '/', format('%s', v_flag), '/', v_flag::text) || COALESCE(' ' || v_flag, '');
END $$;

INSERT INTO ledger (id, amount, label) VALUES (1, 10.00, 'a'), (2, NULL, NULL), (3, 99.99, 'ccc'),
  (4, 0.01, 'd'), (5, 123456.78, NULL), (6, -5.50, 'neg'), (7, 0, 'zero');
--- calls: numeric_nulls 200
SELECT id, amount, rate, label, flag, qty, ratio FROM ledger ORDER BY id;
-- RETURNING over no row: the header and no row
UPDATE ledger SET amount = 0 WHERE id = -1 RETURNING id, amount;
DELETE FROM ledger WHERE id = -1 RETURNING id;
-- IS [NOT] DISTINCT FROM: NULL-safe comparison, ad hoc and compiled
SELECT id, amount IS DISTINCT FROM 0, label IS NOT DISTINCT FROM NULL, amount IS NOT DISTINCT FROM rate
  FROM ledger ORDER BY id;
CREATE FUNCTION nn_set_amount(p_id integer, p_amount numeric) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_old numeric;
BEGIN
  SELECT amount INTO v_old FROM ledger WHERE id = p_id;
  IF v_old IS NOT DISTINCT FROM p_amount THEN
    RETURN false;
  END IF;
  UPDATE ledger SET amount = p_amount WHERE id = p_id AND amount IS DISTINCT FROM p_amount;
  RETURN FOUND;
END $$;
SELECT nn_set_amount(2, NULL);
SELECT nn_set_amount(2, 3.25);
SELECT nn_set_amount(2, 3.25);
SELECT nn_set_amount(1, NULL);
SELECT id, amount FROM ledger WHERE id <= 2 ORDER BY id;
-- A numeric result wider than a stored value (scale 20, 19 digits) reaches the client whole
CREATE FUNCTION nn_thirds(p numeric) RETURNS TABLE (third numeric, parts numeric[]) LANGUAGE plpgsql AS $$
BEGIN
  third := p / 3;
  parts := ARRAY[p / 7, p];
  RETURN NEXT;
  RETURN QUERY SELECT amount / 11, ARRAY[amount * 100000000000000000] FROM ledger WHERE id = 1;
END $$;
SELECT * FROM nn_thirds(1.5);
CREATE FUNCTION nn_third(p numeric) RETURNS numeric LANGUAGE plpgsql AS $$ BEGIN RETURN p / 3; END $$;
SELECT nn_third(2);
