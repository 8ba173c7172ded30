-- The YCSB transaction (the paper's §5.3): ten distinct keys; a read reads the whole row,
-- a write rewrites its first 100 bytes (field0). Native twin: YcsbTxn in
-- bench/ycsb/ycsb.cc. See README.md for the field-content function and the result.
--
--   SELECT ycsb_txn('{3,17,...}'::bigint[], '{f,t,...}'::boolean[], 1234567);
--
-- A write at position i (0-based) stores ycsb_field(p_value_seed, i): 100 letters of the
-- alphabet, starting at letter ((p_value_seed % 26) + 26 + i % 26) % 26 and wrapping, i.e.
-- a substring of the alphabet repeated five times. Written inline (our compiler compiles
-- one procedure at a time).
--
-- Returns a checksum of what the reads saw: the sum over the rows read of
-- (f + 1) * ascii(field<f>) for f = 0..9 (ascii of the first character; 0 for NULL or an
-- empty field). The field function makes the first character determine the field.

CREATE OR REPLACE FUNCTION ycsb_txn(p_keys bigint[], p_writes boolean[], p_value_seed bigint)
  RETURNS bigint
  LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := COALESCE(array_length(p_keys, 1), 0);
  v_f0 char(100);
  v_f1 char(100);
  v_f2 char(100);
  v_f3 char(100);
  v_f4 char(100);
  v_f5 char(100);
  v_f6 char(100);
  v_f7 char(100);
  v_f8 char(100);
  v_f9 char(100);
  v_checksum bigint := 0;
BEGIN
  FOR i IN 1..v_n LOOP
    IF p_writes[i] THEN
      UPDATE ycsb
         SET field0 = substr(repeat('abcdefghijklmnopqrstuvwxyz', 5),
                             1 + ((p_value_seed % 26) + 26 + (i - 1) % 26)::integer % 26, 100)
       WHERE ycsb_key = p_keys[i];
    ELSE
      SELECT field0, field1, field2, field3, field4, field5, field6, field7, field8, field9
        INTO v_f0, v_f1, v_f2, v_f3, v_f4, v_f5, v_f6, v_f7, v_f8, v_f9
        FROM ycsb WHERE ycsb_key = p_keys[i];
      IF FOUND THEN
        v_checksum := v_checksum
          + 1 * COALESCE(ascii(v_f0), 0) + 2 * COALESCE(ascii(v_f1), 0)
          + 3 * COALESCE(ascii(v_f2), 0) + 4 * COALESCE(ascii(v_f3), 0)
          + 5 * COALESCE(ascii(v_f4), 0) + 6 * COALESCE(ascii(v_f5), 0)
          + 7 * COALESCE(ascii(v_f6), 0) + 8 * COALESCE(ascii(v_f7), 0)
          + 9 * COALESCE(ascii(v_f8), 0) + 10 * COALESCE(ascii(v_f9), 0);
      END IF;
    END IF;
  END LOOP;
  RETURN v_checksum;
END;
$$;
