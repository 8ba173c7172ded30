// EXPLAIN SELECT ...: the plan of an ad-hoc SELECT as a "QUERY PLAN" column, one line per
// row, indented as PostgreSQL indents its plan tree: the access path (which index, which
// key conditions), the filter, aggregation, DISTINCT, the sort (absent when the access
// path already gives the order) and LIMIT. There are no costs: nothing here is costed.
#pragma once

#include "planner/catalog.h"
#include "planner/result_set.h"
#include "planner/select_plan.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

// The plan of `plan` (bound by PlanSelect without an outer scope).
ResultSet ExplainSelect(const SelectPlan& plan);

// EXPLAIN [ ( option [, ...] ) ] statement: checks the options (ANALYZE and formats other
// than TEXT are not supported; costs, verbose and the rest change nothing) and explains a
// SELECT. Throws SqlError for anything else.
ResultSet ExecuteExplain(const PgQuery__ExplainStmt* stmt, const Catalog& catalog);

}  // namespace caracal::planner
