// PlanSelect: binds an ad-hoc SELECT (or a PL/pgSQL statement's query) into a
// SelectPlan (planner/plan/select_plan.h) against the catalog.
#pragma once

#include <optional>
#include <string>

#include "planner/catalog/catalog.h"
#include "planner/plan/select_plan.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}
struct PgQuery__ResTarget;

namespace caracal::planner {

class NameScope;

// The header of an output column (SELECT list, RETURNING): its alias, or the name
// PostgreSQL's FigureColname gives it (`?column?` when there is none).
std::string OutputColumnName(const PgQuery__ResTarget* target);
// An integer constant in GROUP BY / ORDER BY / DISTINCT ON: a position in the select list.
std::optional<int> SelectListPosition(const PgQuery__Node* n);
// A one-field column reference's name (`x`), which may name an output column.
std::optional<std::string> BareColumnName(const PgQuery__Node* n);
// ORDER BY item's direction with PostgreSQL's NULLS default (`output` left 0).
SortKey SortKeyFor(const PgQuery__SortBy* sb);

// "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE" or "FOR KEY SHARE".
const char* LockingClauseName(PgQuery__LockClauseStrength strength);

// Binds a SELECT statement. Throws SqlError. `outer` (may be null) resolves the names
// that are not columns of the FROM item: a PL/pgSQL procedure's variables, read as
// kVariable slots. A name that is both a column and an outer name is ambiguous
// (PL/pgSQL's default variable_conflict = error); a qualified `ref.col` is a column.
SelectPlan PlanSelect(const PgQuery__SelectStmt* stmt, const Catalog& catalog, const NameScope* outer = nullptr);

}  // namespace caracal::planner
