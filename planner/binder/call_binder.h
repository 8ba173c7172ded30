// PlanCall: resolves a statement that calls a user procedure into a CallPlan
// (planner/plan/call_plan.h): overload resolution and argument coercion.
#pragma once

#include <optional>

#include "planner/catalog/catalog.h"
#include "planner/plan/call_plan.h"

struct PgQuery__Node;

namespace caracal::planner {

// The call `stmt` makes, or nullopt if it is not a call of a user procedure (an ad-hoc
// SELECT goes to the SELECT planner). Throws SqlError for a call that does not resolve
// (42883 "function f(integer) does not exist", with PostgreSQL's HINT) or whose
// arguments do not coerce.
// `any_kind`: CALL may name a function too (EXPLAIN CALL).
std::optional<CallPlan> PlanCall(const PgQuery__Node* stmt, const Catalog& catalog, bool any_kind = false);

}  // namespace caracal::planner
