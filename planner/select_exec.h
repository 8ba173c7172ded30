// Executes a SelectPlan against the last committed epoch (an engine Snapshot held for
// the whole query, so the answer is one consistent state however many epochs commit
// meanwhile).
#pragma once

#include "engine/database.h"
#include <span>
#include <vector>

#include "planner/result_set.h"
#include "planner/row_source.h"
#include "planner/select_plan.h"

namespace caracal::planner {

ResultSet ExecuteSelect(const SelectPlan& plan, Database& db);

// The visible columns of SelectRows' output in PostgreSQL's text format.
ResultSet RowsToResultSet(const SelectPlan& plan, const std::vector<std::vector<Datum>>& rows);

// The output rows of `plan` (visible and hidden columns, after ORDER BY, OFFSET and
// LIMIT) read from `source`; kVariable slots read `variables` (a procedure's frame).
std::vector<std::vector<Datum>> SelectRows(const SelectPlan& plan, RowSource& source,
                                           std::span<const Datum> variables,
                                           const ExprAccelerator* accelerator = nullptr);

}  // namespace caracal::planner
