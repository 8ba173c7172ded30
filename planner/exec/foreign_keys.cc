#include "planner/exec/foreign_keys.h"

#include <algorithm>

#include "planner/catalog/constraint_errors.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/access_path.h"
#include "planner/types/cast.h"

namespace caracal::planner {

namespace {

// Positions of `columns` in `order` when `order` starts with exactly those columns (in
// any order): for each of order's first columns.size() entries, the index into
// `columns`. Empty otherwise.
std::vector<size_t> LeadingMatch(std::span<const int> order, std::span<const int> columns) {
  if (order.size() < columns.size()) return {};
  std::vector<size_t> at;
  for (size_t i = 0; i < columns.size(); ++i) {
    auto it = std::ranges::find(columns, order[i]);
    if (it == columns.end()) return {};
    at.push_back(static_cast<size_t>(it - columns.begin()));
  }
  return at;
}

// The key of `values` (one per entry of `columns`) laid out in `order`'s first columns;
// nullopt when a value has no exact encoding (it matches no row).
std::optional<engine::Key> KeyInOrder(const TableInfo& table, std::span<const int> order, std::span<const size_t> at,
                                      std::span<const Datum> values) {
  engine::Key key;
  for (size_t i = 0; i < at.size(); ++i)
    if (!AppendKeyValue(key, values[at[i]], table.columns[static_cast<size_t>(order[i])])) return std::nullopt;
  return key;
}

bool Holds(const TableInfo& table, const engine::Schema& schema, const engine::RowValue& row,
           std::span<const int> columns, std::span<const Datum> values) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const int c = columns[i];
    Datum v = DatumFromRow(row, c, schema.column(c));
    if (v.is_null() || CompareForType(v, values[i], table.columns[static_cast<size_t>(c)].type) != 0) return false;
  }
  return true;
}

}  // namespace

std::vector<Datum> ConvertedValues(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row,
                                   const TableInfo& to, std::span<const int> to_columns) {
  std::vector<Datum> out;
  for (size_t i = 0; i < columns.size(); ++i) {
    const Datum& v = row[static_cast<size_t>(columns[i])];
    const SqlType& from = table.columns[static_cast<size_t>(columns[i])].type;
    const SqlType& type = to.columns[static_cast<size_t>(to_columns[i])].type;
    out.push_back(v.is_null() || from == type ? v : CastDatum(v, from, type, false));
  }
  return out;
}

std::optional<std::vector<Datum>> KeyValuesOf(const TableInfo& table, std::span<const int> columns,
                                              std::span<const Datum> row, const TableInfo& to,
                                              std::span<const int> to_columns) {
  for (int c : columns)
    if (row[static_cast<size_t>(c)].is_null()) return std::nullopt;
  return ConvertedValues(table, columns, row, to, to_columns);
}

bool ReferencedRowExists(RowSource& rows, const ForeignKey& key, std::span<const Datum> values) {
  const TableInfo& parent = *key.referenced;
  const engine::Schema& schema = rows.schema(parent.id);
  if (std::vector<size_t> at = LeadingMatch(parent.primary_key, key.referenced_columns);
      !at.empty() && at.size() == parent.primary_key.size()) {
    std::optional<engine::Key> k = KeyInOrder(parent, parent.primary_key, at, values);
    return k && rows.Read(parent.id, *k) != nullptr;
  }
  for (const TableInfo::UniqueIndex& u : parent.unique_indexes) {
    std::vector<size_t> at = LeadingMatch(u.columns, key.referenced_columns);
    if (at.empty() || at.size() != u.columns.size()) continue;
    std::optional<engine::Key> k = KeyInOrder(parent, u.columns, at, values);
    if (!k) return false;
    bool found = false;
    rows.ScanIndex(parent.id, u.engine_index, *k, k->PrefixSuccessor(), [&](const engine::Key&, const engine::RowValue& r) {
      found = Holds(parent, schema, r, key.referenced_columns, values);
      return !found;
    });
    return found;
  }
  // No index matches (the DDL requires one): look at every row.
  bool found = false;
  rows.Scan(parent.id, engine::Key(), engine::Key(), [&](const engine::Key&, const engine::RowValue& r) {
    found = Holds(parent, schema, r, key.referenced_columns, values);
    return !found;
  });
  return found;
}

void ForEachReferencingRow(RowSource& rows, const Catalog& catalog, const ReferencingKey& referencing,
                           std::span<const Datum> values, const RowVisitor& visit) {
  const TableInfo& child = *referencing.table;
  const ForeignKey& key = *referencing.key;
  const engine::Schema& schema = rows.schema(child.id);
  auto matching = [&](const engine::Key& k, const engine::RowValue& r) {
    return !Holds(child, schema, r, key.columns, values) || visit(k, r);
  };
  if (std::vector<size_t> at = LeadingMatch(child.primary_key, key.columns); !at.empty()) {
    if (std::optional<engine::Key> k = KeyInOrder(child, child.primary_key, at, values))
      rows.Scan(child.id, *k, k->PrefixSuccessor(), matching);
    return;
  }
  for (size_t i = 0; i < child.indexes.size(); ++i) {
    const IndexInfo* index = catalog.FindIndex(child.indexes[i]);
    if (index == nullptr) continue;
    std::vector<size_t> at = LeadingMatch(index->columns, key.columns);
    if (at.empty()) continue;
    if (std::optional<engine::Key> k = KeyInOrder(child, index->columns, at, values))
      rows.ScanIndex(child.id, index->engine_index, *k, k->PrefixSuccessor(), matching);
    return;
  }
  rows.Scan(child.id, engine::Key(), engine::Key(), matching);
}

namespace {

std::optional<engine::Key> EncodedValues(const TableInfo& table, std::span<const int> columns, std::span<const Datum> values) {
  engine::Key key;
  for (size_t i = 0; i < columns.size(); ++i)
    if (values[i].is_null() || !AppendKeyValue(key, values[i], table.columns[static_cast<size_t>(columns[i])]))
      return std::nullopt;
  return key;
}

}  // namespace

void ForeignKeyLoadCheck::Add(std::span<const Datum> row) {
  for (size_t i = 0; i < table_.foreign_keys.size(); ++i) {
    const ForeignKey& k = table_.foreign_keys[i];
    if (k.referenced == &table_) {
      std::vector<Datum> own(k.referenced_columns.size());
      for (size_t j = 0; j < own.size(); ++j) own[j] = row[static_cast<size_t>(k.referenced_columns[j])];
      if (std::optional<engine::Key> encoded = EncodedValues(table_, k.referenced_columns, own))
        own_keys_[i].insert(std::move(*encoded));
    }
    if (k.referenced == nullptr) continue;
    std::optional<std::vector<Datum>> values = KeyValuesOf(table_, k.columns, row, *k.referenced, k.referenced_columns);
    if (values) entries_.push_back({i, std::move(*values), std::vector<Datum>(row.begin(), row.end())});
  }
}

void ForeignKeyLoadCheck::CheckAgainst(RowSource& state) const {
  for (const Entry& e : entries_) {
    const ForeignKey& k = table_.foreign_keys[e.key];
    if (k.referenced == &table_) {
      std::optional<engine::Key> encoded = EncodedValues(table_, k.referenced_columns, e.values);
      if (encoded && own_keys_[e.key].contains(*encoded)) continue;
    }
    if (!ReferencedRowExists(state, k, e.values)) throw ForeignKeyMissing(table_, k, e.row);
  }
}

}  // namespace caracal::planner
