// Evaluation of the array functions and operators from Func::kArrayRemove on
// (array_remove, array_replace, array_position(s), array_to_string, string_to_array,
// @>, <@, &&, array_dims, array_ndims, array_fill and slices), with PostgreSQL's NULL
// rules for each (a NULL argument does not always make a NULL result). Arrays here are
// one-dimensional with lower bound 1.
#pragma once

#include <cstdint>
#include <span>

#include "planner/expr/expr.h"
#include "planner/types/datum.h"

namespace caracal::planner {

// The largest array PostgreSQL builds (MaxArraySize).
inline constexpr int64_t kMaxArraySize = 134217727;

Datum EvalArrayBuiltin(Func func, std::span<const Datum> args);

}  // namespace caracal::planner
