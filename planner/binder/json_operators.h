// The json and jsonb operators (-> ->> #> #>> @> <@ ? ?| ?& || -) and the functions that
// take any argument types (to_json, json_build_object, ...), bound as PostgreSQL's
// operator and function resolution would bind them, into Func calls
// (expr/json_builtins.h).
#pragma once

#include <string_view>
#include <vector>

#include "planner/expr/expr.h"

namespace caracal::planner {

// `l name r` when it is a json or jsonb operator PostgreSQL has for these operand types
// (an untyped literal takes the type the operator wants); nullptr, leaving l and r
// intact, otherwise.
ExprPtr MakeJsonOperator(std::string_view name, ExprPtr& l, ExprPtr& r, int location);

// Whether `name` is one of the functions MakeJsonFunction binds.
bool IsJsonFunction(std::string_view name);
// to_json[b], json[b]_build_object, json[b]_build_array, jsonb_set over bound arguments.
// Throws PostgreSQL's errors for a wrong argument list.
ExprPtr MakeJsonFunction(std::string_view name, std::vector<ExprPtr> args, int location);

// json_agg / jsonb_agg over `array_agg`, the array_agg(x) aggregate bound from the same call.
ExprPtr MakeJsonAgg(std::string_view name, ExprPtr array_agg, int location);
// json_object_agg / jsonb_object_agg(k, v) over array_agg(k) and array_agg(v), bound from
// the same call (same rows, FILTER and ORDER BY, so their elements pair up).
ExprPtr MakeJsonObjectAgg(std::string_view name, ExprPtr keys, ExprPtr values, int location);

// Whether `name` is a set-returning json function (json[b]_array_elements[_text],
// json[b]_object_keys, json[b]_each[_text]).
bool IsJsonSetFunction(std::string_view name);
// Such a call as the unnest it amounts to: `args` become the arrays unnest takes (an
// object's keys and values for *_each); `column_names` receives its columns' names.
// Throws "function ... does not exist" for other argument types.
void RewriteJsonSetFunction(std::string_view name, std::vector<ExprPtr>& args, int location,
                            std::vector<std::string>& column_names);

}  // namespace caracal::planner
