// ForeignKeyChecks: what a transaction's row writes owe the foreign keys, as PostgreSQL's
// RI triggers do it. A referencing row's referenced row must exist, and a referenced
// row deleted (or whose key changes) must not stay referenced: both checked when the
// statement ends (NO ACTION; RESTRICT at once), so one statement may insert a child
// before its parent or delete a whole self-referencing tree. CASCADE, SET NULL and SET
// DEFAULT write the referencing rows at once, which only a serial procedure may (their
// keys are found as it runs: the analysis makes such procedures serial).
#pragma once

#include <vector>

#include "engine/procedure/procedure.h"
#include "engine/types/row_value.h"
#include "planner/catalog/catalog.h"
#include "planner/types/datum.h"

namespace caracal::codegen {

class ForeignKeyChecks {
 public:
  ForeignKeyChecks(engine::ExecContext& exec, const planner::Catalog& catalog) : exec_(exec), catalog_(catalog) {}

  // Whether writes of `table` have anything to check.
  static bool Concerns(const planner::TableInfo& table) {
    return !table.foreign_keys.empty() || !table.referenced_by.empty();
  }

  // After `row` was written to `table`; `old`: its value before (null for an insert).
  void Written(const planner::TableInfo& table, const engine::RowValue& row, const engine::RowValue* old);
  // After the row `old` of `table` was deleted.
  void Deleted(const planner::TableInfo& table, const engine::RowValue& old);
  // The checks the statement deferred, now that it has made all its writes. Throws 23503.
  void EndOfStatement();
  // The statement failed: what it deferred goes with it.
  void Discard() { pending_.clear(); }
  bool has_pending() const { return !pending_.empty(); }

 private:
  struct Pending {
    const planner::TableInfo* table;  // the referencing table, or the referenced one
    const planner::ForeignKey* key = nullptr;                 // set: a referencing row's check
    const planner::ReferencingKey* referencing = nullptr;     // set: a referenced row's (NO ACTION)
    std::vector<planner::Datum> values;  // the key, in the referenced table's types
    std::vector<planner::Datum> row;     // the row, for the message
  };
  void ReferencedChanged(const planner::TableInfo& table, const std::vector<planner::Datum>& old,
                         const std::vector<planner::Datum>* updated);
  // Runs `action` of `referencing` for the rows referencing `values`.
  void Act(const planner::ReferencingKey& referencing, planner::ForeignKey::Action action,
           const std::vector<planner::Datum>& values, const std::vector<planner::Datum>* new_values,
           const planner::TableInfo& table, const std::vector<planner::Datum>& old);
  bool Referenced(const planner::ReferencingKey& referencing, const std::vector<planner::Datum>& values);

  engine::ExecContext& exec_;
  const planner::Catalog& catalog_;
  std::vector<Pending> pending_;
};

}  // namespace caracal::codegen
