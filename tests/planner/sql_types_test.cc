// Unit tests of the planner's value layer: Numeric arithmetic and scales, float and
// timestamp text, text input errors. Expected texts match PostgreSQL 15's output.
#include <gtest/gtest.h>

#include "planner/types/cast.h"
#include "planner/types/datum.h"
#include "planner/types/numeric.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {
namespace {

Numeric N(const char* s) { return *Numeric::Parse(s); }

TEST(NumericTest, ParseKeepsScaleAndPrints) {
  EXPECT_EQ(N("12.50").ToString(), "12.50");
  EXPECT_EQ(N("-0.05").ToString(), "-0.05");
  EXPECT_EQ(N("1e3").ToString(), "1000");
  EXPECT_EQ(N(" 7 ").ToString(), "7");
  EXPECT_FALSE(Numeric::Parse("1.2.3"));
  EXPECT_FALSE(Numeric::Parse("abc"));
}

TEST(NumericTest, ResultScales) {
  EXPECT_EQ((N("1.5") + N("2.25")).ToString(), "3.75");
  EXPECT_EQ((N("1.5") * N("2.25")).ToString(), "3.375");
  EXPECT_EQ((N("1") / N("3")).ToString(), "0.33333333333333333333");
  EXPECT_EQ((N("6") / N("3")).ToString(), "2.0000000000000000");
  EXPECT_EQ((N("100.0") / N("3")).ToString(), "33.3333333333333333");
  EXPECT_EQ((N("7.5") % N("2")).ToString(), "1.5");
  EXPECT_EQ(N("2.5").Rescale(0).ToString(), "3");
  EXPECT_EQ(N("-2.5").Rescale(0).ToString(), "-3");
  EXPECT_EQ(N("-2.7").Floor().ToString(), "-3");
  EXPECT_THROW(N("1") / N("0"), SqlError);
}

TEST(DatumTextTest, Floats) {
  EXPECT_EQ(Float8Text(1e15), "1e+15");
  EXPECT_EQ(Float8Text(1e14), "100000000000000");
  EXPECT_EQ(Float8Text(0.0001), "0.0001");
  EXPECT_EQ(Float8Text(1e-5), "1e-05");
  EXPECT_EQ(Float8Text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(Float4Text(1.0f / 3), "0.33333334");
  EXPECT_EQ(Float4Text(1e6f), "1e+06");
  EXPECT_EQ(Float8Text(-0.0), "-0");
}

TEST(DatumTextTest, TimestampsRoundTrip) {
  SqlType ts = SqlType::Of(TypeId::kTimestamp);
  for (const char* s : {"2024-01-01 00:00:00", "2024-02-29 23:59:59.5", "1999-12-31 12:00:00.000001",
                        "1970-01-01 00:00:00"})
    EXPECT_EQ(DatumToText(DatumFromText(s, ts), ts), s);
  EXPECT_EQ(DatumToText(DatumFromText("2024-03-01T10:20", ts), ts), "2024-03-01 10:20:00");
  EXPECT_THROW(DatumFromText("2023-02-29", ts), SqlError);
  EXPECT_THROW(DatumFromText("yesterday-ish", ts), SqlError);
}

TEST(DatumTextTest, InputErrors) {
  try {
    DatumFromText("12x", SqlType::Of(TypeId::kInt4));
    FAIL();
  } catch (const SqlError& e) {
    EXPECT_EQ(e.sqlstate(), "22P02");
    EXPECT_STREQ(e.what(), "invalid input syntax for type integer: \"12x\"");
  }
  try {
    DatumFromText("40000", SqlType::Of(TypeId::kInt2));
    FAIL();
  } catch (const SqlError& e) {
    EXPECT_STREQ(e.what(), "value \"40000\" is out of range for type smallint");
  }
  EXPECT_EQ(DatumFromText("ab", SqlType{TypeId::kBpchar, 4, -1}).s, "ab  ");
  EXPECT_THROW(DatumFromText("abcde", SqlType{TypeId::kVarchar, 4, -1}), SqlError);
  EXPECT_EQ(DatumFromText("abcd   ", SqlType{TypeId::kVarchar, 4, -1}).s, "abcd");
}

TEST(CastTest, Contexts) {
  auto ctx = [](TypeId a, TypeId b) { return CastContextFor(SqlType::Of(a), SqlType::Of(b)); };
  EXPECT_EQ(ctx(TypeId::kInt4, TypeId::kInt8), CastContext::kImplicit);
  EXPECT_EQ(ctx(TypeId::kInt8, TypeId::kInt4), CastContext::kAssignment);
  EXPECT_EQ(ctx(TypeId::kInt4, TypeId::kNumeric), CastContext::kImplicit);
  EXPECT_EQ(ctx(TypeId::kNumeric, TypeId::kFloat8), CastContext::kImplicit);
  EXPECT_EQ(ctx(TypeId::kFloat8, TypeId::kNumeric), CastContext::kAssignment);
  EXPECT_EQ(ctx(TypeId::kInt4, TypeId::kText), CastContext::kAssignment);
  EXPECT_EQ(ctx(TypeId::kText, TypeId::kInt4), CastContext::kExplicit);
  EXPECT_EQ(ctx(TypeId::kBool, TypeId::kTimestamp), CastContext::kNone);
  EXPECT_EQ(ctx(TypeId::kUnknown, TypeId::kTimestamp), CastContext::kImplicit);
}

}  // namespace
}  // namespace caracal::planner
