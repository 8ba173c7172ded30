// Runs a QueryPlan (plan/query_plan.h): a push-based interpreter in which each node hands
// its tuples to its parent's callback, so that LIMIT stops the scans below it. Hash joins,
// hash aggregation, DISTINCT and set operations hash rows by value with SQL equality (NULLs
// equal where PostgreSQL treats them as not distinct); sorts are stable.
#pragma once

#include <functional>
#include <span>

#include "engine/storage/database.h"
#include "planner/plan/query_plan.h"
#include "planner/plan/row_source.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

// The result rows of `plan` over the last committed epoch, in PostgreSQL's text format.
ResultSet ExecuteQuery(const QueryPlan& plan, engine::Database& db);
// The same over `source` (a snapshot taken earlier).
ResultSet ExecuteQuery(const QueryPlan& plan, RowSource& source);

// Hands each result row of `plan` (its visible columns) to `row` (false: stop). `variables`:
// the values of its kVariable slots (a procedure's frame; none for an ad-hoc query).
void RunQuery(const QueryPlan& plan, RowSource& source, std::span<const Datum> variables,
              const std::function<bool(std::span<const Datum>)>& row);

}  // namespace caracal::planner
