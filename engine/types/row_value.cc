#include "engine/types/row_value.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>

#include "engine/types/errors.h"

namespace caracal::engine {

Value RowValue::Get(const Schema& schema, int col) const {
  if (IsNull(col)) return Value::Null();
  const Column& c = schema.column(col);
  switch (c.type) {
    case ColumnType::kSmallInt:
    case ColumnType::kInteger:
    case ColumnType::kBigInt: return Value::Int(GetInt(col));
    case ColumnType::kReal:
    case ColumnType::kDouble: return Value::Double(GetDouble(col));
    case ColumnType::kNumeric: return Value::Numeric(GetInt(col), c.scale);
    case ColumnType::kBoolean: return Value::Bool(GetBool(col));
    case ColumnType::kChar:
    case ColumnType::kVarchar:
    case ColumnType::kText:
    case ColumnType::kDecimal:
    case ColumnType::kUuid:
    case ColumnType::kBytea:
    case ColumnType::kJson:
    case ColumnType::kJsonb:
    case ColumnType::kArray: return Value::String(std::string(GetString(col)));
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampTz:
    case ColumnType::kDate:
    case ColumnType::kTime: return Value::Timestamp(GetInt(col));
  }
  return Value::Null();
}

std::vector<Value> RowValue::GetAll(const Schema& schema) const {
  std::vector<Value> out;
  out.reserve(schema.num_columns());
  for (int i = 0; i < schema.num_columns(); ++i) out.push_back(Get(schema, i));
  return out;
}

RowBuilder::RowBuilder(const Schema& schema) : schema_(schema), cells_(schema.num_columns()) {
  for (int i = 0; i < schema.num_columns(); ++i) cells_[i].is_string = IsVariableWidth(schema.column(i).type);
}

RowBuilder::RowBuilder(const Schema& schema, const RowValue& base) : RowBuilder(schema) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    RowCell& cell = cells_[i];
    cell.null = base.IsNull(i);
    if (cell.null) continue;
    if (cell.is_string)
      cell.str = base.GetString(i);
    else
      cell.bits = base.GetInt(i);
  }
}

RowBuilder& RowBuilder::SetNull(int col) {
  cells_[col].null = true;
  return *this;
}

RowBuilder& RowBuilder::SetInt(int col, int64_t v) {
  cells_[col].null = false;
  cells_[col].bits = v;
  return *this;
}

RowBuilder& RowBuilder::SetDouble(int col, double v) {
  cells_[col].null = false;
  cells_[col].bits = std::bit_cast<int64_t>(v);
  return *this;
}

RowBuilder& RowBuilder::SetString(int col, std::string_view v) {
  owned_.emplace_front(v);
  return SetStringRef(col, owned_.front());
}

RowBuilder& RowBuilder::SetStringRef(int col, std::string_view v) {
  cells_[col].null = false;
  cells_[col].str = v;
  return *this;
}

namespace {

EngineError NotNullViolation(const Schema& schema, const Column& c) {
  return EngineError("23502", fmt::format("null value in column \"{}\" of relation \"{}\" violates "
                                          "not-null constraint",
                                          c.name, schema.table_name()));
}

EngineError KindMismatch(const Column& c) {
  return EngineError("42804", fmt::format("column \"{}\" is of type {}", c.name, ColumnTypeName(c.type)));
}

// The slot bits of non-null `v` in fixed-width (non-string) column `c`, converted as
// RowBuilder::Set documents.
int64_t FixedBits(const Column& c, const Value& v) {
  switch (c.type) {
    case ColumnType::kSmallInt:
    case ColumnType::kInteger:
    case ColumnType::kBigInt:
      if (v.kind() != Value::Kind::kInt) throw KindMismatch(c);
      return v.as_int();
    case ColumnType::kReal:
      if (v.kind() == Value::Kind::kString || v.kind() == Value::Kind::kBool) throw KindMismatch(c);
      return std::bit_cast<int64_t>(static_cast<double>(static_cast<float>(v.ToDouble())));
    case ColumnType::kDouble:
      if (v.kind() == Value::Kind::kString || v.kind() == Value::Kind::kBool) throw KindMismatch(c);
      return std::bit_cast<int64_t>(v.ToDouble());
    case ColumnType::kNumeric:
      if (v.kind() != Value::Kind::kNumeric && v.kind() != Value::Kind::kInt && v.kind() != Value::Kind::kDouble)
        throw KindMismatch(c);
      return v.NumericAtScale(c.scale);
    case ColumnType::kBoolean:
      if (v.kind() != Value::Kind::kBool) throw KindMismatch(c);
      return v.as_bool();
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampTz:
    case ColumnType::kDate:
    case ColumnType::kTime:
      if (v.kind() != Value::Kind::kTimestamp) throw KindMismatch(c);
      return v.as_timestamp();
    case ColumnType::kChar:
    case ColumnType::kVarchar:
    case ColumnType::kText:
    case ColumnType::kDecimal:
    case ColumnType::kUuid:
    case ColumnType::kBytea:
    case ColumnType::kJson:
    case ColumnType::kJsonb:
    case ColumnType::kArray: break;
  }
  throw std::logic_error("FixedBits of a variable-width column");
}

}  // namespace

