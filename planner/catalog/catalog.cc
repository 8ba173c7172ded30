#include "planner/catalog/catalog.h"

#include "planner/parser/qualified_name.h"

#include "planner/catalog/row_identity.h"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>

#include "planner/types/sql_error.h"

namespace caracal::planner {

int TableInfo::ColumnIndex(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == column) return static_cast<int>(i);
  return -1;
}

const TableInfo* Catalog::FindTable(std::string_view name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second.get();
}

const IndexInfo* Catalog::FindIndex(std::string_view name) const {
  auto it = indexes_.find(name);
  return it == indexes_.end() ? nullptr : &it->second;
}

const SequenceInfo* Catalog::FindSequence(std::string_view name) const {
  auto it = sequences_.find(name);
  return it == sequences_.end() ? nullptr : &it->second;
}

const TableInfo& TableToWrite(const Catalog& catalog, std::string_view name, int location) {
  if (const TableInfo* t = catalog.FindTable(name)) return *t;
  if (const ViewInfo* v = catalog.FindView(name)) {
    SqlError e(sqlstate::kFeatureNotSupported, fmt::format("writes to view \"{}\" are not supported yet", name), location);
    if (!v->relations.empty()) e.WithHint(fmt::format("Views are read-only here; write to \"{}\" itself.", v->relations.front()));
    throw e;
  }
  throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name), location);
}

const ViewInfo* Catalog::FindView(std::string_view name) const {
  auto it = views_.find(name);
  return it == views_.end() ? nullptr : &it->second;
}

std::vector<const ViewInfo*> Catalog::Views() const {
  std::vector<const ViewInfo*> out;
  for (const auto& [name, v] : views_) out.push_back(&v);
  return out;
}

std::vector<std::string> Catalog::ViewsReading(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [view, v] : views_)
    if (std::ranges::find(v.relations, name) != v.relations.end()) out.push_back(view);
  return out;
}

void Catalog::StoreView(ViewInfo view, bool replace) {
  if (FindView(view.name) ? !replace : RelationExists(view.name))
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", view.name));
  std::string name = view.name;
  views_.insert_or_assign(std::move(name), std::move(view));
}

void Catalog::DropView(std::string_view name) {
  auto it = views_.find(name);
  if (it == views_.end()) throw SqlError(sqlstate::kUndefinedTable, fmt::format("view \"{}\" does not exist", name));
  views_.erase(it);
}

bool Catalog::RelationExists(std::string_view name) const {
  if (FindTable(name) || FindIndex(name) || FindSequence(name) || FindView(name)) return true;
  // Primary keys' indexes are relations too.
  return std::ranges::any_of(tables_, [&](const auto& t) { return !t.second->HasRowIdentity() && t.second->PrimaryKeyName() == name; });
}

std::vector<const TableInfo*> Catalog::Tables() const {
  std::vector<const TableInfo*> out;
  for (const auto& [name, t] : tables_) out.push_back(t.get());
  return out;
}

std::vector<const SequenceInfo*> Catalog::Sequences() const {
  std::vector<const SequenceInfo*> out;
  for (const auto& [name, s] : sequences_) out.push_back(&s);
  return out;
}

engine::Schema Catalog::EngineSchema(const TableInfo& table) {
  std::vector<engine::Column> columns;
  for (const CatalogColumn& c : table.columns) columns.push_back(ToColumn(c.name, c.type, c.not_null));
  if (!table.HasRowIdentity()) return engine::Schema(table.name, std::move(columns), table.primary_key);
  const int first = static_cast<int>(columns.size());
  for (engine::Column& c : RowIdentityColumns()) columns.push_back(std::move(c));
  return engine::Schema(table.name, std::move(columns), {first, first + 1});
}

