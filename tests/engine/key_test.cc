#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/types/errors.h"
#include "engine/types/key.h"

namespace caracal::engine {
namespace {

TEST(KeyTest, IntegerOrderMatchesNumericOrder) {
  std::vector<int64_t> values = {INT64_MIN, -1000000, -2, -1, 0, 1, 2, 255, 256, 1 << 20, INT64_MAX};
  for (ColumnType width : {ColumnType::kBigInt}) {
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      Key a, b;
      a.AppendInt(values[i], width);
      b.AppendInt(values[i + 1], width);
      EXPECT_LT(Compare(a, b), 0) << values[i] << " vs " << values[i + 1];
    }
  }
  Key a, b;
  a.AppendInt(-5, ColumnType::kInteger);
  b.AppendInt(3, ColumnType::kInteger);
  EXPECT_LT(Compare(a, b), 0);
  a = Key();
  b = Key();
  a.AppendInt(-5, ColumnType::kSmallInt);
  b.AppendInt(-4, ColumnType::kSmallInt);
  EXPECT_LT(Compare(a, b), 0);
}

TEST(KeyTest, CompositeKeysOrderColumnByColumn) {
  auto make = [](int64_t x, const std::string& s) {
    Key k;
    k.AppendInt(x, ColumnType::kInteger);
    k.AppendString(s);
    return k;
  };
  EXPECT_LT(Compare(make(1, "zzz"), make(2, "")), 0);
  EXPECT_LT(Compare(make(1, "ab"), make(1, "abc")), 0);   // a prefix sorts first
  EXPECT_LT(Compare(make(1, std::string("a\0b", 3)), make(1, "a\x01")), 0);
  EXPECT_LT(Compare(make(1, "a"), make(1, std::string("a\0", 2))), 0);
}

TEST(KeyTest, DoubleOrder) {
  std::vector<double> v = {-1e300, -3.5, -0.0, 1e-300, 2.0, 1e300};
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    Key a, b;
    a.AppendDouble(v[i]);
    b.AppendDouble(v[i + 1]);
    EXPECT_LT(Compare(a, b), 0) << v[i];
  }
  Key z1, z2;
  z1.AppendDouble(0.0);
  z2.AppendDouble(-0.0);
  EXPECT_EQ(z1, z2);
}

// numeric of any precision (ColumnType::kDecimal): keys order as the numbers do, equal
// numbers of other scales are one key, and a key decodes to the canonical text.
TEST(KeyTest, DecimalKeysOrderAsNumbersAndIgnoreScale) {
  const Schema schema("d", {{"n", ColumnType::kDecimal}}, {0});
  auto key = [&](const std::string& text) { return EncodePrimaryKey(schema, std::vector<Value>{Value::String(text)}); };
  const std::vector<std::string> ascending = {
      "-123456789012345678901234567890.5", "-100", "-99.99", "-1.5", "-1.25", "-1", "-0.123", "-0.12", "-0.0001",
      "0", "0.0001", "0.12", "0.123", "1", "1.25", "1.5", "9.99", "10", "100.001", "12345678901234567890.5"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i)
    EXPECT_LT(Compare(key(ascending[i]), key(ascending[i + 1])), 0) << ascending[i] << " vs " << ascending[i + 1];
  EXPECT_EQ(key("1.5"), key("1.50"));
  EXPECT_EQ(key("0"), key("-0.000"));
  EXPECT_EQ(key("100"), key("100.0"));
  EXPECT_EQ(key("0.10"), key(".1"));
  // An int64 numeric Value encodes as its text does.
  EXPECT_EQ(EncodePrimaryKey(schema, std::vector<Value>{Value::Numeric(150, 2)}), key("1.5"));
  EXPECT_EQ(DecodeKey(schema, schema.primary_key(), key("-12.500"))[0].as_string(), "-12.5");
  EXPECT_EQ(DecodeKey(schema, schema.primary_key(), key("0.00012"))[0].as_string(), "0.00012");
  EXPECT_EQ(DecodeKey(schema, schema.primary_key(), key("1200"))[0].as_string(), "1200");
  EXPECT_EQ(DecodeKey(schema, schema.primary_key(), key("0"))[0].as_string(), "0");
  EXPECT_THROW(key("1.2.3"), KeyError);
  EXPECT_THROW(key("abc"), KeyError);
}

TEST(KeyTest, RoundTripsThroughDecode) {
  Schema s("t",
           {{"a", ColumnType::kInteger}, {"b", ColumnType::kText}, {"c", ColumnType::kBigInt},
            {"d", ColumnType::kNumeric, 12, 2}},
           {0, 1, 2, 3});
  std::vector<Value> vals = {Value::Int(-7), Value::String(std::string("x\0y", 3)), Value::Int(1LL << 40),
                             Value::Numeric(-12345, 2)};
  Key k = EncodePrimaryKey(s, vals);
  std::vector<Value> back = DecodeKey(s, s.primary_key(), k);
  ASSERT_EQ(back.size(), vals.size());
  for (size_t i = 0; i < vals.size(); ++i) EXPECT_TRUE(back[i] == vals[i]) << i;
}

TEST(KeyTest, BadKeysAreReportedNotCrashed) {
  Schema s("t", {{"a", ColumnType::kInteger}, {"b", ColumnType::kText}}, {0});
  std::vector<Value> too_many = {Value::Int(1), Value::Int(2)};
  EXPECT_THROW(EncodePrimaryKey(s, too_many), KeyError);
  std::vector<Value> null_key = {Value::Null()};
  EXPECT_THROW(EncodePrimaryKey(s, null_key), KeyError);
  std::vector<Value> wrong_type = {Value::String("x")};
  EXPECT_THROW(EncodePrimaryKey(s, wrong_type), KeyError);
}

TEST(KeyTest, LongKeysSpillToHeapAndCopy) {
  Key k;
  std::string big(500, 'q');
  k.AppendString(big);
  Key copy = k;
  Key moved = std::move(copy);
  EXPECT_EQ(moved, k);
  EXPECT_EQ(moved.size(), 502u);
}

TEST(KeyTest, PrefixSuccessorBoundsAllExtensions) {
  Key p;
  p.AppendInt(42, ColumnType::kInteger);
  Key ext = p;
  ext.AppendInt(INT64_MAX, ColumnType::kBigInt);
  Key next;
  next.AppendInt(43, ColumnType::kInteger);
  EXPECT_LT(Compare(ext, p.PrefixSuccessor()), 0);
  EXPECT_LE(Compare(p.PrefixSuccessor(), next), 0);
}

}  // namespace
}  // namespace caracal::engine
