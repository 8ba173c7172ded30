// Stored generated columns (GENERATED ALWAYS AS (expr) STORED): every write computes
// them from the row it writes, so no path (interpreted, compiled, a row patched in place,
// a bulk load) can store anything else. The binder has already refused a value for one
// other than DEFAULT (428C9); this fills in the value itself.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/datum.h"

namespace caracal::planner {

// An INSERT's generated values over its new row; an UPDATE's (and ON CONFLICT DO
// UPDATE's) over the new row where an assigned column feeds a generated one (or it is
// set to DEFAULT). Applied with the CHECK guards (after nextval() calls became
// variables, before the guards, which must see the generated values); a second call
// changes nothing.
void ComputeGeneratedColumns(Stmt& s);

// For the loads that build rows from Datums (COPY, INSERT ... SELECT between epochs):
// the table's generation expressions, read over a row's Datums, prepared once per load.
class RowGenerator {
 public:
  explicit RowGenerator(const TableInfo& table);
  bool empty() const { return columns_.empty(); }
  // `row` (one Datum per column) with its generated columns computed from the others.
  void Compute(std::span<Datum> row) const;

 private:
  std::vector<std::pair<int, ExprPtr>> columns_;  // column, expression over kVariable slots
};

// Whether `table` has generated columns.
bool HasGeneratedColumns(const TableInfo& table);

// Whether `e` reads column `column` of the row (a kColumn slot).
bool ReadsColumn(const Expr& e, int column);

}  // namespace caracal::planner