const TableInfo& Catalog::CreateTable(TableInfo table) {
  if (RelationExists(table.name))
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", table.name));
  if (FindComposite(table.name))  // a composite type is a relation too, as in PostgreSQL
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", table.name));
  if (FindEnum(table.name) || FindDomain(table.name))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", table.name))
        .WithHint("A relation has an associated type of the same name, so you must use a name that doesn't "
                  "conflict with any existing type.");
  table.indexes.clear();
  table.id = db_.CreateTable(EngineSchema(table));
  auto owned = std::make_unique<TableInfo>(std::move(table));
  const TableInfo& ref = *owned;
  tables_.emplace(ref.name, std::move(owned));
  LinkForeignKeys();
  return ref;
}

void Catalog::ReplaceTableDescription(TableInfo table) {
  auto it = tables_.find(table.name);
  if (it == tables_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table.name));
  TableInfo& current = *it->second;
  if (table.id != current.id || table.columns.size() != current.columns.size())
    throw SqlError(sqlstate::kInternalError, "internal error: ALTER TABLE changed the table's layout");
  table.indexes = current.indexes;
  table.unique_indexes = current.unique_indexes;
  current = std::move(table);
  LinkForeignKeys();
}

Catalog::RewrittenTable Catalog::RewriteTable(TableInfo table, const std::map<std::string, std::vector<int>>& index_columns,
                                              std::vector<engine::RowValuePtr> rows) {
  TableInfo& current = *tables_.at(table.name);
  if (table.id != current.id) throw SqlError(sqlstate::kInternalError, "internal error: a rewrite changed the table's id");
  RewrittenTable old{current, {}, nullptr};
  table.indexes.clear();
  std::vector<engine::IndexSchema> engine_indexes;
  for (const std::string& name : current.indexes) {
    IndexInfo& index = indexes_.at(name);
    old.indexes.push_back(index);
    auto kept = index_columns.find(name);
    if (kept == index_columns.end()) {
      indexes_.erase(name);
      continue;
    }
    index.columns = kept->second;
    table.indexes.push_back(name);
    engine_indexes.push_back(engine::IndexSchema{name, index.columns});
  }
  current = std::move(table);
  NumberIndexes(current);
  LinkForeignKeys();
  auto fresh = std::make_unique<engine::Table>(current.id, EngineSchema(current), std::move(engine_indexes));
  for (engine::RowValuePtr& row : rows) db_.LoadRowInto(*fresh, std::move(row));
  old.rows = db_.SwapTable(current.id, std::move(fresh));
  return old;
}

void Catalog::UndoRewrite(RewrittenTable old) {
  TableInfo& current = *tables_.at(old.info.name);
  for (const std::string& name : current.indexes) indexes_.erase(name);
  for (IndexInfo& index : old.indexes) indexes_.insert_or_assign(index.name, std::move(index));
  current = std::move(old.info);
  NumberIndexes(current);
  db_.Retire(db_.SwapTable(current.id, std::move(old.rows)));
  LinkForeignKeys();
}

void Catalog::FinishRewrite(RewrittenTable old) { db_.Retire(std::move(old.rows)); }

void Catalog::LinkForeignKeys() {
  for (auto& [name, table] : tables_) table->referenced_by.clear();
  for (auto& [name, table] : tables_)
    for (ForeignKey& k : table->foreign_keys) {
      if (k.created == 0) k.created = ++foreign_keys_created_;
      auto it = tables_.find(k.referenced_table);
      k.referenced = it == tables_.end() ? nullptr : it->second.get();
      if (k.referenced != nullptr) it->second->referenced_by.push_back({table.get(), &k});
    }
  // In the order they were made: the order PostgreSQL checks and reports them in.
  for (auto& [name, table] : tables_)
    std::ranges::sort(table->referenced_by, {}, [](const ReferencingKey& r) { return r.key->created; });
}

bool TableInfo::InForeignKey(int column) const {
  for (const ForeignKey& k : foreign_keys)
    if (std::ranges::find(k.columns, column) != k.columns.end()) return true;
  for (const ReferencingKey& r : referenced_by)
    if (std::ranges::find(r.key->referenced_columns, column) != r.key->referenced_columns.end()) return true;
  return false;
}

