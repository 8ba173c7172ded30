// RunOverArrays: a query of the rows of unnest(...) over a procedure's array variables,
// run on the arrays themselves. PL/pgSQL's set-based statements over array parameters
// (UPDATE stock ... FROM unnest(ids, qtys) AS u(i, q), INSERT ... SELECT ... FROM
// unnest(...)) collect such a query into arrays on every call, in the init program and in
// the body; building rows of Datums to take them apart again costs more than the writes.
// Here a row is an index into the arrays: projections of columns permute the arrays,
// sorts and DISTINCT reorder and drop indexes, and each output column is built once (or is
// the variable's array itself, shared, when nothing was reordered).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "planner/plan/query_plan.h"
#include "planner/types/datum.h"

namespace caracal::planner {

// The output columns of `plan`, each an array Datum of the rows' values in order, with
// `variables` the values of its kVariable slots; nullopt when the plan is not only
// unnest of variables (WITH ORDINALITY too) under projections of its columns, sorts and
// DISTINCT (the caller runs it as any query then). The same rows, in the same order, as
// RunQuery gives.
std::optional<std::vector<Datum>> RunOverArrays(const QueryPlan& plan, std::span<const Datum> variables);

}  // namespace caracal::planner