RowBuilder& RowBuilder::Set(int col, const Value& v) {
  const Column& c = schema_.column(col);
  if (v.is_null()) {
    if (c.not_null) throw NotNullViolation(schema_, c);
    return SetNull(col);
  }
  switch (c.type) {
    case ColumnType::kChar:
      if (v.kind() != Value::Kind::kString) throw KindMismatch(c);
      if (c.precision > 0 && static_cast<int>(v.as_string().size()) < c.precision)
        return SetString(col, v.as_string() + std::string(c.precision - v.as_string().size(), ' '));
      return SetString(col, v.as_string());
    case ColumnType::kVarchar:
    case ColumnType::kText:
      if (v.kind() != Value::Kind::kString) throw KindMismatch(c);
      return SetString(col, v.as_string());
    case ColumnType::kUuid:
      if (v.kind() != Value::Kind::kString || v.as_string().size() != 16) throw KindMismatch(c);
      return SetString(col, v.as_string());
    case ColumnType::kBytea:
    case ColumnType::kJson:
    case ColumnType::kJsonb:
    case ColumnType::kArray:  // the SQL layer passes the array's text
      if (v.kind() != Value::Kind::kString) throw KindMismatch(c);
      return SetString(col, v.as_string());
    case ColumnType::kDecimal:
      // The SQL layer passes its decimal text; integers and int64 numerics print as it would.
      if (v.kind() == Value::Kind::kString) return SetString(col, v.as_string());
      if (v.kind() != Value::Kind::kNumeric && v.kind() != Value::Kind::kInt) throw KindMismatch(c);
      return SetString(col, v.ToText());
    default:
      cells_[col].null = false;
      cells_[col].bits = FixedBits(c, v);
      return *this;
  }
}

RowPatch& RowPatch::Set(const Schema& schema, int col, const Value& v) {
  const Column& c = schema.column(col);
  if (v.is_null()) {
    if (c.not_null) throw NotNullViolation(schema, c);
    return SetNull(col);
  }
  const int64_t bits = FixedBits(c, v);
  bitmap()[col >> 3] &= static_cast<uint8_t>(~(1u << (col & 7)));
  Slot(col).i = bits;
  return *this;
}

RowPatch::RowPatch(const RowValue& base) {
  void* raw = std::malloc(base.size());
  if (raw == nullptr) throw std::bad_alloc();
  std::memcpy(raw, &base, base.size());
  row_.reset(static_cast<RowValue*>(raw));
}

RowPatch& RowPatch::SetSameSizeString(int col, std::string_view v) {
  if (row_->IsNull(col) || row_->GetString(col).size() != v.size())
    throw std::logic_error("RowPatch::SetSameSizeString: the base value is null or of another size");
  std::memcpy(reinterpret_cast<char*>(row_.get()) + Slot(col).str.offset, v.data(), v.size());
  return *this;
}

RowPatch& RowPatch::SetNull(int col) {
  bitmap()[col >> 3] |= static_cast<uint8_t>(1u << (col & 7));
  Slot(col).i = 0;
  return *this;
}

RowPatch& RowPatch::SetInt(int col, int64_t v) {
  bitmap()[col >> 3] &= static_cast<uint8_t>(~(1u << (col & 7)));
  Slot(col).i = v;
  return *this;
}

RowPatch& RowPatch::SetDouble(int col, double v) {
  bitmap()[col >> 3] &= static_cast<uint8_t>(~(1u << (col & 7)));
  Slot(col).d = v;
  return *this;
}

RowValuePtr EncodeRow(std::span<const RowCell> cells) {
  return EncodeRowWith(static_cast<int>(cells.size()), [&](int i) -> const RowCell& { return cells[static_cast<size_t>(i)]; });
}

RowValuePtr RowFromBytes(const Schema& schema, std::string_view bytes) {
  auto malformed = [&](const char* what) {
    return EngineError("XX001", fmt::format("malformed stored row of table \"{}\": {}", schema.table_name(), what));
  };
  const size_t n = static_cast<size_t>(schema.num_columns());
  const size_t bitmap = ((n + 63) / 64) * 8;
  const size_t fixed = 8 + bitmap + 8 * n;
  if (bytes.size() < fixed) throw malformed("too short");
  uint32_t size32 = 0;
  uint16_t cols16 = 0;
  std::memcpy(&size32, bytes.data(), 4);
  std::memcpy(&cols16, bytes.data() + 4, 2);
  if (size32 != bytes.size()) throw malformed("size mismatch");
  if (cols16 != n) throw malformed("column count mismatch");
  const auto* bits = reinterpret_cast<const uint8_t*>(bytes.data()) + 8;
  for (size_t i = 0; i < n; ++i) {
    if (!IsVariableWidth(schema.column(static_cast<int>(i)).type) || ((bits[i >> 3] >> (i & 7)) & 1)) continue;
    uint32_t off = 0, len = 0;
    std::memcpy(&off, bytes.data() + 8 + bitmap + 8 * i, 4);
    std::memcpy(&len, bytes.data() + 8 + bitmap + 8 * i + 4, 4);
    if (off < fixed || static_cast<uint64_t>(off) + len > bytes.size()) throw malformed("string out of bounds");
  }
  auto* raw = static_cast<uint8_t*>(std::malloc(bytes.size()));
  if (raw == nullptr) throw std::bad_alloc();
  std::memcpy(raw, bytes.data(), bytes.size());
  return RowValuePtr(reinterpret_cast<RowValue*>(raw));
}

RowValuePtr MakeRow(const Schema& schema, std::span<const Value> values) {
  if (static_cast<int>(values.size()) != schema.num_columns())
    throw EngineError("42601", fmt::format("table \"{}\" has {} columns, got {} values", schema.table_name(),
                                           schema.num_columns(), values.size()));
  RowBuilder b(schema);
  for (int i = 0; i < schema.num_columns(); ++i) b.Set(i, values[i]);
  return b.Build();
}

}  // namespace caracal::engine
