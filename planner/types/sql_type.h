// SqlType: the SQL-level type of a column, an expression or a variable. It is richer
// than the engine's ColumnType: it knows PostgreSQL's "unknown" type of untyped literals
// ('abc', NULL), which takes its type from the context, and the type modifiers
// (numeric(p,s), char(n), varchar(n)) that casts and assignments enforce.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/types/types.h"

namespace caracal::planner {

enum class TypeId : uint8_t {
  kUnknown,  // an untyped literal: 'text' or NULL
  kBool,
  kInt2,
  kInt4,
  kInt8,
  kFloat4,
  kFloat8,
  kNumeric,
  kBpchar,   // char(n)
  kVarchar,  // varchar(n)
  kText,
  kTimestamp,
  kArray,  // a one-dimensional array; `element` is the element type (never kArray)
  kTimestampTz,
  kDate,
  kTime,
  kInterval,
  kUuid,   // a Datum kString of the 16 bytes
  kBytea,  // a Datum kString of the raw bytes
  kJson,   // a Datum kString of the text as written (types/json.h)
  kJsonb,  // a Datum kString of the canonical text (types/json.h)
  kEnum,   // a CREATE TYPE ... AS ENUM type: `enum_type` says which (types/enum_type.h)
};

class EnumType;
class DomainType;

struct SqlType {
  TypeId id = TypeId::kUnknown;
  // numeric: precision (-1: unconstrained); char/varchar: length (-1: unlimited);
  // timestamp, timestamptz, time, interval: fractional digits of seconds (-1: 6).
  int32_t precision = -1;
  int32_t scale = -1;  // numeric only (-1: unconstrained)
  // kArray only: the element type (its modifiers are precision/scale above, as
  // PostgreSQL keeps an array column's typmod on the element).
  TypeId element = TypeId::kUnknown;
  // kEnum, or kArray of kEnum: the enum type (the catalog's, never freed).
  const EnumType* enum_type = nullptr;
  // A column, variable or parameter declared of a domain type (types/domain_type.h): the
  // fields above are its base type's; coercing a value to this type checks the domain.
  // Base() drops it, as an expression over a domain value is of the base type.
  const DomainType* domain = nullptr;

  static SqlType Of(TypeId id) { return SqlType{id, -1, -1}; }
  static SqlType Numeric(int p, int s) { return SqlType{TypeId::kNumeric, p, s}; }
  static SqlType ArrayOf(const SqlType& e) { return SqlType{TypeId::kArray, e.precision, e.scale, e.id, e.enum_type}; }
  static SqlType Enum(const EnumType* type) { return SqlType{TypeId::kEnum, -1, -1, TypeId::kUnknown, type}; }

  bool operator==(const SqlType&) const = default;

  bool is_unknown() const { return id == TypeId::kUnknown; }
  bool is_integer() const { return id == TypeId::kInt2 || id == TypeId::kInt4 || id == TypeId::kInt8; }
  bool is_float() const { return id == TypeId::kFloat4 || id == TypeId::kFloat8; }
  bool is_numeric_category() const { return is_integer() || is_float() || id == TypeId::kNumeric; }
  bool is_string() const { return id == TypeId::kBpchar || id == TypeId::kVarchar || id == TypeId::kText; }
  bool has_typmod() const { return precision >= 0; }
  bool is_array() const { return id == TypeId::kArray; }
  bool is_json() const { return id == TypeId::kJson || id == TypeId::kJsonb; }
  bool is_enum() const { return id == TypeId::kEnum; }
  // Whether the two are the same type once modifiers and domains are dropped (int[] and
  // int[], numeric(5,2) and numeric; not two different enum types).
  bool SameBase(const SqlType& o) const { return id == o.id && element == o.element && enum_type == o.enum_type; }
  // timestamp, timestamptz, date, time (PostgreSQL's datetime category, not interval).
  bool is_datetime() const {
    return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kDate || id == TypeId::kTime;
  }
  // kArray: the element type, with the modifiers.
  SqlType Element() const { return SqlType{element, precision, scale, TypeId::kUnknown, enum_type}; }

  // The type without modifiers (what an expression over it yields).
  SqlType Base() const { return SqlType{id, -1, -1, is_array() ? element : TypeId::kUnknown, enum_type}; }
  // The type without its domain (modifiers kept): what a domain's values are stored as.
  SqlType WithoutDomain() const { return SqlType{id, precision, scale, element, enum_type}; }
  // PostgreSQL's format_type name: "integer", "numeric(10,2)", "character varying(5)".
  std::string Name() const;
  // The name without modifiers: what operator/function errors print.
  std::string BaseName() const;
};

// Engine column type <-> SQL type (the engine stores numeric with p <= 18).
// Whether a column of `type` is a numeric stored as its decimal text
// (engine::ColumnType::kDecimal): one without a precision or wider than an int64 slot.
inline bool IsDecimalTextNumeric(const SqlType& type) {
  return type.id == TypeId::kNumeric && (type.precision < 1 || type.precision > 18);
}
SqlType FromColumn(const engine::Column& column);
// Throws SqlError for kUnknown (callers resolve unknown to text first).
engine::Column ToColumn(const std::string& name, const SqlType& type, bool not_null);

// A type by its SQL name as PostgreSQL's grammar leaves it after parsing (int4,
// "varchar", "bpchar", "timestamp", ...), with its modifiers; nullopt if unknown.
std::optional<SqlType> TypeFromName(const std::string& name, int modifier_count, const int32_t* modifiers);

}  // namespace caracal::planner
