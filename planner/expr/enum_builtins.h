// Evaluation of enum_first, enum_last and enum_range (Func::kEnumFirst on). Their
// arguments only carry the type (PostgreSQL's anyenum, usually NULL::t); the type itself
// is the node's result type (the enum, or an array of it), which knows the labels.
#pragma once

#include <span>

#include "planner/expr/expr.h"
#include "planner/types/datum.h"

namespace caracal::planner {

Datum EvalEnumBuiltin(Func func, const SqlType& result, std::span<const Datum> args);

}  // namespace caracal::planner
