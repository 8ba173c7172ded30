// EXPLAIN SELECT ...: the plan of an ad-hoc SELECT as a "QUERY PLAN" column, one line per
// row, indented as PostgreSQL indents its plan tree: the access path (which index, which
// key conditions), the filter, aggregation, DISTINCT, the sort (absent when the access
// path already gives the order) and LIMIT. There are no costs: nothing here is costed.
// EXPLAIN of an ad-hoc INSERT/UPDATE/DELETE is EXPLAIN CALL of its one-statement
// procedure (the session runs codegen::ExplainCall).
#pragma once

#include "planner/binder/query_block.h"
#include "planner/binder/select_binder.h"
#include "planner/catalog/catalog.h"
#include "planner/types/result_set.h"
#include "planner/plan/select_plan.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

class PlanText;
struct RenderNames;

// A sort key as EXPLAIN prints it: `expr` [DESC] [NULLS FIRST | LAST] (when not the default).
std::string SortKeyText(std::string expr, const SortKey& k);
// An aggregate call as EXPLAIN prints it: sum(x), count(*), string_agg(x, ', ') FILTER (...).
std::string RenderAggregate(const AggregateSpec& a, const RenderNames& names);
// A table scan's node (by its access path) and its key and filter conditions.
void ExplainScan(PlanText& out, const TableInfo& table, const std::string& on, const AccessPath& path, const Expr* filter,
                 const RenderNames& names);

// The plan of `plan` (bound by PlanSelect without an outer scope).
ResultSet ExplainSelect(const SelectPlan& plan);

// EXPLAIN [ ( option [, ...] ) ] statement: throws SqlError for an option we do not
// support (ANALYZE, formats other than TEXT) or do not know; costs, verbose and the rest
// are accepted and change nothing.
void CheckExplainOptions(const PgQuery__ExplainStmt* stmt);
// The plan of EXPLAIN's statement when it is a SELECT; throws SqlError for any statement
// but SELECT, INSERT, UPDATE and DELETE (whose write sets the caller explains).
// `estimate` sizes tables for a join's order, as when the query runs.
ResultSet ExplainQuery(const PgQuery__Node* query, const Catalog& catalog, const TableRowEstimator& estimate = {});

}  // namespace caracal::planner
