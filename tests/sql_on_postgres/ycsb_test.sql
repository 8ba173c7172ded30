-- sql/ycsb on PostgreSQL: load :keys rows, generate :txns transactions (odd ones the
-- uniform 8:2 read/write mix, even ones the contended 0:10 mix with 7 of 10 keys among 77
-- hot rows), and write the stream and the output it must print to :stream_file and
-- :expected_file. run.sh runs the stream and diffs; ycsb_check.sql checks the final state.
-- Needs test_assert (tpcc_check.sql defines it; it is repeated here to stand alone).

CREATE FUNCTION test_assert(p_ok boolean, p_what text) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF p_ok IS NOT TRUE THEN
    RAISE EXCEPTION 'test failed: %', p_what;
  END IF;
END;
$$;

-- The proposed field function (sql/ycsb/README.md), as ycsb_txn writes it inline.
CREATE FUNCTION test_ycsb_field(p_seed bigint, p_position bigint) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT substr(repeat('abcdefghijklmnopqrstuvwxyz', 5), 1 + ((p_seed % 26) + 26 + p_position % 26)::integer % 26, 100)
$$;

-- Loaded rows: field f of key k is field(k, 1000 + f) (the native loader's FillField(k, f + 1000)).
INSERT INTO ycsb
SELECT k, test_ycsb_field(k, 1000), test_ycsb_field(k, 1001), test_ycsb_field(k, 1002), test_ycsb_field(k, 1003),
       test_ycsb_field(k, 1004), test_ycsb_field(k, 1005), test_ycsb_field(k, 1006), test_ycsb_field(k, 1007),
       test_ycsb_field(k, 1008), test_ycsb_field(k, 1009)
  FROM generate_series(0, :keys - 1) AS k;
CREATE TABLE test_ycsb0 AS SELECT * FROM ycsb;

-- The last write of each key (seed, position): field0 = field(seed, position).
CREATE TABLE test_ycsb_last_write (k bigint PRIMARY KEY, seed bigint, pos integer);

CREATE FUNCTION test_lcg(x bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS $$ SELECT x * 48271 % 2147483647 $$;

CREATE FUNCTION test_ycsb_generate(p_keys bigint, p_txns integer, p_seed bigint)
  RETURNS TABLE (stmt text, expected text)
  LANGUAGE plpgsql AS $$
DECLARE
  x bigint := 1 + p_seed % 2147483646;
  spacing bigint := p_keys / 77;
  keys bigint[];
  writes boolean[];
  v_key bigint;
  first_w integer;
  second_w integer;
  v_seed bigint;
  checksum bigint;
  contention boolean;
  tmp bigint;
  j integer;
BEGIN
  FOR t IN 1..p_txns LOOP
    contention := t % 2 = 0;
    keys := '{}';
    WHILE COALESCE(array_length(keys, 1), 0) < 10 LOOP
      x := test_lcg(x);
      IF contention AND COALESCE(array_length(keys, 1), 0) < 7 THEN
        v_key := (x % 77) * spacing;
      ELSE
        v_key := x % p_keys;
      END IF;
      CONTINUE WHEN v_key = ANY (keys);
      keys := keys || v_key;
    END LOOP;
    IF contention THEN
      -- shuffle (Fisher-Yates), as the native generator does
      FOR i IN REVERSE 10..2 LOOP
        x := test_lcg(x); j := 1 + (x % i)::integer;
        tmp := keys[i]; keys[i] := keys[j]; keys[j] := tmp;
      END LOOP;
      writes := array_fill(true, ARRAY[10]);
    ELSE
      writes := array_fill(false, ARRAY[10]);
      x := test_lcg(x); first_w := 1 + (x % 10)::integer;
      x := test_lcg(x); second_w := 1 + (x % 9)::integer;
      IF second_w >= first_w THEN second_w := second_w + 1; END IF;
      writes[first_w] := true; writes[second_w] := true;
    END IF;
    x := test_lcg(x); v_seed := x * 2147483647;
    x := test_lcg(x); v_seed := v_seed + x;
    IF t % 50 = 0 THEN
      v_seed := 9223372036854775807 - t;  -- the largest seeds must not overflow
    END IF;

    checksum := 0;
    FOR i IN 1..10 LOOP
      IF NOT writes[i] THEN
        SELECT checksum + sum((f + 1) * ascii(CASE WHEN f = 0 AND lw.k IS NOT NULL THEN test_ycsb_field(lw.seed, lw.pos)
                                                   ELSE test_ycsb_field(keys[i], 1000 + f) END))
          INTO checksum
          FROM generate_series(0, 9) AS f
          LEFT JOIN test_ycsb_last_write AS lw ON lw.k = keys[i];
      END IF;
    END LOOP;
    FOR i IN 1..10 LOOP
      IF writes[i] THEN
        INSERT INTO test_ycsb_last_write VALUES (keys[i], v_seed, i - 1)
          ON CONFLICT (k) DO UPDATE SET seed = excluded.seed, pos = excluded.pos;
      END IF;
    END LOOP;
    stmt := format('SELECT ycsb_txn(%L, %L, %s);', keys::text, writes::text, v_seed);
    expected := checksum::text;
    RETURN NEXT;
  END LOOP;
END;
$$;

CREATE TABLE test_ycsb_stream AS SELECT row_number() OVER () AS seq, * FROM test_ycsb_generate(:keys, :txns, 42);

\pset format unaligned
\pset tuples_only on
\o :stream_file
SELECT stmt FROM test_ycsb_stream ORDER BY seq;
\o :expected_file
SELECT expected FROM test_ycsb_stream ORDER BY seq;
\o
