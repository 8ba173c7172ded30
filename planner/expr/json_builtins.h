// Evaluation of the json and jsonb builtins (Func::kJsonGet .. Func::kJsonbPretty):
// the operators, the builders, to_json, and the jsonb functions, over
// planner/types/json.h. `result` is the call's type: json or jsonb where the answer is
// a JSON value (which of the two decides the text it is written as).
#pragma once

#include <span>

#include "planner/expr/expr.h"
#include "planner/types/datum.h"

namespace caracal::planner {

Datum EvalJsonFunction(Func func, const SqlType& result, std::span<const Datum> args);

}  // namespace caracal::planner
