-- After the YCSB stream: field0 of every key is the field of its last write (or as
-- loaded), fields 1-9 are as loaded; then a few single calls.

\o /dev/null

SELECT test_assert(NOT EXISTS (
  SELECT 1 FROM ycsb AS y JOIN test_ycsb0 AS y0 USING (ycsb_key)
    LEFT JOIN test_ycsb_last_write AS lw ON lw.k = y.ycsb_key
   WHERE y.field0 IS DISTINCT FROM COALESCE(test_ycsb_field(lw.seed, lw.pos), y0.field0)
      OR (y.field1, y.field2, y.field3, y.field4, y.field5, y.field6, y.field7, y.field8, y.field9)
         IS DISTINCT FROM (y0.field1, y0.field2, y0.field3, y0.field4, y0.field5, y0.field6, y0.field7,
                           y0.field8, y0.field9)),
  'ycsb final state differs from the generated writes');
SELECT test_assert((SELECT count(*) FROM ycsb) = (SELECT count(*) FROM test_ycsb0), 'row count');
SELECT test_assert(bool_and(length(field0) = 100 AND field0 ~ '^[a-z]{100}$'), 'field0 is 100 letters')
  FROM ycsb;

-- Single calls: a negative seed still gives 100 letters; a missing key is a no-op for
-- reads and writes; the checksum of reads.
DO $$
DECLARE
  v_sum bigint;
BEGIN
  PERFORM ycsb_txn(ARRAY[5, 6]::bigint[], ARRAY[true, false], -5);
  PERFORM test_assert((SELECT field0 FROM ycsb WHERE ycsb_key = 5) = test_ycsb_field(-5, 0)
                      AND test_ycsb_field(-5, 0) = 'vwxyz' || left(repeat('abcdefghijklmnopqrstuvwxyz', 4), 95),
                      'negative seed');
  SELECT ycsb_txn(ARRAY[-1, 7, 1000000000]::bigint[], ARRAY[false, false, true], 3) INTO v_sum;
  PERFORM test_assert(v_sum = (SELECT 1 * ascii(field0) + 2 * ascii(field1) + 3 * ascii(field2) + 4 * ascii(field3)
                                      + 5 * ascii(field4) + 6 * ascii(field5) + 7 * ascii(field6)
                                      + 8 * ascii(field7) + 9 * ascii(field8) + 10 * ascii(field9)
                                 FROM ycsb WHERE ycsb_key = 7), 'checksum of one read');
  PERFORM test_assert(NOT EXISTS (SELECT 1 FROM ycsb WHERE ycsb_key IN (-1, 1000000000)), 'missing keys');
END;
$$;

\o
SELECT format('ycsb checks ok: %s transactions, %s keys written', (SELECT count(*) FROM test_ycsb_stream),
              (SELECT count(*) FROM test_ycsb_last_write)) AS result;
