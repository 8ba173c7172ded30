// Executes a SelectPlan against the last committed epoch (an engine Snapshot held for
// the whole query, so the answer is one consistent state however many epochs commit
// meanwhile).
#pragma once

#include "engine/storage/database.h"
#include <functional>
#include <span>
#include <vector>

#include "planner/types/result_set.h"
#include "planner/plan/row_source.h"
#include "planner/plan/select_plan.h"

namespace caracal::planner {

ResultSet ExecuteSelect(const SelectPlan& plan, engine::Database& db);
// The same over `source` (a snapshot taken earlier).
ResultSet ExecuteSelect(const SelectPlan& plan, RowSource& source);

// The visible columns of SelectRows' output in PostgreSQL's text format.
ResultSet RowsToResultSet(const SelectPlan& plan, const std::vector<std::vector<Datum>>& rows);

// The output rows of `plan` (visible and hidden columns, after ORDER BY, OFFSET and
// LIMIT) read from `source`; kVariable slots read `variables` (a procedure's frame).
std::vector<std::vector<Datum>> SelectRows(const SelectPlan& plan, RowSource& source,
                                           std::span<const Datum> variables,
                                           const ExprAccelerator* accelerator = nullptr);

// SelectRows' rows, one at a time, to `visit` (false: stop): without collecting them
// when they need no grouping or sorting (SortFollowsAccessPath), so that a RETURN QUERY
// hands each row on as the scan finds it. The span is valid during the call only.
void ForEachSelectedRow(const SelectPlan& plan, RowSource& source, std::span<const Datum> variables,
                        const ExprAccelerator* accelerator,
                        const std::function<bool(std::span<const Datum>)>& visit);

// Whether `plan`'s access path gives its rows in ORDER BY order already: a primary-key
// path whose key columns, after those it fixes by equality, are the sort keys, ascending
// (or no ORDER BY, or at most one row). Such a query is not sorted, and its LIMIT ends
// the scan.
bool SortFollowsAccessPath(const SelectPlan& plan);

}  // namespace caracal::planner
