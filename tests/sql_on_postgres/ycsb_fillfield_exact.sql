-- Can the native YCSB field function (FillField in bench/ycsb/ycsb.cc: a 64-bit mix with
-- wrapping multiplication) be computed exactly in PostgreSQL? Yes, but not with bigint
-- arithmetic alone: bigint multiplication raises on overflow, so the wrapping multiply
-- goes through numeric (exact) and mod 2^64, and the xor needs the bigint # operator on
-- two's-complement images. This file is the evidence behind the proposal in
-- sql/ycsb/README.md (a field function that is cheap in both C++ and SQL): it checks the
-- exact port against values printed by the C++ function and times both functions.

\o /dev/null

-- uint64 values live in numeric [0, 2^64); xor goes through signed bigint images.
CREATE FUNCTION test_u64_xor(a numeric, b numeric) RETURNS numeric
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN r < 0 THEN r::numeric + 18446744073709551616 ELSE r::numeric END
    FROM (SELECT (CASE WHEN a >= 9223372036854775808 THEN a - 18446744073709551616 ELSE a END)::bigint
               # (CASE WHEN b >= 9223372036854775808 THEN b - 18446744073709551616 ELSE b END)::bigint AS r) AS s
$$;

CREATE FUNCTION test_fill_field_exact(p_a bigint, p_b bigint) RETURNS text
  LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  m numeric := 18446744073709551616;  -- 2^64
  a numeric := CASE WHEN p_a < 0 THEN p_a + 18446744073709551616 ELSE p_a END;
  b numeric := CASE WHEN p_b < 0 THEN p_b + 18446744073709551616 ELSE p_b END;
  x numeric;
  out text := '';
BEGIN
  x := test_u64_xor(a * 11400714819323198485 % m, (b + 7146057691288625177) % m);  -- 0x9E37..., 0x632B...
  FOR i IN 1..100 LOOP
    x := test_u64_xor(x, div(x, 536870912));           -- x ^= x >> 29
    x := x * 13787848793156543929 % m;                  -- x *= 0xBF58476D1CE4E5B9
    x := test_u64_xor(x, div(x, 4294967296));          -- x ^= x >> 32
    out := out || chr(97 + (x % 26)::integer);
  END LOOP;
  RETURN out;
END;
$$;

-- Printed by the C++ FillField (a cast to uint64_t, b) for these inputs.
SELECT test_assert(test_fill_field_exact(a, b) = want, format('exact FillField(%s, %s)', a, b))
  FROM (VALUES
    (0::bigint, 0::bigint, 'uywawqznlbffxewjfuereastjrkmczpjfnasoqnjozdhlaieartakjdzlwzefpklaetfjsyesrbqowvmibobmkleqhymoidovhtn'),
    (1, 0, 'tdcgqmvaxfugawuycjaaidtygybgtnaraxczafkvadlvfkavntqbqaxrmtuwshjfshhntxgowbhcjraescvwilmkblrsojptjdpq'),
    (12345, 7, 'uagmwhsjzjjqelnyburthjbvhnzwpsyoyqicljfwinloobknqprvfewvzrnzseebyatggduywekcwnusuqqugaluhrelfkahlanj'),
    (999, 1009, 'ioyqnwoofibjrwisygjjrsrnaiqmlducrzzvunukdelznbyycjnkvuectrdcjkytvpgfezlixasmkijvlysuzndeotgeapxbigll'),
    (9223372036854775807, 9, 'qkamvkdjplfxnrgidvqqenroezyemszqpupnkomawvsaeuvffqugjdoziovrppnilnfgheprqefwpjknptpnauoqjonivwnesoyp'),
    (-5, 3, 'qcivjpqavioatadaymthaptiotzwdxxpwhrcozrrddstzehqfugwnnokiqnoofiyvuxozvgtxauhdqslgorzywxnbhiyhaiylrjm'),
    (4611686018427387904, 1000, 'jveullapryubhqfamukxrzqfsswvsrbakwbatwefxbfznsyefalcjitbjkcaiusjlpevzkqfrmeqmmvnomuziphpkmmmbyqyvmir'))
    AS t (a, b, want);

-- Cost per field, exact port vs the proposed function (informational, not an assertion).
CREATE FUNCTION test_time_fields(p_exact boolean, p_n integer) RETURNS text
  LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz := clock_timestamp();
  s text;
BEGIN
  FOR i IN 1..p_n LOOP
    IF p_exact THEN
      s := test_fill_field_exact(i * 7919, i % 10);
    ELSE
      s := substr(repeat('abcdefghijklmnopqrstuvwxyz', 5), 1 + (((i * 7919)::bigint % 26) + 26 + i % 10)::integer % 26, 100);
    END IF;
  END LOOP;
  RETURN format('%s: %s us per 100-byte field',
                CASE WHEN p_exact THEN 'exact FillField port' ELSE 'proposed rotation    ' END,
                round(extract(epoch FROM clock_timestamp() - t0)::numeric * 1000000 / p_n, 2));
END;
$$;
\o
SELECT test_time_fields(true, 2000) AS timing UNION ALL SELECT test_time_fields(false, 200000);
