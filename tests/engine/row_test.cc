#include <gtest/gtest.h>

#include "engine/types/errors.h"
#include "engine/storage/row.h"
#include "engine/types/row_value.h"

namespace caracal::engine {
namespace {

Schema MixedSchema() {
  return Schema("t",
                {{"id", ColumnType::kInteger, 0, 0, true},
                 {"name", ColumnType::kVarchar, 20},
                 {"price", ColumnType::kNumeric, 6, 2},
                 {"ok", ColumnType::kBoolean},
                 {"code", ColumnType::kChar, 4},
                 {"ratio", ColumnType::kDouble}},
                {0});
}

TEST(RowValueTest, BuildsAndReadsEveryType) {
  Schema s = MixedSchema();
  std::vector<Value> v = {Value::Int(7), Value::String("widget"), Value::Numeric(1999, 2), Value::Bool(true),
                          Value::String("ab"), Value::Null()};
  RowValuePtr row = MakeRow(s, v);
  EXPECT_EQ(row->GetInt(0), 7);
  EXPECT_EQ(row->GetString(1), "widget");
  EXPECT_EQ(row->Get(s, 2).ToText(), "19.99");
  EXPECT_EQ(row->Get(s, 3).ToText(), "t");
  EXPECT_EQ(row->GetString(4), "ab  ");  // char(n) is blank-padded
  EXPECT_TRUE(row->IsNull(5));
  EXPECT_FALSE(row->IsNull(1));
}

TEST(RowValueTest, CopyAndModifyKeepsOtherColumns) {
  Schema s = MixedSchema();
  std::vector<Value> v = {Value::Int(1), Value::String("a"), Value::Numeric(5, 2), Value::Bool(false),
                          Value::String("zzzz"), Value::Double(0.5)};
  RowValuePtr a = MakeRow(s, v);
  RowValuePtr b = RowBuilder(s, *a).SetString(1, "a much longer name").Build();
  EXPECT_EQ(b->GetString(1), "a much longer name");
  EXPECT_EQ(b->GetString(4), "zzzz");
  EXPECT_EQ(b->GetDouble(5), 0.5);
  EXPECT_EQ(a->GetString(1), "a");
}

// RowPatch rewrites fixed-width slots of a copied blob; the result must be the very bytes
// RowBuilder(schema, base) builds with the same changes (the state hash reads bytes).
TEST(RowValueTest, PatchBuildsTheSameBytesAsTheBuilder) {
  Schema s = MixedSchema();
  std::vector<Value> v = {Value::Int(1), Value::String("a name"), Value::Numeric(5, 2), Value::Null(),
                          Value::String("zz"), Value::Double(0.5)};
  RowValuePtr base = MakeRow(s, v);
  struct Change {
    int col;
    Value value;
  };
  const std::vector<std::vector<Change>> cases = {
      {{2, Value::Numeric(123456, 2)}},
      {{2, Value::Int(7)}, {3, Value::Bool(true)}},
      {{5, Value::Null()}, {2, Value::Null()}},
      {{5, Value::Double(-2.25)}, {0, Value::Int(-9)}, {3, Value::Bool(false)}},
      {{3, Value::Null()}},
  };
  for (const auto& changes : cases) {
    RowBuilder builder(s, *base);
    RowPatch patch(*base);
    for (const Change& c : changes) {
      builder.Set(c.col, c.value);
      patch.Set(s, c.col, c.value);
    }
    RowValuePtr built = builder.Build();
    RowValuePtr patched = patch.Build();
    EXPECT_EQ(patched->bytes(), built->bytes());
  }
  EXPECT_EQ(base->Get(s, 2).ToText(), "0.05") << "the base row is not changed";
  RowPatch patch(*base);
  EXPECT_THROW(patch.Set(s, 0, Value::Null()), EngineError) << "NOT NULL";
  EXPECT_THROW(patch.Set(s, 2, Value::String("x")), EngineError) << "kind mismatch";
}

// A string of the same size is overwritten in place: still the builder's bytes, whichever
// of the two strings changes, alone or with a fixed-width column.
TEST(RowValueTest, PatchOfASameSizeStringBuildsTheSameBytesAsTheBuilder) {
  Schema s = MixedSchema();
  std::vector<Value> v = {Value::Int(1), Value::String("a name"), Value::Numeric(5, 2), Value::Null(),
                          Value::String("zz"), Value::Double(0.5)};
  RowValuePtr base = MakeRow(s, v);
  for (int col : {1, 4}) {
    const std::string replacement(base->GetString(col).size(), 'q');
    RowValuePtr built = RowBuilder(s, *base).SetString(col, replacement).Set(2, Value::Int(3)).Build();
    RowValuePtr patched = RowPatch(*base).SetSameSizeString(col, replacement).Set(s, 2, Value::Int(3)).Build();
    EXPECT_EQ(patched->bytes(), built->bytes()) << "column " << col;
    EXPECT_EQ(patched->GetString(col), replacement);
  }
  EXPECT_EQ(base->GetString(1), "a name") << "the base row is not changed";
  RowPatch patch(*base);
  EXPECT_THROW(patch.SetSameSizeString(1, "longer than before"), std::logic_error);
  RowValuePtr null_string = RowBuilder(s, *base).SetNull(4).Build();
  RowPatch from_null(*null_string);
  EXPECT_THROW(from_null.SetSameSizeString(4, ""), std::logic_error) << "a NULL has no bytes to overwrite";
}

TEST(RowValueTest, NotNullAndTypeErrors) {
  Schema s = MixedSchema();
  std::vector<Value> null_id = {Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null()};
  EXPECT_THROW(MakeRow(s, null_id), EngineError);
  std::vector<Value> wrong = {Value::String("x"), Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null()};
  EXPECT_THROW(MakeRow(s, wrong), EngineError);
  std::vector<Value> short_row = {Value::Int(1)};
  EXPECT_THROW(MakeRow(s, short_row), EngineError);
}

TEST(NumericTest, RescalesRoundingHalfAwayFromZero) {
  EXPECT_EQ(Value::Numeric(12345, 3).NumericAtScale(2), 1235);
  EXPECT_EQ(Value::Numeric(-12345, 3).NumericAtScale(2), -1235);
  EXPECT_EQ(Value::Numeric(12344, 3).NumericAtScale(2), 1234);
  EXPECT_EQ(Value::Int(3).NumericAtScale(2), 300);
  EXPECT_EQ(Value::Numeric(-5, 2).ToText(), "-0.05");
  EXPECT_EQ(Value::Numeric(100, 0).ToText(), "100");
}

TEST(TimestampTest, PrintsLikePostgres) {
  EXPECT_EQ(Value::Timestamp(0).ToText(), "2000-01-01 00:00:00");
  EXPECT_EQ(Value::Timestamp(86400000000LL * 366 + 3723500000LL).ToText(), "2001-01-01 01:02:03.5");
  EXPECT_EQ(Value::Timestamp(-1000000).ToText(), "1999-12-31 23:59:59");
}

uintptr_t Data(int n) { return reinterpret_cast<uintptr_t>(MakeRow(Schema("x", {{"a", ColumnType::kBigInt}}, {0}), std::vector<Value>{Value::Int(n)}).release()); }

TEST(VersionArrayTest, InsertionSortKeepsOrderAndFindBeforeSearches) {
  Row row{Key()};
  std::vector<SerialId> sids = {MakeSerialId(1, 5), MakeSerialId(1, 2), MakeSerialId(1, 9), MakeSerialId(1, 1),
                                MakeSerialId(2, 3)};
  for (SerialId s : sids) ASSERT_TRUE(row.InsertVersion(s, version::kPending));
  EXPECT_FALSE(row.InsertVersion(MakeSerialId(1, 5), version::kPending));  // one version per transaction
  ASSERT_EQ(row.size(), 5u);
  for (uint32_t i = 1; i < row.size(); ++i) EXPECT_LT(row.entry(i - 1).sid, row.entry(i).sid);
  EXPECT_EQ(row.FindBefore(MakeSerialId(1, 1)), -1);
  EXPECT_EQ(row.FindBefore(MakeSerialId(1, 2)), 0);
  EXPECT_EQ(row.FindBefore(MakeSerialId(1, 6)), 2);
  EXPECT_EQ(row.FindBefore(MakeSerialId(9, 0)), 4);
  EXPECT_EQ(row.FindExact(MakeSerialId(1, 9)), 3);
  EXPECT_EQ(row.FindExact(MakeSerialId(1, 8)), -1);
  // Settle so the destructor has nothing pending to worry about.
  for (uint32_t i = 0; i < row.size(); ++i) row.entry(i).value.store(version::kIgnore);
}

TEST(VersionArrayTest, CollectKeepsTheVersionOldReadersNeed) {
  Row row{Key()};
  row.InsertVersion(MakeSerialId(1, 1), Data(1));
  row.InsertVersion(MakeSerialId(2, 1), Data(2));
  row.InsertVersion(MakeSerialId(2, 2), version::kIgnore);
  row.InsertVersion(MakeSerialId(3, 1), Data(3));
  // A reader pinned at epoch 2 reads before (3, 0): it needs the (2, 1) version.
  size_t freed = row.Collect(MakeSerialId(3, 0));
  EXPECT_EQ(freed, 2u);  // (1,1) and the ignore marker
  ASSERT_EQ(row.size(), 2u);
  EXPECT_EQ(row.entry(0).sid, MakeSerialId(2, 1));
  EXPECT_EQ(row.entry(1).sid, MakeSerialId(3, 1));
  EXPECT_EQ(row.Collect(MakeSerialId(4, 0)), 1u);
  EXPECT_EQ(row.size(), 1u);
  EXPECT_FALSE(row.IsDead(MakeSerialId(4, 0)));
  row.InsertVersion(MakeSerialId(4, 1), version::kTombstone);
  row.Collect(MakeSerialId(5, 0));
  EXPECT_TRUE(row.IsDead(MakeSerialId(5, 0)));
}

}  // namespace
}  // namespace caracal::engine
