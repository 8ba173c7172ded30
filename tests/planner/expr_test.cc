// Expression semantics through `SELECT expr` (no FROM). Every expected value here was
// verified on PostgreSQL 15 (psql -X -A -t, C locale).
#include "tests/frontend/session/session_fixture.h"

namespace caracal::frontend::testing {
namespace {

using ExprTest = SessionTest;

TEST_F(ExprTest, Arithmetic) {
  EXPECT_EQ(Q("select 1 + 1, 10/4, 7 % 3, -5 / 2, 2^10, 10.0/4"), "2|2|1|-2|1024|2.5000000000000000");
  EXPECT_EQ(Q("select 3.0 * 2.50, 1.1 + 2.22, 5 - 0.5, -(1.5), - 2"), "7.500|3.32|4.5|-1.5|-2");
  EXPECT_EQ(Q("select 1e15::float8, 0.1::float8 + 0.2"), "1e+15|0.30000000000000004");
}

TEST_F(ExprTest, NumericDivisionScales) {
  EXPECT_EQ(Q("select 1/3::numeric, 2/3.0, 10::numeric/4, 1.0/7, 100.0/3, 12345.678/7, 1/1000000.0, 0.001/3"),
            "0.33333333333333333333|0.66666666666666666667|2.5000000000000000|0.14285714285714285714|"
            "33.3333333333333333|1763.6682857142857143|0.000001000000000000000000|0.00033333333333333333");
}

TEST_F(ExprTest, OverflowAndDivisionByZero) {
  EXPECT_EQ(Err("select 2147483647 + 1"), "22003: integer out of range");
  EXPECT_EQ(Err("select 9223372036854775807 + 1"), "22003: bigint out of range");
  EXPECT_EQ(Err("select 32767::smallint + 1::smallint"), "22003: smallint out of range");
  EXPECT_EQ(Err("select 1/0"), "22012: division by zero");
  EXPECT_EQ(Err("select 1.5/0"), "22012: division by zero");
  EXPECT_EQ(Err("select 1.0::float8/0"), "22012: division by zero");
  EXPECT_EQ(Err("select 5 % 0"), "22012: division by zero");
  EXPECT_EQ(Err("select 123.456::numeric(4,2)"), "22003: numeric field overflow");
  EXPECT_EQ(E("select 123.456::numeric(4,2)").detail,
            "A field with precision 4, scale 2 must round to an absolute value less than 10^2.");
}

TEST_F(ExprTest, ThreeValuedLogic) {
  EXPECT_EQ(Q("select null + 1, null::int is null, 1 is not null"), "|t|t");
  EXPECT_EQ(Q("select true and null, false and null, true or null, false or null, not null::boolean"), "|f|t||");
  EXPECT_EQ(Q("select 1 between 0 and 2, 3 not between 0 and 2, 2 in (1,2,3), 4 in (1, null), 4 not in (1,2), "
              "1 in (1, null)"),
            "t|t|t||t|t");
  EXPECT_EQ(Q("select null::boolean is unknown, true is not false, null::boolean is true"), "t|t|f");
}

TEST_F(ExprTest, StringOperators) {
  EXPECT_EQ(Q("select 'abc' like 'a%', 'abc' like '_b_', 'abc' not like 'b%', 'ABC' ilike 'a%', 'a_c' like 'a\\_c'"),
            "t|t|t|t|t");
  EXPECT_EQ(Q("select 'a' || 'b', 'a' || 1, 1 || 'a', 'a' || null, 1.5 || 'x'"), "ab|a1|1a||1.5x");
}

TEST_F(ExprTest, ConditionalExpressions) {
  EXPECT_EQ(Q("select case when 1 > 2 then 'x' when 2 > 1 then 'y' end, case 3 when 1 then 'one' when 3 then 'three' "
              "else 'other' end, case when false then 1 end"),
            "y|three|");
  EXPECT_EQ(Q("select coalesce(null, 2, 3), coalesce(null::int, null), nullif(1, 1), nullif(1, 2), greatest(1, 5, 3), "
              "least(2.5, 1, 3), greatest('a', 'b'), greatest(1, null)"),
            "2|||1|5|1|b|1");
  EXPECT_EQ(Err("select case when true then 1 else 'x'::text end"), "42804: CASE types integer and text cannot be matched");
}

TEST_F(ExprTest, Casts) {
  EXPECT_EQ(Q("select '12'::int, ' 34 '::bigint, '1.50'::numeric, '1e3'::numeric, 'true'::boolean, 'off'::boolean, "
              "'2024-01-02 03:04:05.5'::timestamp, '2024-01-01'::timestamp"),
            "12|34|1.50|1000|t|f|2024-01-02 03:04:05.5|2024-01-01 00:00:00");
  EXPECT_EQ(Q("select 3.7::int, (-3.5)::int, 2.5::int, 2.5::float8::int, 3.5::float8::int, 12.345::numeric(5,2), "
              "'abcdef'::varchar(3), 'ab'::char(4) || '|'"),
            "4|-4|3|2|4|12.35|abc|ab|");
  EXPECT_EQ(Q("select 1::boolean, true::int, 42::text, 1.50::text, 'x'::char(3)::text || '|'"), "t|1|42|1.50|x|");
  EXPECT_EQ(Err("select 'x'::int"), "22P02: invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(Err("select '99999999999'::int"), "22003: value \"99999999999\" is out of range for type integer");
  EXPECT_EQ(Err("select 1::foo"), "42704: type \"foo\" does not exist");
  EXPECT_EQ(Err("select '2024-13-01'::timestamp"), "22008: date/time field value out of range: \"2024-13-01\"");
  EXPECT_EQ(Err("select true::timestamp"), "42846: cannot cast type boolean to timestamp without time zone");
}

TEST_F(ExprTest, MathFunctions) {
  EXPECT_EQ(Q("select abs(-5), abs(-5.5), round(2.5), round(-2.5), round(2.5::float8), trunc(2.7), trunc(-2.7::float8), "
              "floor(-2.5), ceil(2.1), mod(7, 3), mod(-7, 3), mod(7.5, 2)"),
            "5|5.5|3|-3|2|2|-2|-3|3|1|-1|1.5");
  EXPECT_EQ(Q("select round(1234.5678, -2), round(1234.5678, 1), trunc(1234.5678, 2), round(5), floor(5)"),
            "1200|1234.6|1234.56|5|5");
}

TEST_F(ExprTest, StringFunctions) {
  EXPECT_EQ(Q("select length('h\xC3\xA9llo'), lower('ABC'), upper('abc'), substr('hello', 2, 3), substr('hello', 3), "
              "substring('hello' from 2 for 2), trim('  x  ') || '|', ltrim('xxa', 'x'), rtrim('axx', 'x'), "
              "replace('hello', 'l', 'L'), position('lo' in 'hello'), concat('a', 1, null, 2.5), left('hello', 2), "
              "right('hello', -2)"),
            "5|abc|ABC|ell|llo|el|x||a|a|heLLo|4|a12.5|he|llo");
  // substr counts characters, not bytes; ASCII and multi-byte strings take different paths.
  EXPECT_EQ(Q("select substr('h\xC3\xA9llo w\xC3\xB6rld', 2, 4), substr('h\xC3\xA9llo', 0, 3), substr('hello', -1, 3), "
              "substr('hello', 4, 100), substr('hello', 9), substr('abcdefghijklmnopqrstuvwxyz', 20, 3)"),
            "\xC3\xA9llo|h\xC3\xA9|h|lo||tuv");
  EXPECT_EQ(Err("select substr('hello', 1, -1)"), "22011: negative substring length not allowed");
}

TEST_F(ExprTest, FloatText) {
  EXPECT_EQ(Q("select 1e-5::float8, 123456789012345678::float8, 1.5::real * 3, 1::real / 3, 1::float8 / 3, "
              "100000::real, 1000000::real, 0.0001::real"),
            "1e-05|1.2345678901234568e+17|4.5|0.3333333333333333|0.3333333333333333|100000|1e+06|0.0001");
}

TEST_F(ExprTest, RealArithmeticStaysReal) {
  EXPECT_EQ(Q("select 1::real / 3::real, 1.1::real"), "0.33333334|1.1");
}

TEST_F(ExprTest, Comparisons) {
  EXPECT_EQ(Q("select 'a' < 'b', 'abc'::char(5) = 'abc', 'abc '::varchar = 'abc', 1.0 = 1, 1::float8 = 1.0"),
            "t|t|f|t|t");
}

TEST_F(ExprTest, TypeErrorsWithHints) {
  ErrorReport e = E("select 1 + 'a'::text");
  EXPECT_EQ(e.sqlstate, "42883");
  EXPECT_EQ(e.message, "operator does not exist: integer + text");
  EXPECT_EQ(e.hint, "No operator matches the given name and argument types. You might need to add explicit type casts.");
  EXPECT_EQ(e.position, 10);
  EXPECT_EQ(Err("select 'a' + 'b'"), "42725: operator is not unique: unknown + unknown");
  EXPECT_EQ(Err("select 1 = true"), "42883: operator does not exist: integer = boolean");
  EXPECT_EQ(Err("select 1 + 'a'"), "22P02: invalid input syntax for type integer: \"a\"");
  EXPECT_EQ(Err("select foo(1)"), "42883: function foo(integer) does not exist");
  EXPECT_EQ(Err("select length(1)"), "42883: function length(integer) does not exist");
  EXPECT_EQ(E("select x").position, 8);
  EXPECT_EQ(Err("select x"), "42703: column \"x\" does not exist");
  EXPECT_EQ(Err("select setseed(0.5)").substr(0, 6), "0A000:");
  EXPECT_EQ(Err("select random(1)"), "42883: function random(integer) does not exist");
}

TEST_F(ExprTest, ColumnNames) {
  EXPECT_EQ(Header("select 1, 1 as one, 'x'::text, 1::int, count(*), sum(1), coalesce(1, 2), case when true then 1 end, "
                   "nullif(1, 2), greatest(1, 2), lower('a'), trim(' a ')"),
            "?column?|one|text|int4|count|sum|coalesce|case|nullif|greatest|lower|btrim");
}

}  // namespace
}  // namespace caracal::frontend::testing
