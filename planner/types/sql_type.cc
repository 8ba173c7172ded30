#include "planner/types/sql_type.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/types/domain_type.h"
#include "planner/types/enum_type.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

std::string SqlType::BaseName() const {
  if (domain) return domain->name();
  switch (id) {
    case TypeId::kUnknown: return "unknown";
    case TypeId::kBool: return "boolean";
    case TypeId::kInt2: return "smallint";
    case TypeId::kInt4: return "integer";
    case TypeId::kInt8: return "bigint";
    case TypeId::kFloat4: return "real";
    case TypeId::kFloat8: return "double precision";
    case TypeId::kNumeric: return "numeric";
    case TypeId::kBpchar: return "character";
    case TypeId::kVarchar: return "character varying";
    case TypeId::kText: return "text";
    case TypeId::kTimestamp: return "timestamp without time zone";
    case TypeId::kArray: return Element().BaseName() + "[]";
    case TypeId::kTimestampTz: return "timestamp with time zone";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time without time zone";
    case TypeId::kInterval: return "interval";
    case TypeId::kUuid: return "uuid";
    case TypeId::kBytea: return "bytea";
    case TypeId::kJson: return "json";
    case TypeId::kJsonb: return "jsonb";
    case TypeId::kEnum: return enum_type ? enum_type->name() : "anyenum";
  }
  return "?";
}

std::string SqlType::Name() const {
  if (domain) return domain->name();
  if (id == TypeId::kArray) return Element().Name() + "[]";
  if (id == TypeId::kNumeric && precision >= 0) return fmt::format("numeric({},{})", precision, scale);
  if ((id == TypeId::kBpchar || id == TypeId::kVarchar) && precision >= 0)
    return fmt::format("{}({})", BaseName(), precision);
  if (precision >= 0) {
    switch (id) {
      case TypeId::kTimestamp: return fmt::format("timestamp({}) without time zone", precision);
      case TypeId::kTimestampTz: return fmt::format("timestamp({}) with time zone", precision);
      case TypeId::kTime: return fmt::format("time({}) without time zone", precision);
      case TypeId::kInterval: return fmt::format("interval({})", precision);
      default: break;
    }
  }
  return BaseName();
}

namespace {

// A time column's fractional digits are stored as precision + 1 (0: the default 6), so
// that columns written before they were kept read as unconstrained.
SqlType TimeType(TypeId id, const engine::Column& c) { return SqlType{id, c.precision - 1, -1}; }

}  // namespace

SqlType FromColumn(const engine::Column& c) {
  switch (c.type) {
    case engine::ColumnType::kSmallInt: return SqlType::Of(TypeId::kInt2);
    case engine::ColumnType::kInteger: return SqlType::Of(TypeId::kInt4);
    case engine::ColumnType::kBigInt: return SqlType::Of(TypeId::kInt8);
    case engine::ColumnType::kReal: return SqlType::Of(TypeId::kFloat4);
    case engine::ColumnType::kDouble: return SqlType::Of(TypeId::kFloat8);
    case engine::ColumnType::kNumeric: return SqlType::Numeric(c.precision, c.scale);
    case engine::ColumnType::kBoolean: return SqlType::Of(TypeId::kBool);
    case engine::ColumnType::kChar: return SqlType{TypeId::kBpchar, c.precision > 0 ? c.precision : -1, -1};
    case engine::ColumnType::kVarchar: return SqlType{TypeId::kVarchar, c.precision > 0 ? c.precision : -1, -1};
    case engine::ColumnType::kText: return SqlType::Of(TypeId::kText);
    case engine::ColumnType::kTimestamp: return TimeType(TypeId::kTimestamp, c);
    case engine::ColumnType::kTimestampTz: return TimeType(TypeId::kTimestampTz, c);
    case engine::ColumnType::kDate: return SqlType::Of(TypeId::kDate);
    case engine::ColumnType::kTime: return TimeType(TypeId::kTime, c);
    case engine::ColumnType::kDecimal:
      return c.precision > 0 ? SqlType::Numeric(c.precision, c.scale) : SqlType::Numeric(-1, -1);
    case engine::ColumnType::kUuid: return SqlType::Of(TypeId::kUuid);
    case engine::ColumnType::kBytea: return SqlType::Of(TypeId::kBytea);
    case engine::ColumnType::kJson: return SqlType::Of(TypeId::kJson);
    case engine::ColumnType::kJsonb: return SqlType::Of(TypeId::kJsonb);
    case engine::ColumnType::kArray: {
      engine::Column element = c;
      element.type = c.element;
      return SqlType::ArrayOf(FromColumn(element));
    }
  }
  return SqlType::Of(TypeId::kText);
}

