#include "planner/plan/select_plan.h"

namespace caracal::planner {

namespace {

// A kAggRef's arguments: the value (none for count(*)), string_agg's delimiter, the
// ORDER BY keys, then the FILTER condition when there is one.
const Expr* ArgOf(const Expr& agg) { return agg.args.size() > (agg.filtered ? 1u : 0u) ? agg.args[0].get() : nullptr; }
const Expr* DelimiterOf(const Expr& agg) { return agg.agg == AggFunc::kStringAgg ? agg.args[1].get() : nullptr; }
const Expr* FilterOf(const Expr& agg) { return agg.filtered ? agg.args.back().get() : nullptr; }
ExprPtr CloneOrNull(const Expr* e) { return e ? e->Clone() : nullptr; }
bool Same(const ExprPtr& a, const Expr* b) { return a ? b != nullptr && a->Equals(*b) : b == nullptr; }
// The first ORDER BY key's position in a kAggRef's args (Expr::order), after the value
// and string_agg's delimiter.
size_t FirstKeyOf(const Expr& agg) { return agg.agg == AggFunc::kStringAgg ? 2 : 1; }

}  // namespace

AggregateSpec AggregateSpec::Of(const Expr& agg) {
  AggregateSpec s{agg.agg, CloneOrNull(ArgOf(agg)), agg.type, agg.distinct, agg.sort, CloneOrNull(FilterOf(agg)), nullptr};
  s.delimiter = CloneOrNull(DelimiterOf(agg));
  for (size_t i = 0; i < agg.order.size(); ++i) s.order_keys.push_back(agg.args[FirstKeyOf(agg) + i]->Clone());
  s.order = agg.order;
  return s;
}

bool AggregateSpec::Computes(const Expr& agg) const {
  if (order != agg.order) return false;
  for (size_t i = 0; i < order.size(); ++i)
    if (!order_keys[i]->Equals(*agg.args[FirstKeyOf(agg) + i])) return false;
  return func == agg.agg && Same(arg, ArgOf(agg)) && Same(filter, FilterOf(agg)) && Same(delimiter, DelimiterOf(agg)) &&
         distinct == agg.distinct && sort == agg.sort;
}

}  // namespace caracal::planner
