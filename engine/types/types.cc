#include "engine/types/types.h"

#include <stdexcept>

namespace caracal::engine {

std::string_view ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kSmallInt: return "smallint";
    case ColumnType::kInteger: return "integer";
    case ColumnType::kBigInt: return "bigint";
    case ColumnType::kReal: return "real";
    case ColumnType::kDouble: return "double precision";
    case ColumnType::kNumeric: return "numeric";
    case ColumnType::kBoolean: return "boolean";
    case ColumnType::kChar: return "character";
    case ColumnType::kVarchar: return "character varying";
    case ColumnType::kText: return "text";
    case ColumnType::kTimestamp: return "timestamp without time zone";
    case ColumnType::kTimestampTz: return "timestamp with time zone";
    case ColumnType::kDate: return "date";
    case ColumnType::kTime: return "time without time zone";
    case ColumnType::kDecimal: return "numeric";
    case ColumnType::kUuid: return "uuid";
    case ColumnType::kBytea: return "bytea";
    case ColumnType::kJson: return "json";
    case ColumnType::kJsonb: return "jsonb";
    case ColumnType::kArray: return "array";
  }
  return "?";
}

bool IsIntegerType(ColumnType type) {
  return type == ColumnType::kSmallInt || type == ColumnType::kInteger ||
         type == ColumnType::kBigInt;
}

Schema::Schema(std::string table_name, std::vector<Column> columns, std::vector<int> primary_key)
    : table_name_(std::move(table_name)),
      columns_(std::move(columns)),
      primary_key_(std::move(primary_key)) {
  if (primary_key_.empty()) throw std::invalid_argument("table " + table_name_ + " has no primary key");
  for (int c : primary_key_) {
    if (c < 0 || c >= num_columns())
      throw std::invalid_argument("table " + table_name_ + ": primary key column out of range");
    columns_[c].not_null = true;
  }
}

int Schema::ColumnIndex(std::string_view name) const {
  for (int i = 0; i < num_columns(); ++i)
    if (columns_[i].name == name) return i;
  return -1;
}

}  // namespace caracal::engine
