// The rows of a system view (planner/catalog/system_views.h), computed from the catalog
// when a query reads them: caracal_write_sets from the write-set analysis of every
// procedure, caracal_stat_durability from Catalog::DurabilityStatus.
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/plan/select_plan.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

// Runs a SELECT whose FROM item is a system view.
ResultSet ExecuteSystemViewSelect(const SelectPlan& plan, const Catalog& catalog);

}  // namespace caracal::planner
