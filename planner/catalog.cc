#include "planner/catalog.h"

#include <fmt/format.h>

#include "planner/sql_error.h"

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

bool Catalog::RelationExists(std::string_view name) const {
  return FindTable(name) || FindIndex(name) || FindSequence(name);
}

std::vector<const TableInfo*> Catalog::Tables() const {
  std::vector<const TableInfo*> out;
  for (const auto& [name, t] : tables_) out.push_back(t.get());
  return out;
}

Schema Catalog::EngineSchema(const TableInfo& table) {
  std::vector<Column> columns;
  for (const CatalogColumn& c : table.columns) columns.push_back(ToColumn(c.name, c.type, c.not_null));
  return Schema(table.name, std::move(columns), table.primary_key);
}

const TableInfo& Catalog::CreateTable(TableInfo table) {
  if (RelationExists(table.name))
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", table.name));
  table.indexes.clear();
  table.id = db_.CreateTable(EngineSchema(table));
  auto owned = std::make_unique<TableInfo>(std::move(table));
  const TableInfo& ref = *owned;
  tables_.emplace(ref.name, std::move(owned));
  return ref;
}

void Catalog::DropTable(std::string_view name) {
  auto it = tables_.find(name);
  if (it == tables_.end()) throw SqlError(sqlstate::kUndefinedTable, fmt::format("table \"{}\" does not exist", name));
  for (const std::string& index : it->second->indexes) indexes_.erase(index);
  db_.DropTable(it->second->id);
  tables_.erase(it);
}

const IndexInfo& Catalog::CreateIndex(std::string name, std::string_view table_name, std::vector<int> columns) {
  auto it = tables_.find(table_name);
  if (it == tables_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
  if (RelationExists(name)) throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  TableInfo& table = *it->second;
  IndexInfo index{name, table.name, columns, static_cast<int>(table.indexes.size())};
  db_.AddIndex(table.id, IndexSchema{name, std::move(columns)});  // fills it from the rows
  indexes_.emplace(name, index);
  table.indexes.push_back(name);
  return indexes_.at(name);
}

void Catalog::DropIndex(std::string_view name) {
  auto it = indexes_.find(name);
  if (it == indexes_.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("index \"{}\" does not exist", name));
  TableInfo& table = *tables_.at(it->second.table);
  db_.DropIndex(table.id, it->second.engine_index);
  std::erase(table.indexes, it->second.name);
  indexes_.erase(it);
  // The engine's later indexes shift down by one.
  for (size_t i = 0; i < table.indexes.size(); ++i) indexes_.at(table.indexes[i]).engine_index = static_cast<int>(i);
}

const SequenceInfo& Catalog::CreateSequence(std::string name, int64_t start, int64_t increment) {
  if (RelationExists(name)) throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
  std::string engine_name = name;
  while (db_.sequences().Exists(engine_name)) engine_name = fmt::format("{}${}", name, ++sequence_generation_);
  db_.sequences().Create(engine_name, start, increment);
  return sequences_.emplace(name, SequenceInfo{name, engine_name, start, increment}).first->second;
}

void Catalog::DropSequence(std::string_view name) {
  auto it = sequences_.find(name);
  if (it == sequences_.end())
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("sequence \"{}\" does not exist", name));
  db_.sequences().Drop(it->second.engine_name);
  sequences_.erase(it);
}

std::string Catalog::ChooseIndexName(std::string_view table, const std::vector<std::string>& columns) const {
  std::string base = std::string(table);
  for (const std::string& c : columns) base += "_" + c;
  base += "_idx";
  std::string name = base;
  for (int i = 1; RelationExists(name); ++i) name = fmt::format("{}{}", base, i);
  return name;
}

}  // namespace caracal::planner
