// SetRowColumn / PatchRowColumn store a Datum into a row without an engine Value in
// between. The rows they build must be byte for byte what the Value path builds (the
// state hash reads bytes), and what the Value path rejects they must reject the same way.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "engine/types/errors.h"
#include "engine/types/row_value.h"
#include "planner/types/cast.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {
namespace {

engine::Schema EveryTypeSchema() {
  return engine::Schema("t",
                {{"id", engine::ColumnType::kInteger, 0, 0, true},
                 {"big", engine::ColumnType::kBigInt},
                 {"price", engine::ColumnType::kNumeric, 6, 2},
                 {"ok", engine::ColumnType::kBoolean},
                 {"code", engine::ColumnType::kChar, 4},
                 {"name", engine::ColumnType::kVarchar, 20},
                 {"ratio", engine::ColumnType::kDouble},
                 {"r4", engine::ColumnType::kReal},
                 {"at", engine::ColumnType::kTimestamp},
                 {"note", engine::ColumnType::kText}},
                {0});
}

struct Case {
  int col;
  Datum value;
  SqlType type;
};

// What a row store of `c` gives: the row's bytes, or the error's text.
struct Outcome {
  std::optional<std::string> bytes;
  std::string error;
  bool operator==(const Outcome&) const = default;
};

template <typename F>
Outcome Capture(F build) {
  try {
    return {std::string(build()->bytes()), ""};
  } catch (const SqlError& e) {
    return {std::nullopt, std::string("sql:") + e.what()};
  } catch (const engine::EngineError& e) {
    return {std::nullopt, std::string("engine:") + e.what()};
  }
}

std::vector<Case> Cases() {
  return {
      {1, Datum::Int(-42), SqlType::Of(TypeId::kInt8)},
      {0, Datum::Int(7), SqlType::Of(TypeId::kInt4)},
      {2, Datum::Num(Numeric(12345, 2)), SqlType::Numeric(6, 2)},
      {2, Datum::Num(Numeric(-1, 2)), SqlType::Numeric(6, 2)},
      {2, Datum::Num(Numeric(12345, 3)), SqlType::Numeric(8, 3)},  // scale differs: rounded
      {2, Datum::Num(Numeric(5, 0)), SqlType::Of(TypeId::kNumeric)},  // unconstrained
      {2, Datum::Num(Numeric(static_cast<__int128>(1) << 80, 2)), SqlType::Numeric(6, 2)},  // too wide
      {2, Datum::Int(3), SqlType::Of(TypeId::kInt4)},  // an integer into numeric
      {3, Datum::Bool(true), SqlType::Of(TypeId::kBool)},
      {3, Datum::Bool(false), SqlType::Of(TypeId::kBool)},
      {4, Datum::String("ab"), SqlType{TypeId::kBpchar, 4, -1}},  // padded
      {4, Datum::String("abcd"), SqlType{TypeId::kBpchar, 4, -1}},
      {5, Datum::String("a name"), SqlType{TypeId::kVarchar, 20, -1}},
      {5, Datum::String(""), SqlType{TypeId::kVarchar, 20, -1}},
      {6, Datum::Float(0.1), SqlType::Of(TypeId::kFloat8)},
      {7, Datum::Float(0.1), SqlType::Of(TypeId::kFloat4)},  // rounded to float
      {8, Datum::Timestamp(123456789), SqlType::Of(TypeId::kTimestamp)},
      {9, Datum::String(std::string(300, 'x')), SqlType::Of(TypeId::kText)},
      {1, Datum::Timestamp(5), SqlType::Of(TypeId::kTimestamp)},  // wrong kind: rejected
      {8, Datum::Int(5), SqlType::Of(TypeId::kInt8)},             // wrong kind: rejected
      {0, Datum::String("7"), SqlType::Of(TypeId::kText)},        // wrong kind: rejected
  };
}

TEST(DatumRowTest, SetRowColumnBuildsWhatTheValuePathBuilds) {
  const engine::Schema schema = EveryTypeSchema();
  for (const Case& c : Cases()) {
    SCOPED_TRACE(testing::Message() << "column " << c.col << " type " << c.type.Name());
    auto direct = Capture([&] {
      engine::RowBuilder b(schema);
      b.SetInt(0, 1);
      SetRowColumn(b, c.col, schema.column(c.col), c.value, c.type);
      return b.Build();
    });
    auto via_value = Capture([&] {
      engine::RowBuilder b(schema);
      b.SetInt(0, 1);
      b.Set(c.col, DatumToValue(c.value, c.type));
      return b.Build();
    });
    EXPECT_EQ(direct, via_value) << direct.error << " / " << via_value.error;
  }
}

TEST(DatumRowTest, PatchRowColumnPatchesWhatTheValuePathPatches) {
  const engine::Schema schema = EveryTypeSchema();
  engine::RowBuilder base_builder(schema);
  base_builder.SetInt(0, 1).SetString(4, "zzzz").SetString(5, "old");
  engine::RowValuePtr base = base_builder.Build();
  for (const Case& c : Cases()) {
    if (IsVariableWidth(schema.column(c.col).type)) continue;  // patches are for fixed-width columns
    SCOPED_TRACE(testing::Message() << "column " << c.col << " type " << c.type.Name());
    auto direct = Capture([&] {
      engine::RowPatch p(*base);
      PatchRowColumn(p, schema, c.col, c.value, c.type);
      return p.Build();
    });
    auto via_value = Capture([&] {
      engine::RowPatch p(*base);
      p.Set(schema, c.col, DatumToValue(c.value, c.type));
      return p.Build();
    });
    EXPECT_EQ(direct, via_value) << direct.error << " / " << via_value.error;
  }
}

// CastKeepsValue lets an assignment skip the cast: it must never say so when the cast
// would change the value (pad, cut, strip blanks) or raise.
TEST(DatumRowTest, CastKeepsValueOnlyWhenTheCastDoes) {
  const std::vector<SqlType> types = {SqlType::Of(TypeId::kText),       SqlType{TypeId::kVarchar, -1, -1},
                                      SqlType{TypeId::kVarchar, 3, -1}, SqlType{TypeId::kVarchar, 4, -1},
                                      SqlType{TypeId::kBpchar, 4, -1},  SqlType{TypeId::kBpchar, 5, -1},
                                      SqlType{TypeId::kBpchar, -1, -1}};
  const std::vector<std::string> values = {"", "ab", "abcd", "ab  ", "abcde", "h\xc3\xa9!", "\xc3\xa9\xc3\xa9"};
  int kept = 0;
  for (const SqlType& from : types)
    for (const SqlType& to : types)
      for (const std::string& text : values) {
        const Datum v = Datum::String(text);
        if (!CastKeepsValue(v, from, to)) continue;
        ++kept;
        SCOPED_TRACE(testing::Message() << from.Name() << " -> " << to.Name() << " '" << text << "'");
        Datum cast;
        ASSERT_NO_THROW(cast = CastDatum(v, from, to, false));
        EXPECT_EQ(cast.kind, Datum::Kind::kString);
        EXPECT_EQ(cast.s, text);
      }
  EXPECT_GT(kept, 40);  // the fast path is taken, not just never wrong
  EXPECT_FALSE(CastKeepsValue(Datum::String("ab  "), SqlType{TypeId::kBpchar, 4, -1}, SqlType::Of(TypeId::kText)));
  EXPECT_FALSE(CastKeepsValue(Datum::String("ab"), SqlType::Of(TypeId::kText), SqlType{TypeId::kBpchar, 4, -1}));
  EXPECT_FALSE(CastKeepsValue(Datum::Int(1), SqlType::Of(TypeId::kInt4), SqlType::Of(TypeId::kInt8)));
}

// Elements as text, e.g. "i1,n,b0": what a frame would read through a subscript.
std::string Elements(const Datum& d) {
  std::string out;
  for (const Datum& e : *d.array) {
    if (!out.empty()) out += ',';
    out += e.kind == Datum::Kind::kInt ? "i" + std::to_string(e.i)
           : e.kind == Datum::Kind::kBool ? "b" + std::to_string(e.i)
           : e.kind == Datum::Kind::kNull ? std::string("n")
                                          : "s" + e.s;
  }
  return out;
}

TEST(DatumRowTest, AssignFromValueRewritesOnlyAnArrayNothingElseHolds) {
  const SqlType int_array = SqlType::ArrayOf(SqlType::Of(TypeId::kInt4));
  Datum frame_slot = DatumFromValue(engine::Value::Array({engine::Value::Int(1), engine::Value::Int(2), engine::Value::Int(3)}), int_array);
  const void* storage = frame_slot.array.get();

  // Held by this slot only: rewritten in place, shorter, with a NULL.
  AssignFromValue(frame_slot, engine::Value::Array({engine::Value::Int(9), engine::Value::Null()}), int_array);
#if !defined(__SANITIZE_THREAD__)  // which always allocates (see AssignFromValue)
  EXPECT_EQ(frame_slot.array.get(), storage);
#endif
  EXPECT_EQ(Elements(frame_slot), "i9,n");

  // Shared with another Datum (a local that copied the parameter): the copy keeps its values.
  Datum copy = frame_slot;
  AssignFromValue(frame_slot, engine::Value::Array({engine::Value::Int(4), engine::Value::Int(5), engine::Value::Int(6)}), int_array);
  EXPECT_NE(frame_slot.array.get(), storage);
  EXPECT_EQ(Elements(frame_slot), "i4,i5,i6");
  EXPECT_EQ(Elements(copy), "i9,n");

  // Elements of another kind (text, then a NULL) become the new kind in place.
  const SqlType text_array = SqlType::ArrayOf(SqlType::Of(TypeId::kText));
  Datum strings = DatumFromValue(engine::Value::Array({engine::Value::String("a long string, longer than SSO"), engine::Value::Null()}), text_array);
  AssignFromValue(strings, engine::Value::Array({engine::Value::Int(1), engine::Value::Int(2)}), int_array);
  EXPECT_EQ(Elements(strings), "i1,i2");
  EXPECT_TRUE(strings.array->at(0).s.empty());
  const SqlType bool_array = SqlType::ArrayOf(SqlType::Of(TypeId::kBool));
  AssignFromValue(strings, engine::Value::Array({engine::Value::Bool(true), engine::Value::Bool(false), engine::Value::Null()}), bool_array);
  EXPECT_EQ(Elements(strings), "b1,b0,n");

  // The same errors as DatumFromValue, and a non-array argument replaces the array.
  EXPECT_THROW(AssignFromValue(frame_slot, engine::Value::Array({engine::Value::Int(int64_t{1} << 40)}), int_array), SqlError);
  EXPECT_THROW(DatumFromValue(engine::Value::Array({engine::Value::Int(int64_t{1} << 40)}), int_array), SqlError);
  AssignFromValue(frame_slot, engine::Value::Int(7), SqlType::Of(TypeId::kInt4));
  EXPECT_EQ(frame_slot.kind, Datum::Kind::kInt);
  EXPECT_EQ(frame_slot.i, 7);
}

}  // namespace
}  // namespace caracal::planner
