#include "planner/binder/type_name.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/domain_type.h"
#include "planner/types/enum_type.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

std::string TypeNameText(const PgQuery__TypeName* tn) {
  std::string out;
  for (size_t i = 0; i < tn->n_names; ++i) {
    std::string part = StringValue(tn->names[i]);
    if (part == "pg_catalog" && tn->n_names > 1) continue;
    if (!out.empty()) out += ".";
    out += part;
  }
  return out;
}

SqlType ResolveTypeName(const PgQuery__TypeName* tn, const Catalog* catalog) {
  std::string name = StringValue(tn->names[tn->n_names - 1]);
  int location = tn->location;
  // Arrays: PostgreSQL ignores declared bounds and dimensions (int[3][3] is int[]).
  bool array = tn->n_array_bounds > 0;
  if (tn->setof) throw SqlError(sqlstate::kFeatureNotSupported, "SETOF types are not supported here", location);
  std::vector<int32_t> mods;
  for (size_t i = 0; i < tn->n_typmods; ++i) {
    const PgQuery__Node* m = tn->typmods[i];
    if (m->node_case != PG_QUERY__NODE__NODE_A_CONST || m->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL)
      throw SqlError(sqlstate::kSyntaxError, "type modifiers must be simple constants", location);
    mods.push_back(m->a_const->ival->ival);
  }
  if (name == "timetz" || name == "money")
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("type {} is not supported yet", TypeNameText(tn)), location)
        .WithHint("Supported types: smallint, integer, bigint, real, double precision, numeric(p,s), boolean, "
                  "char(n), varchar(n), text, bytea, uuid, json, jsonb, timestamp, timestamptz, date, time, interval.");
  std::optional<SqlType> t = TypeFromName(name, static_cast<int>(mods.size()), mods.data());
  if (!t && catalog && (tn->n_names == 1 || (tn->n_names == 2 && StringValue(tn->names[0]) == "public"))) {
    // An enum type (an array of one as `_name`, as pg_dump writes it too).
    const bool internal_array = name.size() > 1 && name[0] == '_' && !catalog->FindEnum(name);
    if (const EnumType* e = catalog->FindEnum(internal_array ? name.substr(1) : name)) {
      if (!mods.empty())
        throw SqlError(sqlstate::kSyntaxError, fmt::format("type modifier is not allowed for type \"{}\"", name), location);
      t = internal_array ? SqlType::ArrayOf(SqlType::Enum(e)) : SqlType::Enum(e);
    } else if (catalog->FindComposite(name)) {
      throw NotSupported(fmt::format("values of composite type {}", name), location)
          .WithHint("A composite type can be a function's SETOF result or a record variable's type.");
    } else if (const DomainType* d = catalog->FindDomain(name)) {
      if (!mods.empty())
        throw SqlError(sqlstate::kSyntaxError, fmt::format("type modifier is not allowed for type \"{}\"", name), location);
      t = d->base();
      t->domain = d;
      // An array of a domain holds values of its base type (the domain is not checked).
      if (array) return SqlType::ArrayOf(d->base());
    }
  }
  if (!t) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", TypeNameText(tn)), location);
  if (t->id == TypeId::kNumeric && t->precision >= 0) {
    if (mods.size() > 2) throw SqlError(sqlstate::kSyntaxError, "invalid NUMERIC type modifier", location);
    if (t->precision < 1 || t->precision > 1000)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("NUMERIC precision {} must be between 1 and 1000", t->precision), location);
    if (t->scale < 0 || t->scale > t->precision)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("NUMERIC scale {} must be between 0 and precision {}", t->scale, t->precision), location);
  }
  if ((t->id == TypeId::kBpchar || t->id == TypeId::kVarchar) && !mods.empty()) {
    if (mods.size() > 1) throw SqlError(sqlstate::kSyntaxError, "invalid type modifier", location);
    if (t->precision < 1)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("length for type {} must be at least 1", t->id == TypeId::kBpchar ? "char" : "varchar"),
                     location);
  } else if (!mods.empty() && t->id != TypeId::kNumeric && t->id != TypeId::kTimestamp &&
             t->id != TypeId::kTimestampTz && t->id != TypeId::kTime && t->id != TypeId::kInterval) {
    throw SqlError(sqlstate::kSyntaxError, fmt::format("type modifier is not allowed for type \"{}\"", name), location);
  }
  return array && !t->is_array() ? SqlType::ArrayOf(*t) : *t;
}

void CheckCollation(const PgQuery__CollateClause* clause, const SqlType& type) {
  std::vector<std::string> names = NameList(clause->collname, clause->n_collname);
  if (names.size() == 2 && names[0] == "pg_catalog") names.erase(names.begin());
  const std::string name = names.empty() ? std::string() : names.back();
  if (!type.is_string() && !type.is_unknown())
    throw SqlError(sqlstate::kDatatypeMismatch, fmt::format("collations are not supported by type {}", type.BaseName()),
                   clause->location);
  if (names.size() == 1 && (name == "C" || name == "POSIX" || name == "default")) return;
  throw NotSupported(fmt::format("collation \"{}\"", fmt::join(names, ".")), clause->location)
      .WithHint("Strings compare byte by byte here, as with COLLATE \"C\".");
}

}  // namespace caracal::planner
