// RenderExpr: a bound expression as readable SQL, for EXPLAIN PROCEDURE's key column and
// caracal_write_sets (`p_w_id`, `nextval('s')`, `p_items[i]`, `(v_next_o_id - 20)`).
// Implicit casts are left out; explicit ones print as `x::type`.
#pragma once

#include <functional>
#include <string>

#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"

namespace caracal::planner {

struct RenderNames {
  // The text for frame slot `slot` (a variable's name, or what it stands for).
  std::function<std::string(int slot)> variable;
  const TableInfo* table = nullptr;  // names kColumn / kExcluded slots
  // The text for any other slot (a grouped query's group keys and aggregates); unset: "?".
  std::function<std::string(const Slot& slot)> other_slot;
};

std::string RenderExpr(const Expr& e, const RenderNames& names);
// The same without one pair of parentheses around the whole: what goes inside a clause's
// own parentheses (CHECK (...), GENERATED ALWAYS AS (...)).
std::string RenderBareExpr(const Expr& e, const RenderNames& names);
// An aggregate's SQL name ("count" for count(*) too).
const char* AggregateName(AggFunc f);

}  // namespace caracal::planner