void Catalog::RenameTable(std::string_view name_view, const std::string& new_name) {
  const std::string name(name_view);  // the caller's view may be of what changes here
  auto node = tables_.extract(tables_.find(name));
  TableInfo& table = *node.mapped();
  table.name = new_name;
  node.key() = new_name;
  for (const std::string& index : table.indexes) indexes_.at(index).table = new_name;
  db_.RenameTable(table.id, new_name);
  tables_.insert(std::move(node));
  for (auto& [n, other] : tables_)
    for (ForeignKey& k : other->foreign_keys)
      if (k.referenced_table == name) k.referenced_table = new_name;
  LinkForeignKeys();
}

void Catalog::RenameIndex(std::string_view name_view, const std::string& new_name) {
  const std::string name(name_view);
  auto node = indexes_.extract(indexes_.find(name));
  IndexInfo& index = node.mapped();
  TableInfo& table = *tables_.at(index.table);
  for (std::string& n : table.indexes)
    if (n == name) n = new_name;
  index.name = new_name;
  node.key() = new_name;
  indexes_.insert(std::move(node));
  NumberIndexes(table);
}

std::optional<std::string> SerialSequenceName(const Catalog& catalog, std::string_view table, std::string_view column) {
  const RelationText relation = RelationNameFromText(table);
  const TableInfo* t = relation.in_pg_catalog ? nullptr : catalog.FindTable(relation.name);
  if (t == nullptr) throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation.display));
  const int c = t->ColumnIndex(std::string(column));
  if (c < 0)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", column, t->name));
  const std::string& owned = t->columns[static_cast<size_t>(c)].owned_sequence;
  if (owned.empty()) return std::nullopt;
  return "public." + RegclassText(owned);
}

const std::string* DefaultSequence(const CatalogColumn& c) {
  const Expr* e = c.default_expr.get();
  while (e && e->kind == ExprKind::kCast && e->args.size() == 1) e = e->args[0].get();
  if (!e || e->kind != ExprKind::kNextval || e->args[0]->kind != ExprKind::kConst) return nullptr;
  return &e->args[0]->value.s;
}

void RefuseSequenceDefaults(const TableInfo& table, const std::vector<bool>& given, std::string_view statement) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const CatalogColumn& col = table.columns[c];
    if (given[c] || !col.default_expr || !col.default_expr->Contains(ExprKind::kNextval)) continue;
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("{} into table \"{}\" without a value for column \"{}\", whose default draws from a "
                               "sequence, is not supported yet",
                               statement, table.name, col.name))
        .WithHint("Give the column's values, or insert the rows with INSERT ... VALUES.");
  }
}

void Catalog::DropTable(std::string_view name) {
  auto it = tables_.find(name);
  if (it == tables_.end()) throw SqlError(sqlstate::kUndefinedTable, fmt::format("table \"{}\" does not exist", name));
  RefuseWhileProceduresUse(*it->second, fmt::format("table {}", it->second->name));
  for (const std::string& index : it->second->indexes) indexes_.erase(index);
  db_.DropTable(it->second->id);
  tables_.erase(it);
  LinkForeignKeys();
}

