// Executes a SelectPlan against the last committed epoch (an engine Snapshot held for
// the whole query, so the answer is one consistent state however many epochs commit
// meanwhile).
#pragma once

#include "engine/database.h"
#include "planner/result_set.h"
#include "planner/select_plan.h"

namespace caracal::planner {

ResultSet ExecuteSelect(const SelectPlan& plan, Database& db);

}  // namespace caracal::planner
