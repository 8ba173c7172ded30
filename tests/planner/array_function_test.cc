// Arrays and the functions sql/ needs, through `SELECT expr`. Expected values are
// PostgreSQL 15's (psql -X -A -t).
#include <cstdio>
#include <string>
#include <string_view>

#include "tests/frontend/session/session_fixture.h"
#include "planner/types/datum.h"
#include "planner/types/numeric.h"
#include "planner/types/sql_error.h"

namespace caracal::frontend::testing {
namespace {

using ArrayTest = SessionTest;

TEST_F(ArrayTest, TextInputAndOutput) {
  EXPECT_EQ(Q("select '{1,2,3}'::int[], ARRAY[1,2], '{ 1 , 2 }'::bigint[], ARRAY[]::int[]"), "{1,2,3}|{1,2}|{1,2}|{}");
  EXPECT_EQ(Q("select '{a,\"b c\",NULL,\"\",x\\\"y}'::text[]"), "{a,\"b c\",NULL,\"\",\"x\\\"y\"}");
  EXPECT_EQ(Q("select '{t,f}'::boolean[], '{1.50,2}'::numeric(4,2)[]"), "{t,f}|{1.50,2.00}");
  EXPECT_EQ(Err("select 'x'::int[]"), "22P02: malformed array literal: \"x\"");
  EXPECT_EQ(Err("select '{1,a}'::int[]"), "22P02: invalid input syntax for type integer: \"a\"");
  EXPECT_EQ(Err("select ARRAY[]"), "42P18: cannot determine type of empty array");
}

TEST_F(ArrayTest, SubscriptsFollowPostgres) {
  EXPECT_EQ(Q("select ('{1,2,3}'::int[])[2], ('{1,2,3}'::int[])[0], ('{1,2,3}'::int[])[4], (null::int[])[1], "
              "('{1,2}'::int[])[null]"),
            "2||||");
  EXPECT_EQ(Q("select (ARRAY['a','b'])[2::bigint]"), "b");
  EXPECT_EQ(Err("select (1)[1]"), "42804: cannot subscript type integer because it does not support subscripting");
}

TEST_F(ArrayTest, ArrayFunctions) {
  EXPECT_EQ(Q("select array_length('{1,2,3}'::int[], 1), array_length('{}'::int[], 1), array_length('{1}'::int[], 2), "
              "cardinality(ARRAY['a','b']), cardinality('{}'::int[]), array_upper(ARRAY[5,6], 1), array_lower(ARRAY[5], 1)"),
            "3|||2|0|2|1");
  EXPECT_EQ(Q("select coalesce(array_length(null::int[], 1), 0)"), "0");
  EXPECT_EQ(Err("select array_length(1, 1)"), "42883: function array_length(integer, integer) does not exist");
}

TEST_F(ArrayTest, ConcatenationFollowsPostgres) {
  EXPECT_EQ(Q("select ARRAY[1,2] || 3, 0 || ARRAY[1], ARRAY[1] || ARRAY[2.5], ARRAY['a'] || 'b'::text, "
              "array_cat(NULL::int[], ARRAY[1]), NULL::int[] || 4, ARRAY[1,2] || '{3,4}'"),
            "{1,2,3}|{0,1}|{1,2.5}|{a,b}|{1}|{4}|{1,2,3,4}");
  // A NULL element is appended; a NULL array is an empty one; array_cat is NULL only
  // when both are.
  EXPECT_EQ(Q("select ARRAY[1] || NULL::int, array_append(NULL::int[], NULL::int), array_prepend(1, NULL::int[]), "
              "array_cat(ARRAY[1], NULL::int[]), array_cat(NULL::int[], NULL::int[]) IS NULL"),
            "{1,NULL}|{NULL}|{1}|{1}|t");
  // The common element type, as PostgreSQL 14's anycompatible functions.
  EXPECT_EQ(Q("select (ARRAY[1] || 2::bigint)::text, (ARRAY[1.5] || 2)::text, array_append(ARRAY[1::smallint], 70000)"),
            "{1,2}|{1.5,2}|{1,70000}");
  EXPECT_EQ(Err("select ARRAY[1] || 'x'::text"), "42883: operator does not exist: integer[] || text");
  EXPECT_EQ(Err("select ARRAY[1] || ARRAY['x'::text]"), "42883: operator does not exist: integer[] || text[]");
  EXPECT_EQ(Err("select array_append(ARRAY[1], 'x'::text)"),
            "42883: function array_append(integer[], text) does not exist");
  EXPECT_EQ(Err("select array_cat(1, 2)"), "42883: function array_cat(integer, integer) does not exist");
}

// PL/pgSQL's `v[i] := x`, compiled (in place when the variable is the array's only
// holder) and interpreted. Expected values are PostgreSQL 15's.
TEST_F(ArrayTest, ElementAssignmentFollowsPostgres) {
  Q(R"(create function fill(n integer, gap integer) returns text language plpgsql as $$
       declare
         v numeric(4,1)[];
         w numeric(4,1)[];
         copy numeric(4,1)[];
       begin
         for i in 1..n loop
           v[i] := i + 0.26;          -- rounded to the element's scale
         end loop;
         copy := v;                   -- shares v's elements: v[1] below must not change it
         v[1] := -1;
         v[n + gap] := 9;             -- past the end: NULL-filled
         w[1] := v[2];
         w := w || 7.77;              -- || gives numeric[]: the assignment rounds again
         return v::text || ' ' || copy::text || ' ' || w::text || ' ' || cardinality(v);
       end $$)");
  // v starts as the argument's elements: setting v's must leave p as it was.
  Q(R"(create function set_at(p integer[], i integer, x integer) returns text language plpgsql as $$
       declare v integer[] := p;
       begin v[i] := x; return v::text || ' ' || coalesce(p::text, '-'); end $$)");
  for (const char* jit : {"on", "off"}) {
    SCOPED_TRACE(std::string("caracal.jit = ") + jit);
    Q(std::string("set caracal.jit = ") + jit);
    EXPECT_EQ(Q("select fill(3, 2)"), "{-1.0,2.3,3.3,NULL,9.0} {1.3,2.3,3.3} {2.3,7.8} 5");
    EXPECT_EQ(Q("select fill(0, 1)"), "");  // copy is NULL, and so is the text
    EXPECT_EQ(Q("select set_at('{1,2}', 2, 5)"), "{1,5} {1,2}");
    EXPECT_EQ(Q("select set_at('{1,2}', 3, 5)"), "{1,2,5} {1,2}");
    EXPECT_EQ(Q("select set_at(NULL, 1, 5)"), "{5} -");
    EXPECT_EQ(Q("select set_at('{}', 1, 5)"), "{5} {}");
    EXPECT_EQ(Err("select set_at('{1,2}', NULL, 5)"), "22004: array subscript in assignment must not be null");
    // PostgreSQL would move the lower bound ([0:2]={5,1,2}); arrays here start at 1.
    EXPECT_EQ(Err("select set_at('{1,2}', 0, 5)"),
              "0A000: array subscript 0 in assignment would make an array not starting at 1");
    EXPECT_EQ(Err("select set_at(NULL, 3, 5)"),
              "0A000: array subscript 3 in assignment would make an array not starting at 1");
  }
  // PostgreSQL reports this at the first call; procedures here are bound when created.
  EXPECT_EQ(Err(R"(create function bad() returns void language plpgsql as $$
                   declare x integer; begin x[1] := 1; end $$)"),
            "42804: cannot subscript type integer because it does not support subscripting");
}

TEST_F(ArrayTest, CastsAndComparison) {
  EXPECT_EQ(Q("select ARRAY[1.5, 2]::int[], '{1,2}'::int[] = ARRAY[1,2], ARRAY[1,2] < ARRAY[1,3], ARRAY[1]::text"),
            "{2,2}|t|t|{1}");
  EXPECT_EQ(Err("select ARRAY[1] = ARRAY['a'::text]"), "42883: operator does not exist: integer[] = text[]");
}

TEST_F(ArrayTest, StringFunctions) {
  EXPECT_EQ(Q("select ascii('A'), ascii(''), ascii('é'), repeat('ab', 3), repeat('x', 0), chr(65), chr(233)"),
            "65|0|233|ababab||A|é");
  EXPECT_EQ(Q("select format('%s-%s %I %I %L %L %%', 1, 'x', 'foo', 'Foo', 'it''s', null)"),
            "1-x foo \"Foo\" 'it''s' NULL %");
  EXPECT_EQ(Q("select format('%2$s %1$s|%-5s|%5s|', 'a', 'b', 'c'), format('%s|', 'a'::char(3)), format(null, 1)"),
            "b a|b    |    c||a  ||");
  EXPECT_EQ(Q("select format('tpcc_o_id_%s_%s', 1, 10), format('%s', 1.50)"), "tpcc_o_id_1_10|1.50");
  EXPECT_EQ(Err("select format('%s %s', 1)"), "22023: too few arguments for format()");
  EXPECT_EQ(Err("select format('%x', 1)"), "22023: unrecognized format() type specifier \"x\"");
  EXPECT_EQ(Err("select chr(0)"), "54000: null character not permitted");
}

TEST_F(ArrayTest, ArrayAgg) {
  Q("create table t (a int primary key, b int)");
  std::string path = TempPath("t.csv");
  FILE* f = fopen(path.c_str(), "w");
  fputs("1,3\n2,1\n3,3\n4,\n", f);
  fclose(f);
  Q("copy t from '" + path + "' with (format csv)");
  EXPECT_EQ(Q("select array_agg(b), array_agg(DISTINCT b ORDER BY b), array_agg(b ORDER BY b DESC) from t"),
            "{3,1,3,NULL}|{1,3,NULL}|{NULL,3,3,1}");
  EXPECT_EQ(Q("select array_agg(a), coalesce(array_agg(DISTINCT a ORDER BY a), '{}') from t where a > 10"), "|{}");
  // Without NULLs, integers take the int64 sort.
  EXPECT_EQ(Q("select array_agg(DISTINCT b ORDER BY b DESC), array_agg(a ORDER BY a DESC), "
              "array_agg(DISTINCT -b ORDER BY -b) from t where b is not null"),
            "{3,1}|{3,2,1}|{-3,-1}");
  // A NULL before the integers: unboxed integers give way to Datums mid-aggregate.
  Q("create table u (a int primary key, b bigint)");
  Q("insert into u values (1, NULL), (2, 5), (3, 2), (4, 5)");
  EXPECT_EQ(Q("select array_agg(b), array_agg(b ORDER BY b), array_agg(DISTINCT b ORDER BY b DESC) from u"),
            "{NULL,5,2,5}|{2,5,5,NULL}|{NULL,5,2}");
  EXPECT_EQ(Q("select array_agg(b), array_agg(DISTINCT b ORDER BY b) from u where a > 1"), "{5,2,5}|{2,5}");
  std::remove(path.c_str());
}

TEST_F(ArrayTest, NowIsTheStatementsTimeAndRandomIsNewEachTime) {
  // An ad-hoc SELECT's now() is one time for the whole statement (every call, every row).
  EXPECT_EQ(Q("select now() = current_timestamp and now() = statement_timestamp() and localtimestamp = now()::timestamp"),
            "t");
  EXPECT_EQ(Q("select count(distinct clock) from (select now() as clock from unnest(array[1,2,3])) s"), "1");
  // random() is volatile: a new value for every row, in [0, 1); setseed() is refused.
  EXPECT_EQ(Q("select count(distinct r), bool_and(r >= 0 and r < 1) from (select random() as r from unnest(array[1,2,3])) s"),
            "3|t");
  EXPECT_EQ(Err("select setseed(0.5)").substr(0, 6), "0A000:");
}

}  // namespace
}  // namespace caracal::frontend::testing

