// Evaluation of the byte-type builtins (Func::kUuidFromDraws .. Func::kGetByte): uuid
// generation, digests, encode / decode and the UTF-8 conversions, over
// planner/types/bytes_text.h. Every one is strict (a NULL argument gives NULL).
#pragma once

#include <span>

#include "planner/expr/expr.h"
#include "planner/types/datum.h"

namespace caracal::planner {

Datum EvalBytesFunction(Func func, std::span<const Datum> args);

}  // namespace caracal::planner