const IndexInfo& Catalog::CreateIndex(std::string name, std::string_view table_name, std::vector<int> columns, bool unique,
                                      bool constraint, std::string predicate) {
  auto it = tables_.find(table_name);
  if (it == tables_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
  if (RelationExists(name)) throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  TableInfo& table = *it->second;
  IndexInfo index{name, table.name, columns, static_cast<int>(table.indexes.size()), unique, constraint, std::move(predicate)};
  db_.AddIndex(table.id, engine::IndexSchema{name, std::move(columns)});  // fills it from the rows
  indexes_.emplace(name, index);
  table.indexes.push_back(name);
  NumberIndexes(table);
  return indexes_.at(name);
}

Catalog::DetachedIndex Catalog::DetachIndex(std::string_view name) {
  auto it = indexes_.find(name);
  if (it == indexes_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("index \"{}\" does not exist", name));
  TableInfo& table = *tables_.at(it->second.table);
  DetachedIndex detached{std::move(it->second), table.id};
  indexes_.erase(it);
  std::erase(table.indexes, detached.info.name);
  NumberIndexes(table);
  return detached;
}

void Catalog::ReattachIndex(DetachedIndex detached) {
  TableInfo& table = *tables_.at(detached.info.table);
  const int position = detached.info.engine_index;
  std::string name = detached.info.name;
  table.indexes.insert(table.indexes.begin() + position, name);
  indexes_.emplace(std::move(name), std::move(detached.info));
  NumberIndexes(table);
}

void Catalog::DropDetachedIndex(const DetachedIndex& detached) {
  // The engine's later indexes shift down by one, as the catalog's did when detached.
  db_.DropIndex(detached.table, detached.info.engine_index);
}

bool TableInfo::InUniqueIndex(int column) const {
  for (const UniqueIndex& u : unique_indexes)
    if (std::ranges::find(u.columns, column) != u.columns.end()) return true;
  return false;
}

void Catalog::NumberIndexes(TableInfo& table) {
  table.unique_indexes.clear();
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    IndexInfo& index = indexes_.at(table.indexes[i]);
    index.engine_index = static_cast<int>(i);
    if (index.unique) table.unique_indexes.push_back({static_cast<int>(i), index.name, index.columns});
  }
}

const SequenceInfo& Catalog::CreateSequence(SequenceInfo sequence) {
  const std::string name = sequence.name;
  if (RelationExists(name)) throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  sequence.engine_name = name;
  while (db_.sequences().Exists(sequence.engine_name))
    sequence.engine_name = fmt::format("{}${}", name, ++sequence_generation_);
  db_.sequences().Create(sequence.engine_name, sequence.start, sequence.increment,
                         {sequence.min, sequence.max, sequence.cycle}, name);
  return sequences_.emplace(name, std::move(sequence)).first->second;
}

void Catalog::AlterSequence(const SequenceInfo& definition, std::optional<int64_t> restart) {
  auto it = sequences_.find(definition.name);
  if (it == sequences_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", definition.name));
  SequenceInfo updated = definition;
  updated.engine_name = it->second.engine_name;
  db_.sequences().Configure(updated.engine_name, updated.increment, {updated.min, updated.max, updated.cycle}, restart);
  it->second = std::move(updated);
}

void Catalog::DropSequence(std::string_view name) {
  auto it = sequences_.find(name);
  if (it == sequences_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("sequence \"{}\" does not exist", name));
  db_.sequences().Drop(it->second.engine_name);
  sequences_.erase(it);
}

std::string Catalog::ChooseIndexName(std::string_view table, const std::vector<std::string>& columns,
                                     std::string_view suffix, const std::vector<std::string>& taken) const {
  std::string base = std::string(table);
  for (const std::string& c : columns) base += "_" + c;
  base += "_" + std::string(suffix);
  std::string name = base;
  for (int i = 1; RelationExists(name) || std::ranges::find(taken, name) != taken.end(); ++i)
    name = fmt::format("{}{}", base, i);
  return name;
}

}  // namespace caracal::planner

