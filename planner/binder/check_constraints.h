// CHECK constraints on the rows a statement writes (added by the write-set analysis):
// a check folded into the statement's
// first new value, so that every path that computes the row (interpreted, compiled, a
// row patched in place, a row-update callback) raises 23514 before anything is written.
#pragma once

#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// `target` (the expression of one of the new row's values) wrapped as
//   CASE WHEN <check 1> IS FALSE THEN check_violation(...) WHEN ... ELSE target END
// over `new_values` (per column: its new value, or null where the row keeps the value
// its kColumn slot reads). `target` unchanged when the table has no CHECK constraints.
ExprPtr GuardChecks(const TableInfo& table, const std::vector<const Expr*>& new_values, ExprPtr target);

// `e` (over the table's kColumn slots) with each column whose new value `new_values`
// gives replaced by that value; the others keep reading the row.
void OverNewRow(Expr& e, const std::vector<const Expr*>& new_values);

// Whether `e` is a value GuardChecks wrapped.
bool IsGuard(const Expr& e);
// The value a guard wraps (`e` itself when it is not one): what the row holds when it
// is written at all.
const Expr& Unguarded(const Expr& e);

// The guards of an INSERT's row and of an UPDATE's (or ON CONFLICT DO UPDATE's) new row in
// `s`. Applied after nextval() calls became their drawn values' variables (so that a
// serial value the check reads is not drawn twice); a second call changes nothing.
void GuardStatement(Stmt& s);

}  // namespace caracal::planner
