// Column types and table schemas: the fixed, typed layout every row of a table has.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::engine {

// The scalar types of DESIGN §3. The engine stores each in one 8-byte slot of a row
// (strings as offset/length into the row's variable area).
enum class ColumnType : uint8_t {
  kSmallInt,
  kInteger,
  kBigInt,
  kReal,
  kDouble,
  kNumeric,    // fixed point: int64 scaled by 10^scale, precision <= 18
  kBoolean,
  kChar,       // char(n): blank-padded to n on write by the SQL layer
  kVarchar,    // varchar(n)
  kText,
  kTimestamp,  // microseconds since 2000-01-01 00:00:00, as PostgreSQL
  // The other time types are one int64 each too, carried in Value::Timestamp: the SQL
  // layer gives them their meaning (planner/types/datetime.h).
  kTimestampTz,  // microseconds since 2000-01-01 00:00:00 UTC
  kDate,         // days since 2000-01-01
  kTime,         // microseconds since midnight
  // Variable-width kinds beyond strings, stored as bytes in the row's variable area like
  // strings (IsVariableWidth) and carried in a Value::String; the SQL layer gives them
  // their meaning and text forms.
  kDecimal,  // numeric of any precision: its decimal text ("-12.50"), scale as written
  kUuid,     // the 16 bytes of a uuid
  kBytea,    // raw bytes
  kJson,     // json: its text as written
  kJsonb,    // jsonb: its canonical text (planner/types/json.h)
  kArray,    // a one-dimensional array of Column::element: its PostgreSQL text form
};

std::string_view ColumnTypeName(ColumnType type);
// char, varchar, text. Inline: row encoding and column reads ask per column.
inline bool IsStringType(ColumnType type) {
  return type == ColumnType::kChar || type == ColumnType::kVarchar || type == ColumnType::kText;
}
// Stored as bytes in a row's variable area: the string types, kDecimal, kUuid, kBytea,
// kJson, kJsonb, kArray.
inline bool IsVariableWidth(ColumnType type) {
  return IsStringType(type) || type == ColumnType::kDecimal || type == ColumnType::kUuid || type == ColumnType::kBytea ||
         type == ColumnType::kJson || type == ColumnType::kJsonb || type == ColumnType::kArray;
}
bool IsIntegerType(ColumnType type);

struct Column {
  std::string name;
  ColumnType type = ColumnType::kInteger;
  int32_t precision = 0;  // numeric(p, s): p; char/varchar: n (0 = unlimited); time types: digits + 1 (0 = 6)
  int32_t scale = 0;      // numeric(p, s): s
  bool not_null = false;
  // kArray: the elements' type; precision and scale above are the elements' modifiers.
  ColumnType element = ColumnType::kInteger;
};

// A non-unique ordered secondary index over some columns of a table.
struct IndexSchema {
  std::string name;
  std::vector<int> columns;  // column positions, in index order
};

class Schema {
 public:
  Schema() = default;
  Schema(std::string table_name, std::vector<Column> columns, std::vector<int> primary_key);

  const std::string& table_name() const { return table_name_; }
  void set_table_name(std::string name) { table_name_ = std::move(name); }
  const std::vector<Column>& columns() const { return columns_; }
  const Column& column(int i) const { return columns_[i]; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  // Column positions of the primary key, in key order. Never empty.
  const std::vector<int>& primary_key() const { return primary_key_; }
  // Position of the column named `name`, or -1.
  int ColumnIndex(std::string_view name) const;

 private:
  std::string table_name_;
  std::vector<Column> columns_;
  std::vector<int> primary_key_;
};

}  // namespace caracal::engine
