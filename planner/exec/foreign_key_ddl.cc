#include "planner/exec/foreign_key_ddl.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/catalog/constraint_errors.h"
#include "planner/exec/foreign_keys.h"
#include "planner/exec/snapshot_source.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

ForeignKey::Action ActionOf(const char* code, int location) {
  switch (code && *code ? *code : 'a') {
    case 'r': return ForeignKey::Action::kRestrict;
    case 'c': return ForeignKey::Action::kCascade;
    case 'n': return ForeignKey::Action::kSetNull;
    case 'd': return ForeignKey::Action::kSetDefault;
    case 'a': return ForeignKey::Action::kNoAction;
    default: throw NotSupported("this foreign key action", location);
  }
}

const char* ActionText(ForeignKey::Action a) {
  switch (a) {
    case ForeignKey::Action::kRestrict: return "RESTRICT";
    case ForeignKey::Action::kCascade: return "CASCADE";
    case ForeignKey::Action::kSetNull: return "SET NULL";
    case ForeignKey::Action::kSetDefault: return "SET DEFAULT";
    case ForeignKey::Action::kNoAction: return "NO ACTION";
  }
  return "NO ACTION";
}

// Whether values of `a` can reference values of `b` (PostgreSQL needs an equality
// operator between them): the same family of types.
bool Comparable(const SqlType& a, const SqlType& b) {
  if (a.is_array() || b.is_array()) return a == b;
  if (a.is_integer() && b.is_integer()) return true;
  auto text = [](const SqlType& t) {
    return t.id == TypeId::kText || t.id == TypeId::kVarchar || t.id == TypeId::kBpchar;
  };
  if (text(a) && text(b)) return true;
  auto number = [](const SqlType& t) { return t.is_integer() || t.id == TypeId::kNumeric; };
  if (number(a) && number(b)) return true;
  return a.id == b.id;
}

std::string ColumnList(const TableInfo& t, const std::vector<int>& columns, const char* separator) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i)
    out += (i ? separator : "") + t.columns[static_cast<size_t>(columns[i])].name;
  return out;
}

}  // namespace

ForeignKey BindForeignKey(const TableInfo& t, const PgQuery__Constraint* c, const std::vector<std::string>& columns,
                          const Catalog& catalog, bool creating, const std::vector<std::vector<int>>& own_unique_columns,
                          const std::vector<std::string>& taken) {
  if (c->fk_matchtype && *c->fk_matchtype == 'f') throw NotSupported("MATCH FULL foreign keys", c->location);
  if (c->fk_matchtype && *c->fk_matchtype == 'p')
    throw SqlError(sqlstate::kFeatureNotSupported, "MATCH PARTIAL not yet implemented", c->location);
  if (c->n_fk_del_set_cols > 0) throw NotSupported("ON DELETE SET NULL / SET DEFAULT with a column list", c->location);
  ForeignKey k;
  for (const std::string& name : columns) {
    const int col = t.ColumnIndex(name);
    if (col < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" referenced in foreign key constraint does not exist", name));
    k.columns.push_back(col);
  }
  k.referenced_table = c->pktable->relname;
  const bool self = k.referenced_table == t.name;
  const TableInfo* parent = self ? &t : catalog.FindTable(k.referenced_table);
  if (parent == nullptr) {
    if (catalog.FindView(k.referenced_table))
      throw SqlError("42809", fmt::format("referenced relation \"{}\" is not a table", k.referenced_table));
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", k.referenced_table));
  }
  std::vector<std::vector<int>> unique_keys;
  if (!parent->primary_key.empty()) unique_keys.push_back(parent->primary_key);
  for (const TableInfo::UniqueIndex& u : parent->unique_indexes) unique_keys.push_back(u.columns);
  if (self && creating)
    for (const std::vector<int>& u : own_unique_columns) unique_keys.push_back(u);
  if (c->n_pk_attrs == 0) {
    if (parent->primary_key.empty())
      throw SqlError(sqlstate::kInvalidForeignKey,
                     fmt::format("there is no primary key for referenced table \"{}\"", parent->name));
    k.referenced_columns = parent->primary_key;
  } else {
    for (size_t i = 0; i < c->n_pk_attrs; ++i) {
      const std::string name = StringValue(c->pk_attrs[i]);
      const int col = parent->ColumnIndex(name);
      if (col < 0)
        throw SqlError(sqlstate::kUndefinedColumn,
                       fmt::format("column \"{}\" referenced in foreign key constraint does not exist", name));
      k.referenced_columns.push_back(col);
    }
    const std::set<int> wanted(k.referenced_columns.begin(), k.referenced_columns.end());
    const bool unique = std::ranges::any_of(unique_keys, [&](const std::vector<int>& u) {
      return u.size() == k.referenced_columns.size() && std::set<int>(u.begin(), u.end()) == wanted;
    });
    if (!unique)
      throw SqlError(sqlstate::kInvalidForeignKey,
                     fmt::format("there is no unique constraint matching given keys for referenced table \"{}\"",
                                 parent->name));
  }
  if (k.columns.size() != k.referenced_columns.size())
    throw SqlError(sqlstate::kInvalidForeignKey, "number of referencing and referenced columns for foreign key disagree");
  std::string name = c->conname && *c->conname ? c->conname : "";
  if (name.empty()) {
    const std::string base = fmt::format("{}_{}_fkey", t.name, ColumnList(t, k.columns, "_"));
    name = base;
    for (int n = 1; std::ranges::find(taken, name) != taken.end(); ++n) name = fmt::format("{}{}", base, n);
  } else if (std::ranges::find(taken, name) != taken.end()) {
    throw SqlError(sqlstate::kDuplicateObject,
                   fmt::format("constraint \"{}\" for relation \"{}\" already exists", name, t.name));
  }
  k.name = name;
  for (size_t i = 0; i < k.columns.size(); ++i) {
    const CatalogColumn& a = t.columns[static_cast<size_t>(k.columns[i])];
    const CatalogColumn& b = parent->columns[static_cast<size_t>(k.referenced_columns[i])];
    if (!Comparable(a.type, b.type))
      throw SqlError(sqlstate::kDatatypeMismatch, fmt::format("foreign key constraint \"{}\" cannot be implemented", k.name))
          .WithDetail(fmt::format("Key columns \"{}\" and \"{}\" are of incompatible types: {} and {}.", a.name, b.name,
                                  a.type.Name(), b.type.Name()));
  }
  k.on_delete = ActionOf(c->fk_del_action, c->location);
  k.on_update = ActionOf(c->fk_upd_action, c->location);
  // Its actions change this table's rows without firing its triggers (exec/trigger_ddl.h).
  auto acts = [](ForeignKey::Action a) { return a != ForeignKey::Action::kNoAction && a != ForeignKey::Action::kRestrict; };
  if ((acts(k.on_delete) || acts(k.on_update)) &&
      (t.HasTriggers(TriggerInfo::kDelete) || t.HasTriggers(TriggerInfo::kUpdate)))
    throw NotSupported(fmt::format("a foreign key with ON DELETE / ON UPDATE actions on table \"{}\", which has triggers,", t.name),
                       c->location)
        .WithHint("Its actions would change rows without firing the triggers.");
  return k;
}

