// The array functions and operators bound by their own rules (PostgreSQL's polymorphic
// anyarray / anycompatible resolution) into the Func calls of expr/array_builtins.h:
// array_remove, array_replace, array_position(s), array_to_string, string_to_array,
// array_dims, array_ndims, array_fill, `@>`, `<@`, `&&` and slices `a[l:u]`.
#pragma once

#include <string_view>
#include <vector>

#include "planner/expr/expr.h"

namespace caracal::planner {

// Whether `name` is one of the functions MakeArrayBuiltin binds.
bool IsArrayBuiltin(std::string_view name);
// Such a call over bound arguments. Throws PostgreSQL's "function ... does not exist"
// when the argument types do not fit.
ExprPtr MakeArrayBuiltin(std::string_view name, std::vector<ExprPtr> args, int location);

// `l name r` for @>, <@ and && when an operand is an array (an untyped literal takes
// the other's type); nullptr, leaving l and r intact, otherwise. Throws PostgreSQL's
// "operator does not exist" for arrays of different element types.
ExprPtr MakeArrayOperator(std::string_view name, ExprPtr& l, ExprPtr& r, int location);

// `array[lower:upper]`; a null bound pointer is an omitted one (from the start, to the end).
ExprPtr MakeArraySlice(ExprPtr array, ExprPtr lower, ExprPtr upper, int location);

}  // namespace caracal::planner
