#include "codegen/runtime/foreign_key_checks.h"

#include "codegen/runtime/engine_row_sources.h"
#include "codegen/runtime/table_access.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/exec/foreign_keys.h"
#include "planner/expr/expr_eval.h"

namespace caracal::codegen {

using planner::Datum;
using planner::ForeignKey;
using planner::ReferencingKey;
using planner::TableInfo;

namespace {

bool SameValues(const std::vector<Datum>& a, const std::vector<Datum>& b, const TableInfo& table,
                std::span<const int> columns) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const planner::SqlType& type = table.columns[static_cast<size_t>(columns[i])].type;
    const Datum& x = a[static_cast<size_t>(columns[i])];
    const Datum& y = b[static_cast<size_t>(columns[i])];
    if (x.is_null() != y.is_null()) return false;
    if (!x.is_null() && planner::CompareForType(x, y, type) != 0) return false;
  }
  return true;
}

}  // namespace

void ForeignKeyChecks::Written(const TableInfo& table, const engine::RowValue& row, const engine::RowValue* old) {
  const engine::Schema& schema = exec_.table(table.id).schema();
  std::vector<Datum> datums = RowDatums(schema, row);
  std::vector<Datum> before;
  if (old != nullptr) before = RowDatums(schema, *old);
  for (const ForeignKey& k : table.foreign_keys) {
    if (k.referenced == nullptr) continue;
    if (old != nullptr && SameValues(datums, before, table, k.columns)) continue;  // as PostgreSQL: unchanged, unchecked
    std::optional<std::vector<Datum>> values = planner::KeyValuesOf(table, k.columns, datums, *k.referenced, k.referenced_columns);
    if (values) pending_.push_back({&table, &k, nullptr, std::move(*values), datums});
  }
  if (old != nullptr && !table.referenced_by.empty()) ReferencedChanged(table, before, &datums);
}

void ForeignKeyChecks::Deleted(const TableInfo& table, const engine::RowValue& old) {
  if (table.referenced_by.empty()) return;
  ReferencedChanged(table, RowDatums(exec_.table(table.id).schema(), old), nullptr);
}

void ForeignKeyChecks::ReferencedChanged(const TableInfo& table, const std::vector<Datum>& old,
                                         const std::vector<Datum>* updated) {
  for (const ReferencingKey& r : table.referenced_by) {
    const ForeignKey& k = *r.key;
    if (updated != nullptr && SameValues(old, *updated, table, k.referenced_columns)) continue;
    // The key in the referencing table's types (what its rows hold).
    std::optional<std::vector<Datum>> values = planner::KeyValuesOf(table, k.referenced_columns, old, *r.table, k.columns);
    if (!values) continue;  // a NULL key: nothing can reference it
    // An UPDATE's new key in the referencing table's types (a NULL stays NULL).
    std::optional<std::vector<Datum>> new_values;
    if (updated != nullptr) new_values = planner::ConvertedValues(table, k.referenced_columns, *updated, *r.table, k.columns);
    const ForeignKey::Action action = updated != nullptr ? k.on_update : k.on_delete;
    if (action == ForeignKey::Action::kNoAction) {
      std::optional<std::vector<Datum>> own = planner::KeyValuesOf(table, k.referenced_columns, old, table, k.referenced_columns);
      pending_.push_back({&table, nullptr, &r, std::move(*own), old});
      continue;
    }
    Act(r, action, *values, new_values ? &*new_values : nullptr, table, old);
  }
}

bool ForeignKeyChecks::Referenced(const ReferencingKey& referencing, const std::vector<Datum>& values) {
  ExecRowSource rows(exec_);
  bool found = false;
  planner::ForEachReferencingRow(rows, catalog_, referencing, values, [&](const engine::Key&, const engine::RowValue&) {
    found = true;
    return false;
  });
  return found;
}

void ForeignKeyChecks::Act(const ReferencingKey& r, ForeignKey::Action action, const std::vector<Datum>& values,
                           const std::vector<Datum>* new_values, const TableInfo& table, const std::vector<Datum>& old) {
  if (action == ForeignKey::Action::kRestrict) {
    if (Referenced(r, values)) throw planner::ForeignKeyStillReferenced(table, r, old);
    return;
  }
  const TableInfo& child = *r.table;
  const ForeignKey& k = *r.key;
  const engine::Schema& schema = exec_.table(child.id).schema();
  // The rows first, then the writes (which may reach rows of the same table again).
  std::vector<std::pair<engine::Key, std::vector<Datum>>> rows;
  ExecRowSource source(exec_);
  planner::ForEachReferencingRow(source, catalog_, r, values, [&](const engine::Key& key, const engine::RowValue& row) {
    rows.emplace_back(key, RowDatums(schema, row));
    return true;
  });
  for (auto& [key, datums] : rows) {
    const engine::RowValue* current = exec_.Read(child.id, key);
    if (current == nullptr) continue;  // gone meanwhile (a cascade reached it first)
    if (action == ForeignKey::Action::kCascade && new_values == nullptr) {
      exec_.Delete(child.id, key);
      ReferencedChanged(child, datums, nullptr);
      continue;
    }
    std::vector<Datum> changed = datums;
    for (size_t i = 0; i < k.columns.size(); ++i) {
      const size_t c = static_cast<size_t>(k.columns[i]);
      if (action == ForeignKey::Action::kCascade) {
        changed[c] = (*new_values)[i];
      } else if (action == ForeignKey::Action::kSetNull) {
        changed[c] = Datum::Null();
      } else {
        const planner::CatalogColumn& col = child.columns[c];
        changed[c] = col.default_expr ? planner::Eval(*col.default_expr, planner::EvalContext{}) : Datum::Null();
      }
    }
    engine::RowValuePtr built = BuildRow(child, schema, changed);
    const engine::RowValue& written = *built;
    exec_.Update(child.id, key, std::move(built));
    Written(child, written, current);
  }
}

void ForeignKeyChecks::EndOfStatement() {
  std::vector<Pending> due = std::move(pending_);
  pending_.clear();
  ExecRowSource rows(exec_);
  for (const Pending& p : due) {
    if (p.key != nullptr) {
      if (!planner::ReferencedRowExists(rows, *p.key, p.values)) throw planner::ForeignKeyMissing(*p.table, *p.key, p.row);
      continue;
    }
    // NO ACTION: fine if a row holds the key again, or nothing references it any more.
    const ReferencingKey& r = *p.referencing;
    planner::ForeignKey own = *r.key;
    own.referenced = p.table;
    if (planner::ReferencedRowExists(rows, own, p.values)) continue;
    std::optional<std::vector<Datum>> values =
        planner::KeyValuesOf(*p.table, r.key->referenced_columns, p.row, *r.table, r.key->columns);
    if (values && Referenced(r, *values)) throw planner::ForeignKeyStillReferenced(*p.table, r, p.row);
  }
}

}  // namespace caracal::codegen
