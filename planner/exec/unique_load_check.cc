#include "planner/exec/unique_load_check.h"

#include <fmt/format.h>

#include "planner/catalog/constraint_errors.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

SqlError Violation(const TableInfo::UniqueIndex& index, const std::string& detail, const std::string& context) {
  SqlError e(sqlstate::kUniqueViolation, fmt::format("duplicate key value violates unique constraint \"{}\"", index.name));
  e.WithDetail(detail);
  if (!context.empty()) e.WithContext(context);
  return e;
}

}  // namespace

void UniqueLoadCheck::Add(const engine::RowValue& row, std::span<const Datum> datums, const std::string& context) {
  for (size_t u = 0; u < table_.unique_indexes.size(); ++u) {
    const TableInfo::UniqueIndex& index = table_.unique_indexes[u];
    std::optional<engine::Key> values = engine_table_.IndexKey(index.engine_index, row);
    if (!values) continue;  // a NULL: distinct from every other value
    std::string detail = DuplicateKeyDetail(table_, index.columns, datums);
    if (!seen_[u].insert(*values).second) throw Violation(index, detail, context);
    entries_.push_back({&index, std::move(*values), std::move(detail), context});
  }
}

void UniqueLoadCheck::CheckAgainst(RowSource& state) const {
  for (const Entry& e : entries_) {
    bool taken = false;
    state.ScanIndex(table_.id, e.index->engine_index, e.values, e.values.PrefixSuccessor(),
                    [&](const engine::Key&, const engine::RowValue& row) {
                         std::optional<engine::Key> held = engine_table_.IndexKey(e.index->engine_index, row);
                         taken = held && *held == e.values;
                         return !taken;
                       });
    if (taken) throw Violation(*e.index, e.detail, e.context);
  }
}

}  // namespace caracal::planner
