// Arithmetic on dates, times, timestamps and intervals: which of PostgreSQL's operators
// (date + integer, timestamp - interval, interval * double precision, ...) an
// expression means, found as PostgreSQL's operator resolution would find it.
#pragma once

#include "planner/expr/expr.h"

namespace caracal::planner {

// `l op r` when either side is a date/time or interval (an untyped literal takes the
// other side's type where such an operator exists). nullptr, leaving l and r intact,
// when neither side is; throws "operator does not exist" when no operator fits.
ExprPtr MakeDateTimeArithmetic(Op op, std::string_view name, ExprPtr& l, ExprPtr& r, int location);

}  // namespace caracal::planner
