// Constraint violations worded as PostgreSQL words them, for every path that writes rows
// (procedures, ad-hoc DML, COPY).
#pragma once

#include <span>

#include "planner/catalog/catalog.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

// 23502 for NULL in not-null column `column` of `table`, with PostgreSQL's DETAIL
// "Failing row contains (1, null, 2.50)." showing `row` (one Datum per column).
SqlError NotNullViolation(const TableInfo& table, int column, std::span<const Datum> row);

}  // namespace caracal::planner
