// Differential tests of the expression compiler: every expression, bound by the planner
// from generated SQL text, must give exactly planner::Eval's value or error (SQLSTATE,
// message and detail) when compiled - over frame variables and over row columns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "codegen/jit/expr_codegen.h"
#include "codegen/jit/jit.h"
#include "engine/types/row_value.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"
#include "tests/codegen/bind_helper.h"
#include "tests/codegen/expr_gen.h"

namespace caracal::codegen::testing {
namespace {

using planner::Datum;
using planner::SqlType;
using planner::TypeId;

struct Outcome {
  bool error = false;
  std::string sqlstate, message, detail;
  Datum value;
};

template <typename F>
Outcome Run(F&& f) {
  Outcome o;
  try {
    o.value = f();
  } catch (const planner::SqlError& e) {
    o.error = true;
    o.sqlstate = e.sqlstate();
    o.message = e.what();
    o.detail = e.detail();
  } catch (const std::exception& e) {
    o.error = true;
    o.sqlstate = "(C++)";
    o.message = e.what();
  }
  return o;
}

bool SameDatum(const Datum& a, const Datum& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Datum::Kind::kNull: return true;
    case Datum::Kind::kBool:
    case Datum::Kind::kInt:
    case Datum::Kind::kTimestamp: return a.i == b.i;
    case Datum::Kind::kInterval: return a.i == b.i && a.months == b.months && a.days == b.days;
    case Datum::Kind::kFloat: return std::memcmp(&a.f, &b.f, sizeof a.f) == 0 || (a.f != a.f && b.f != b.f);
    case Datum::Kind::kNumeric: return a.n.mantissa() == b.n.mantissa() && a.n.scale() == b.n.scale();
    case Datum::Kind::kString: return a.s == b.s;
    case Datum::Kind::kArray:
      if (a.array->size() != b.array->size()) return false;
      for (size_t i = 0; i < a.array->size(); ++i)
        if (!SameDatum((*a.array)[i], (*b.array)[i])) return false;
      return true;
  }
  return false;
}

std::string Show(const Outcome& o) {
  if (o.error) return "ERROR " + o.sqlstate + ": " + o.message + (o.detail.empty() ? "" : " DETAIL " + o.detail);
  if (o.value.is_null()) return "NULL";
  std::string kind = std::to_string(static_cast<int>(o.value.kind));
  switch (o.value.kind) {
    case Datum::Kind::kFloat: return "float " + planner::Float8Text(o.value.f);
    case Datum::Kind::kNumeric: return "numeric " + o.value.n.ToString();
    case Datum::Kind::kString: return "string '" + o.value.s + "'";
    case Datum::Kind::kArray: {
      std::string out = "array[";
      for (const Datum& e : *o.value.array) out += Show(Outcome{false, "", "", "", e}) + ",";
      return out + "]";
    }
    default: return "kind " + kind + " " + std::to_string(o.value.i);
  }
}

struct TypedValue {
  std::string name;
  SqlType type;
  Cat cat;
  Datum value;
};

std::vector<TypedValue> Values() {
  using planner::Numeric;
  return {
      {"i2", SqlType::Of(TypeId::kInt2), Cat::kInt, Datum::Int(12)},
      {"i4", SqlType::Of(TypeId::kInt4), Cat::kInt, Datum::Int(100000)},
      {"i4m", SqlType::Of(TypeId::kInt4), Cat::kInt, Datum::Int(-2147483647)},
      {"i8", SqlType::Of(TypeId::kInt8), Cat::kInt, Datum::Int(5000000000)},
      {"i4n", SqlType::Of(TypeId::kInt4), Cat::kInt, Datum::Null()},
      {"n52", SqlType::Numeric(5, 2), Cat::kNum, Datum::Num(Numeric(12345, 2))},
      {"n103", SqlType::Numeric(10, 3), Cat::kNum, Datum::Num(Numeric(-7125, 3))},
      {"nn", SqlType::Numeric(12, 2), Cat::kNum, Datum::Null()},
      {"f4", SqlType::Of(TypeId::kFloat4), Cat::kFloat, Datum::Float(2.5)},
      {"f8", SqlType::Of(TypeId::kFloat8), Cat::kFloat, Datum::Float(3.14159)},
      {"f8n", SqlType::Of(TypeId::kFloat8), Cat::kFloat, Datum::Null()},
      {"t", SqlType::Of(TypeId::kText), Cat::kText, Datum::String("hello")},
      {"tn", SqlType::Of(TypeId::kText), Cat::kText, Datum::Null()},
      {"c5", SqlType{TypeId::kBpchar, 5, -1}, Cat::kText, Datum::String("ab   ")},
      {"v10", SqlType{TypeId::kVarchar, 10, -1}, Cat::kText, Datum::String("abc")},
      {"b", SqlType::Of(TypeId::kBool), Cat::kBool, Datum::Bool(true)},
      {"bn", SqlType::Of(TypeId::kBool), Cat::kBool, Datum::Null()},
      {"ts", SqlType::Of(TypeId::kTimestamp), Cat::kTs, Datum::Timestamp(757382400000000)},
      {"ia", SqlType::ArrayOf(SqlType::Of(TypeId::kInt4)), Cat::kArr,
       Datum::Array({Datum::Int(10), Datum::Null(), Datum::Int(30)})},
  };
}

// CODEGEN_SEED / CODEGEN_ITERS override the defaults, for longer hunts by hand.
uint64_t Seed(uint64_t fallback) {
  const char* s = std::getenv("CODEGEN_SEED");
  return s ? std::strtoull(s, nullptr, 10) : fallback;
}
int Iterations(int fallback) {
  const char* s = std::getenv("CODEGEN_ITERS");
  return s ? std::atoi(s) : fallback;
}

class Differential : public ::testing::Test {
 protected:
  // The first tier: what every procedure runs until its -O2 code is ready.
  Jit jit_{OptLevel::kO0};
  // The second tier, which also inlines numeric fast paths.
  Jit jit_o2_{OptLevel::kO2};
};

// Binds `sql` (skips what the binder rejects), then compares Eval with the compiled code.
// Returns whether the expression bound.
bool Check(Jit& jit, const std::string& sql, const planner::NameScope& scope, const planner::EvalContext& ctx) {
  planner::ExprPtr e;
  try {
    e = BindExpr(sql, scope);
  } catch (const std::exception&) {
    return false;
  }
  Outcome expected = Run([&] { return planner::Eval(*e, ctx); });
  Outcome actual = Run([&] { return CompileExpr(jit, *e, ctx.schema).Eval(ctx); });
  bool same = expected.error ? actual.error && expected.sqlstate == actual.sqlstate &&
                                   expected.message == actual.message && expected.detail == actual.detail
                             : !actual.error && SameDatum(expected.value, actual.value);
  EXPECT_TRUE(same) << sql << "\n  tree:     " << e->DebugString() << "\n  expected: " << Show(expected)
                    << "\n  compiled: " << Show(actual);
  return true;
}

TEST_F(Differential, HandPickedEdgeCases) {
  std::vector<Name> names;
  std::vector<Datum> frame;
  for (const TypedValue& v : Values()) {
    names.push_back({v.name, v.type, {planner::SlotSpace::kVariable, static_cast<int>(frame.size())}});
    frame.push_back(v.value);
  }
  TestScope scope(names);
  planner::EvalContext ctx;
  ctx.variables = frame;
  const char* cases[] = {
      "2147483647 + 1", "9223372036854775807 + 1", "(-9223372036854775807 - 1) / -1", "(-9223372036854775807 - 1) % -1",
      "32767::smallint + 1::smallint", "1/0", "5 % 0", "i4n / 0", "null::int / 0", "-(-2147483648)",
      "1.5/0", "1.0::float8/0", "1e308::float8 * 10", "1e-300::float8 * 1e-300::float8", "3.4e38::real * 10::real",
      "1e39::float8::real", "1e-50::float8::real", "'NaN'::float8 = 'NaN'::float8", "'NaN'::float8 > 1::float8",
      "123.456::numeric(4,2)", "1/3::numeric", "n52 * n103", "n52 / 0", "n52 % n103", "-n52", "round(n52, 1)",
      "i4::smallint", "f8::int", "'1e20'::float8::bigint", "'abc'::int", "' 42 '::int", "'t'::boolean",
      "c5 = 'ab'", "c5 || 'x'", "c5::text", "v10 || i4", "'a' || null", "null || 'a'", "t like 'h%'",
      "t ilike 'HE%'", "'a_c' like 'a\\_c'", "substr(t, 2, 3)", "substr(t, 2, -1)", "left(t, -2)", "concat(t, null, 1)",
      "coalesce(i4n, i2, 1/0)", "nullif(c5, 'ab')", "greatest(i4n, 3, 7)", "least(t, 'a', tn)", "i4 in (1, null, 100000)",
      "i4 not in (1, null)", "bn is unknown", "b and bn", "bn or b", "not bn", "null::boolean and false",
      "case when bn then 1 when b then 2 else 3 end", "case when false then 1/0 else 2 end",
      "i4n = 1/0", "tn like (1/0)::text", "ts < '2024-01-01'::timestamp", "ts::text", "'2024-13-01'::timestamp",
      "sqrt(-1::float8)", "power(0::float8, -1::float8)", "mod(7, -1)", "abs(-32768::smallint)", "abs(i4m - 1)",
      "length(c5)", "strpos('héllo', 'l')", "upper('héllo')", "round(2.5::float8)", "trunc(-2.5)", "round(1234.5, -2)",
      "f4 * f4", "f4 + 1", "i8 * i8", "i2 * i2 * i2", "100000::bigint * 100000", "n52::int", "99999.5::numeric::int",
      "1e20::numeric::bigint", "f8::numeric(4,2)", "f4::numeric", "'12.345'::numeric(5,2)", "'x'::varchar(0)",
      "'abc'::char(2)", "'ab '::varchar(2)", "'abcdef'::varchar(3)", "i4::varchar(3)", "true::int", "0::boolean",
      "(1 = 1) = (2 = 2)", "b < false", "greatest(1.5::float8, 'NaN'::float8)", "ia[1]", "ia[2]", "ia[4]",
      "ia[i4n]", "ia[0]", "array_length(ia, 1)", "cardinality(ia)", "ARRAY[i4, i4n] = ARRAY[100000, null]",
      "ARRAY[t, tn]", "ia::text", "(ARRAY[1.5, n52])[2]", "nextval('s')", "chr(0)", "format('%s %', t)",
      "i4::numeric(4,1)", "i4::numeric(8,2)", "i2::numeric", "i8::numeric(3)", "n52::numeric(3,1)",
      "n52::numeric(10,4)", "n103::numeric(2,2)", "i4n::numeric(4,1)", "-n52::numeric(4,0)",
      // The inline numeric paths: same-scale sums, their overflow, integer casts at the
      // edge of the precision, a scale beyond the inline range.
      "n52 + n52", "n52 - n52 - n52", "n52 + n103", "n52 + i4n::numeric", "i8::numeric + i8",
      "99999999999999999999999999999999999999::numeric + 99999999999999999999999999999999999999::numeric",
      "-99999999999999999999999999999999999999::numeric - 99999999999999999999999999999999999999::numeric",
      "i8::numeric(10,0)", "i8::numeric(11,1)", "(-i8)::numeric(10,0)", "(-i8)::numeric(9,0)",
      "i8::numeric(38,18)", "i8::numeric(38,20)", "(n52 + n52)::numeric(4,2)", "(n52 + n52)::numeric(3,2)",
      // The inline numeric product: 64-bit mantissas (their scales add), a mantissa past
      // 64 bits, a product past 38 digits (overflow), a scale past 38 (rounded), NULLs.
      "n52 * n52", "n52 * n103 * n52", "i4::numeric * n52", "n52 * 0", "-n52 * n103", "n52 * nn",
      "i8::numeric * i8", "i8::numeric * i8 * i8", "(i8::numeric * i8 * i8) * n52",
      "(i8::numeric * i8 * i8) * (i8::numeric * i8 * i8)", "-i8::numeric * (i8::numeric * i8 * i8)",
      "(n52 / 1000000000000000000000) * (n103 / 1000000000000000000)",
      "(n52 / 10000000000000000000) * (n103 / 1000000000000000000)",
      "n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52 * n52",
      // ascii() of a char(n) ignores its padding only when the value is all blanks.
      "ascii(c5)", "ascii('   '::char(3))", "ascii(' a'::char(3))", "ascii(''::char(2))", "ascii(' '::text)",
      // array_length and its kin are inline: NULL for a NULL array or dimension, a
      // dimension other than 1, or an empty array.
      "array_length(ia, 2)", "array_length(ia, i4n)", "array_upper(ia, 1)", "array_lower(ia, 1)",
      "array_lower(ia, 0)", "array_length(null::int[], 1)", "array_length(ARRAY[i4], 1)",
      "array_length((ARRAY[ia[1]])[2:1], 1)", "array_upper(ARRAY[tn, t], 1)",
      // Inline ascii(): an ASCII first byte in place, the runtime for the rest.
      "ascii(t || 'é')", "ascii('é' || t)", "ascii(tn)", "ascii(substr(t, 6))", "ascii(' ' || t)",
      "ascii((' ' || t)::char(8))", "ascii(('  ' || tn)::char(3))", "ascii(v10::char(4))",
      // Inline subscripts: below 1, the last, past the end, far outside an int's range.
      "ia[-1]", "ia[3]", "ia[i4]", "ia[i4m]", "ia[i8]", "ia[-i8]", "(ARRAY[t, tn])[i4n]", "(ARRAY[t, tn])[1]",
      // Inline numeric comparisons: one scale by mantissa (beyond int64 too), the runtime
      // for scales that differ, NULLs, and text, which shares the boxed path.
      "n52 < n52 + n52", "n52 = n52", "n52 > -n52", "n52 < n103", "n52 = 12.50", "n52 <> 12.5",
      "n52 < nn", "nn = nn", "i4::numeric < i4n::numeric", "i4::numeric >= 100000",
      "99999999999999999999999999999999999999::numeric > -99999999999999999999999999999999999999::numeric",
      "12345678901234567890.5 < 12345678901234567890.4", "greatest(n52, n103, -n52)", "least(n52, 12.5)",
      "n52 in (n103, 12.50)", "t < 'hello'", "c5 = 'ab   '", "c5 > v10",
  };
  // Constant-only errors ('abc'::int) are raised by the binder's folding: not compiled.
  int bound = 0;
  for (const char* sql : cases) bound += Check(jit_, sql, scope, ctx);
  for (const char* sql : cases) Check(jit_o2_, sql, scope, ctx);
  EXPECT_GT(bound, 80);
}

TEST_F(Differential, RandomOverFrameVariables) {
  std::vector<Name> names;
  std::vector<std::pair<std::string, Cat>> gen_names;
  std::vector<Datum> frame;
  for (const TypedValue& v : Values()) {
    names.push_back({v.name, v.type, {planner::SlotSpace::kVariable, static_cast<int>(frame.size())}});
    gen_names.push_back({v.name, v.cat});
    frame.push_back(v.value);
  }
  TestScope scope(names);
  planner::EvalContext ctx;
  ctx.variables = frame;
  ExprGen gen(Seed(20261122), gen_names);
  int bound = 0, tried = 0;
  for (int i = 0, n = Iterations(600); i < n; ++i) {
    ++tried;
    if (Check(i % 4 == 0 ? jit_o2_ : jit_, gen.Any(3), scope, ctx)) ++bound;  // every fourth in the -O2 tier
    if (HasFailure() && i > 50) break;
  }
  EXPECT_GT(bound, tried / 2) << "the generator makes too many ill-typed expressions";
}

TEST_F(Differential, RandomOverRowColumns) {
  std::vector<engine::Column> columns;
  std::vector<engine::Value> values;
  std::vector<Name> names;
  std::vector<std::pair<std::string, Cat>> gen_names;
  std::vector<TypedValue> tv = Values();
  std::erase_if(tv, [](const TypedValue& v) { return v.type.is_array(); });  // no array columns
  for (size_t i = 0; i < tv.size(); ++i) {
    const TypedValue& v = tv[i];
    SqlType type = v.type;
    if (type.id == TypeId::kNumeric && type.precision > 18) type = SqlType::Numeric(18, type.scale);
    columns.push_back(planner::ToColumn(v.name, type, false));
    values.push_back(planner::DatumToValue(v.value, type));
    names.push_back({v.name, planner::FromColumn(columns.back()), {planner::SlotSpace::kColumn, static_cast<int>(i)}});
    gen_names.push_back({v.name, v.cat});
  }
  engine::Schema schema("t", columns, {0});
  engine::RowValuePtr row = MakeRow(schema, values);
  TestScope scope(names);
  planner::EvalContext ctx;
  ctx.row = row.get();
  ctx.schema = &schema;
  ExprGen gen(Seed(777), gen_names);
  int bound = 0, tried = 0;
  for (int i = 0, n = Iterations(300); i < n; ++i) {
    ++tried;
    if (Check(i % 4 == 0 ? jit_o2_ : jit_, gen.Any(3), scope, ctx)) ++bound;  // every fourth in the -O2 tier
    if (HasFailure() && i > 50) break;
  }
  EXPECT_GT(bound, tried / 2);
}

TEST(Jit, DumpsIrAndMeasuresCompileTime) {
  Jit jit(OptLevel::kO2);
  TestScope scope({{"x", SqlType::Of(TypeId::kInt4), {planner::SlotSpace::kVariable, 0}}});
  planner::ExprPtr e = BindExpr("x * 2 + 1", scope);
  CompileOptions options;
  options.dump_ir = true;
  CompiledExpr c = CompileExpr(jit, *e, nullptr, options);
  EXPECT_NE(c.ir().find("define"), std::string::npos) << c.ir();
  EXPECT_NE(c.ir().find("caracal_expr"), std::string::npos);
  EXPECT_GT(c.compile_ms(), 0);
  std::vector<Datum> frame = {Datum::Int(20)};
  planner::EvalContext ctx;
  ctx.variables = frame;
  EXPECT_EQ(c.Eval(ctx).i, 41);
}

TEST(Jit, ManyUnitsCompileAndFree) {
  Jit jit(OptLevel::kO1);
  TestScope scope({{"x", SqlType::Of(TypeId::kInt8), {planner::SlotSpace::kVariable, 0}}});
  std::vector<Datum> frame = {Datum::Int(3)};
  planner::EvalContext ctx;
  ctx.variables = frame;
  for (int i = 0; i < 50; ++i) {
    planner::ExprPtr e = BindExpr("x + " + std::to_string(i), scope);
    CompiledExpr c = CompileExpr(jit, *e);  // freed at the end of each iteration
    EXPECT_EQ(c.Eval(ctx).i, 3 + i);
  }
}

}  // namespace
}  // namespace caracal::codegen::testing