namespace caracal::planner {
namespace {

// CharLength counts eight bytes at a time: check it against the byte-by-byte definition
// for multi-byte characters at every alignment and every tail length.
TEST(CharLengthTest, CountsCodePointsAtEveryAlignment) {
  const std::string pieces[] = {"a", "\u00e9", "\u65e5", "\U0001F600", " ", "\x7f"};
  std::string s;
  for (int i = 0; i < 200; ++i) s += pieces[(i * 7 + i / 3) % 6];
  for (size_t start = 0; start < 8; ++start) {
    for (size_t end = start; end <= s.size(); ++end) {
      std::string_view part = std::string_view(s).substr(start, end - start);
      int64_t expected = 0;
      for (unsigned char c : part) expected += (c & 0xC0) != 0x80;
      ASSERT_EQ(CharLength(part), expected) << start << ".." << end;
    }
  }
}

// IntegerDigits counts digits against a table of powers of ten: check it against the
// definition (digits of floor(|m| / 10^scale)) around every power of ten, at every scale.
TEST(NumericDigitsTest, IntegerDigitsMatchesTheDefinition) {
  for (int k = 0; k <= 38; ++k) {
    int128 p = Pow10(k);
    for (int128 m : {p - 1, p, p + 1, -(p - 1), -p}) {
      for (int scale = 0; scale <= Numeric::kMaxScale; ++scale) {
        int128 v = (m < 0 ? -m : m) / Pow10(scale);
        int expected = 0;
        for (; v > 0; v /= 10) ++expected;
        ASSERT_EQ(Numeric(m, scale).IntegerDigits(), expected) << Int128ToString(m) << " scale " << scale;
      }
    }
  }
  EXPECT_THROW(Numeric(5, -1).IntegerDigits(), SqlError);
}

}  // namespace
}  // namespace caracal::planner