namespace caracal::planner {

void Catalog::StorePendingRoutine(PendingRoutine routine) {
  RemovePendingRoutine(routine.name, routine.parameter_types);
  pending_routines_.push_back(std::move(routine));
}

void Catalog::RemovePendingRoutine(std::string_view name, const std::vector<SqlType>& parameter_types) {
  std::erase_if(pending_routines_, [&](const PendingRoutine& p) {
    return p.name == name && p.parameter_types == parameter_types;
  });
}

const PendingRoutine* Catalog::FindPendingRoutine(std::string_view name) const {
  for (const PendingRoutine& p : pending_routines_)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::shared_ptr<const ProcedureIr>> Catalog::FindProcedures(std::string_view name) const {
  auto it = procedures_.find(name);
  if (it == procedures_.end()) return {};
  std::vector<std::shared_ptr<const ProcedureIr>> found;
  for (const StoredRoutine& r : it->second) found.push_back(r.ir);
  return found;
}

std::vector<std::shared_ptr<const ProcedureIr>> Catalog::Procedures() const {
  std::vector<std::shared_ptr<const ProcedureIr>> all;
  for (const auto& [name, overloads] : procedures_) {
    std::vector<const StoredRoutine*> sorted;
    for (const StoredRoutine& r : overloads) sorted.push_back(&r);
    std::ranges::sort(sorted, {}, [](const StoredRoutine* r) { return r->signature; });
    for (const StoredRoutine* r : sorted) all.push_back(r->ir);
  }
  return all;
}

void Catalog::StoreProcedure(StoredRoutine routine, bool replace) {
  std::vector<StoredRoutine>& overloads = procedures_[routine.name];
  for (StoredRoutine& existing : overloads) {
    if (existing.parameter_types != routine.parameter_types) continue;
    if (!replace)
      throw SqlError(sqlstate::kDuplicateFunction,
                     fmt::format("{} \"{}\" already exists with same argument types",
                                 routine.is_procedure ? "procedure" : "function", routine.name));
    existing = std::move(routine);
    return;
  }
  overloads.push_back(std::move(routine));
}

void Catalog::RemoveProcedure(const ProcedureIr& ir) {
  for (auto it = procedures_.begin(); it != procedures_.end(); ++it) {
    if (std::erase_if(it->second, [&](const StoredRoutine& r) { return r.ir.get() == &ir; }) == 0) continue;
    if (it->second.empty()) procedures_.erase(it);
    return;
  }
}

std::vector<std::string> Catalog::ProceduresUsing(const TableInfo& table) const {
  std::vector<std::string> users;
  for (const auto& [name, overloads] : procedures_)
    for (const StoredRoutine& r : overloads)
      if (std::ranges::find(r.tables, &table) != r.tables.end()) users.push_back(r.signature);
  return users;
}

void Catalog::RefuseWhileProceduresUse(const TableInfo& table, const std::string& what) const {
  std::vector<std::string> users = ProceduresUsing(table);
  if (users.empty()) return;
  throw SqlError(sqlstate::kDependentObjectsStillExist,
                 fmt::format("cannot drop {} because other objects depend on it", what))
      .WithDetail(fmt::format("{} {} compiled against table {}", fmt::join(users, ", "),
                              users.size() == 1 ? "is" : "are", table.name))
      .WithHint("Drop or replace those functions first.");
}

}  // namespace caracal::planner

namespace caracal::planner {

const EnumType* Catalog::FindEnum(std::string_view name) const {
  auto it = enums_.find(name);
  return it == enums_.end() ? nullptr : it->second;
}

std::vector<const EnumType*> Catalog::Enums() const {
  std::vector<const EnumType*> out;
  for (const auto& [name, e] : enums_) out.push_back(e);
  return out;
}

const EnumType& Catalog::CreateEnum(std::string name, std::vector<std::string> labels) {
  if (TypeExists(name) || FindSequence(name))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", name));
  enum_storage_.push_back(std::make_unique<EnumType>(name, std::move(labels)));
  EnumType* e = enum_storage_.back().get();
  enums_.emplace(std::move(name), e);
  return *e;
}

void Catalog::DropEnum(std::string_view name) {
  auto it = enums_.find(name);
  if (it == enums_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  enums_.erase(it);
}

EnumType& Catalog::MutableEnum(std::string_view name) {
  auto it = enums_.find(name);
  if (it == enums_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  return *it->second;
}

void Catalog::RenameEnum(std::string_view name, const std::string& new_name) {
  EnumType& e = MutableEnum(name);
  if (TypeExists(new_name) || FindSequence(new_name))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", new_name));
  enums_.erase(enums_.find(name));
  e.set_name(new_name);
  enums_.emplace(new_name, &e);
}

std::vector<std::string> Catalog::EnumUsers(const EnumType& type) const {
  std::vector<std::string> out;
  for (const auto& [name, t] : tables_)
    for (const CatalogColumn& c : t->columns)
      if (c.type.enum_type == &type) out.push_back(fmt::format("column {} of table {}", c.name, name));
  return out;
}

bool Catalog::TypeExists(std::string_view name) const {
  return FindEnum(name) || FindDomain(name) || FindComposite(name) || FindTable(name) || FindView(name);
}

bool TriggerInfo::FiresOn(Event event, const std::vector<std::string>& set) const {
  if (!enabled || (events & event) == 0) return false;
  if (event != kUpdate || update_columns.empty()) return true;
  return std::ranges::any_of(update_columns, [&](const std::string& c) { return std::ranges::find(set, c) != set.end(); });
}

bool TableInfo::HasTriggers(TriggerInfo::Event event) const {
  return std::ranges::any_of(triggers, [&](const TriggerInfo& t) { return t.enabled && (t.events & event) != 0; });
}

const TriggerFunction* Catalog::FindTriggerFunction(std::string_view name) const {
  auto it = trigger_functions_.find(name);
  return it == trigger_functions_.end() ? nullptr : &it->second;
}

std::vector<const TriggerFunction*> Catalog::TriggerFunctions() const {
  std::vector<const TriggerFunction*> out;
  for (const auto& [name, f] : trigger_functions_) out.push_back(&f);
  return out;
}

void Catalog::StoreTriggerFunction(TriggerFunction function) {
  std::string name = function.name;
  trigger_functions_.insert_or_assign(std::move(name), std::move(function));
}

void Catalog::RemoveTriggerFunction(std::string_view name) {
  auto it = trigger_functions_.find(name);
  if (it != trigger_functions_.end()) trigger_functions_.erase(it);
}

std::vector<std::string> Catalog::TriggersExecuting(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [table_name, table] : tables_)
    for (const TriggerInfo& t : table->triggers)
      if (t.function == name) out.push_back(fmt::format("trigger {} on table {}", t.name, table_name));
  return out;
}

const CompositeType* Catalog::FindComposite(std::string_view name) const {
  auto it = composites_.find(name);
  return it == composites_.end() ? nullptr : &it->second;
}

void Catalog::CreateComposite(CompositeType type) {
  if (TypeExists(type.name) || FindSequence(type.name))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", type.name));
  std::string name = type.name;
  composites_.emplace(std::move(name), std::move(type));
}

void Catalog::DropComposite(std::string_view name) {
  auto it = composites_.find(name);
  if (it == composites_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  composites_.erase(it);
}

const DomainType* Catalog::FindDomain(std::string_view name) const {
  auto it = domains_.find(name);
  return it == domains_.end() ? nullptr : it->second;
}

std::vector<const DomainType*> Catalog::Domains() const {
  std::vector<const DomainType*> out;
  for (const auto& [name, d] : domains_) out.push_back(d);
  return out;
}

const DomainType& Catalog::CreateDomain(DomainType domain) {
  if (TypeExists(domain.name()) || FindSequence(domain.name()))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", domain.name()));
  domain_storage_.push_back(std::make_unique<DomainType>(std::move(domain)));
  DomainType* d = domain_storage_.back().get();
  domains_.emplace(d->name(), d);
  return *d;
}

void Catalog::DropDomain(std::string_view name) {
  auto it = domains_.find(name);
  if (it == domains_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name));
  domains_.erase(it);
}

std::vector<std::string> Catalog::DomainUsers(const DomainType& type) const {
  std::vector<std::string> out;
  for (const auto& [name, t] : tables_)
    for (const CatalogColumn& c : t->columns)
      if (c.type.domain == &type) out.push_back(fmt::format("column {} of table {}", c.name, name));
  return out;
}

}  // namespace caracal::planner