void ValidateForeignKey(const TableInfo& t, const ForeignKey& key, Catalog& catalog) {
  SnapshotSource state(catalog.database());
  const engine::Schema& schema = catalog.database().schema(t.id);
  std::vector<Datum> datums(t.columns.size());
  ForeignKey linked = key;
  linked.referenced = key.referenced_table == t.name ? &t : catalog.FindTable(key.referenced_table);
  std::optional<SqlError> failed;
  state.Scan(t.id, engine::Key(), engine::Key(), [&](const engine::Key&, const engine::RowValue& row) {
    for (size_t c = 0; c < datums.size(); ++c) datums[c] = DatumFromRow(row, static_cast<int>(c), schema.column(static_cast<int>(c)));
    std::optional<std::vector<Datum>> values = KeyValuesOf(t, key.columns, datums, *linked.referenced, key.referenced_columns);
    if (values && !ReferencedRowExists(state, linked, *values)) failed = ForeignKeyMissing(t, key, datums);
    return !failed;
  });
  if (failed) throw *failed;
}

std::vector<ReferencingKey> ReferencesFromOutside(const TableInfo& t, const std::vector<std::string>& leaving) {
  std::vector<ReferencingKey> out;
  for (const ReferencingKey& r : t.referenced_by)
    if (std::ranges::find(leaving, r.table->name) == leaving.end()) out.push_back(r);
  return out;
}

std::string ForeignKeyDefinition(const TableInfo& t, const ForeignKey& key) {
  const TableInfo* parent = key.referenced;
  std::string out = fmt::format("FOREIGN KEY ({}) REFERENCES {}", ColumnList(t, key.columns, ", "), key.referenced_table);
  if (parent != nullptr) out += fmt::format("({})", ColumnList(*parent, key.referenced_columns, ", "));
  if (key.on_update != ForeignKey::Action::kNoAction) out += fmt::format(" ON UPDATE {}", ActionText(key.on_update));
  if (key.on_delete != ForeignKey::Action::kNoAction) out += fmt::format(" ON DELETE {}", ActionText(key.on_delete));
  return out;
}

}  // namespace caracal::planner