engine::Column ToColumn(const std::string& name, const SqlType& t, bool not_null) {
  engine::Column c;
  c.name = name;
  c.not_null = not_null;
  switch (t.id) {
    case TypeId::kBool: c.type = engine::ColumnType::kBoolean; break;
    case TypeId::kInt2: c.type = engine::ColumnType::kSmallInt; break;
    case TypeId::kInt4: c.type = engine::ColumnType::kInteger; break;
    case TypeId::kInt8: c.type = engine::ColumnType::kBigInt; break;
    case TypeId::kFloat4: c.type = engine::ColumnType::kReal; break;
    case TypeId::kFloat8: c.type = engine::ColumnType::kDouble; break;
    case TypeId::kNumeric:
      // numeric(p <= 18) in an int64 slot; any other (wider or unconstrained) as its text.
      c.type = IsDecimalTextNumeric(t) ? engine::ColumnType::kDecimal : engine::ColumnType::kNumeric;
      c.precision = t.precision < 0 ? 0 : t.precision;
      c.scale = t.precision < 0 ? 0 : t.scale;
      break;
    case TypeId::kUuid: c.type = engine::ColumnType::kUuid; break;
    case TypeId::kBytea: c.type = engine::ColumnType::kBytea; break;
    case TypeId::kJson: c.type = engine::ColumnType::kJson; break;
    case TypeId::kJsonb: c.type = engine::ColumnType::kJsonb; break;
    case TypeId::kBpchar: c.type = engine::ColumnType::kChar; c.precision = t.precision < 0 ? 0 : t.precision; break;
    case TypeId::kVarchar: c.type = engine::ColumnType::kVarchar; c.precision = t.precision < 0 ? 0 : t.precision; break;
    case TypeId::kText: c.type = engine::ColumnType::kText; break;
    case TypeId::kTimestamp: c.type = engine::ColumnType::kTimestamp; c.precision = t.precision + 1; break;
    case TypeId::kTimestampTz: c.type = engine::ColumnType::kTimestampTz; c.precision = t.precision + 1; break;
    case TypeId::kDate: c.type = engine::ColumnType::kDate; break;
    case TypeId::kTime: c.type = engine::ColumnType::kTime; c.precision = t.precision + 1; break;
    case TypeId::kInterval:
      throw SqlError(sqlstate::kFeatureNotSupported, "interval columns are not supported yet")
          .WithHint("Store the length in a bigint of microseconds, or the end as a timestamp.");
    case TypeId::kUnknown: throw SqlError(sqlstate::kInternalError, "column of unknown type");
    case TypeId::kEnum: c.type = engine::ColumnType::kInteger; break;  // the label's position
    case TypeId::kArray: {
      if (t.element == TypeId::kEnum)
        throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("columns of type {} are not supported yet", t.Name()))
            .WithHint("Store the labels as text[], or the values in a table of their own.");
      // The element's engine type and modifiers describe the elements; the column holds
      // the array's text.
      const engine::Column element = ToColumn(name, t.Element(), false);
      c.type = engine::ColumnType::kArray;
      c.element = element.type;
      c.precision = element.precision;
      c.scale = element.scale;
      break;
    }
  }
  return c;
}

std::optional<SqlType> TypeFromName(const std::string& name, int n, const int32_t* mods) {
  auto plain = [&](TypeId id) -> std::optional<SqlType> { return SqlType::Of(id); };
  if (name == "bool" || name == "boolean") return plain(TypeId::kBool);
  if (name == "int2" || name == "smallint") return plain(TypeId::kInt2);
  if (name == "int4" || name == "int" || name == "integer") return plain(TypeId::kInt4);
  if (name == "int8" || name == "bigint") return plain(TypeId::kInt8);
  if (name == "float4" || name == "real") return plain(TypeId::kFloat4);
  if (name == "float8") return plain(TypeId::kFloat8);
  if (name == "text") return plain(TypeId::kText);
  if (name == "uuid") return plain(TypeId::kUuid);
  if (name == "bytea") return plain(TypeId::kBytea);
  if (name == "json") return plain(TypeId::kJson);
  if (name == "jsonb") return plain(TypeId::kJsonb);
  // Time types: the modifier is the seconds' fractional digits (PostgreSQL caps it at 6
  // with a warning; here it is capped silently). An interval's field restriction
  // (INTERVAL DAY TO SECOND) arrives as a first modifier and is not applied.
  auto time = [&](TypeId id, int count, const int32_t* m) -> std::optional<SqlType> {
    if (count == 0 || m[count - 1] < 0 || m[count - 1] > 0x7fff - 1) return plain(id);
    return SqlType{id, std::min(m[count - 1], 6), -1};
  };
  if (name == "timestamp") return time(TypeId::kTimestamp, n, mods);
  if (name == "timestamptz") return time(TypeId::kTimestampTz, n, mods);
  if (name == "date") return plain(TypeId::kDate);
  if (name == "time") return time(TypeId::kTime, n, mods);
  if (name == "interval") return n >= 2 ? time(TypeId::kInterval, 1, mods + 1) : plain(TypeId::kInterval);
  // PostgreSQL's internal array type names (_int4) as pg_dump and \df print them.
  if (name.size() > 1 && name[0] == '_') {
    std::optional<SqlType> e = TypeFromName(name.substr(1), n, mods);
    if (e && !e->is_array()) return SqlType::ArrayOf(*e);
    return std::nullopt;
  }
  if (name == "numeric" || name == "decimal") {
    if (n == 0) return SqlType::Numeric(-1, -1);
    return SqlType::Numeric(mods[0], n > 1 ? mods[1] : 0);
  }
  if (name == "bpchar" || name == "char" || name == "character")
    return SqlType{TypeId::kBpchar, n > 0 ? mods[0] : -1, -1};
  if (name == "varchar") return SqlType{TypeId::kVarchar, n > 0 ? mods[0] : -1, -1};
  return std::nullopt;
}

}  // namespace caracal::planner
