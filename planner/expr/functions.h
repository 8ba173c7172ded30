// Builtin scalar functions: resolution by name and argument types (a small version of
// PostgreSQL's func_select_candidate) and evaluation.
#pragma once

#include <optional>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "planner/types/datum.h"
#include "planner/expr/expr.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

struct FunctionMatch {
  Func func;
  std::vector<SqlType> params;  // what each argument is coerced to
  SqlType result;
};

// nullopt: no function of that name takes these argument types.
std::optional<FunctionMatch> ResolveFunction(std::string_view name, std::span<const SqlType> args);

// The SQL name of a builtin (its first name in the catalog: "substr", "array_length").
std::string_view FunctionName(Func func);

// Evaluates a resolved function. Arguments are already coerced to the match's params.
Datum EvalFunction(Func func, const SqlType& result, std::span<const Datum> args);

// A constraint violation's DETAIL: "Failing row contains (1, null, 2.50)." (each
// value's text, or null).
std::string FailingRow(std::span<const std::optional<std::string>> values);

// Functions we deliberately refuse, because their result would differ between replicas
// or replays (DESIGN §2); nullptr if `name` is not one of them.
const char* NonDeterministicReason(std::string_view name);

}  // namespace caracal::planner
