// EXPLAIN of a QueryPlan (joins, subqueries, CTEs, set operations, window functions): its
// node tree as PostgreSQL names and indents it - scans with their key and filter
// conditions, joins with their method and conditions (Hash Cond, Join Filter), aggregation,
// sorts, limits - then each CTE and subplan. There are no costs: nothing is costed.
#pragma once

#include "planner/plan/query_plan.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

ResultSet ExplainQueryPlan(const QueryPlan& plan);

}  // namespace caracal::planner
