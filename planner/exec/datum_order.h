// The two comparisons query execution makes beyond SQL's `=` and `<`: equality where
// NULLs are not distinct (grouping, DISTINCT, set operations), and a sort key's order
// (direction and NULL placement as asked).
#pragma once

#include "planner/expr/expr_eval.h"
#include "planner/plan/select_plan.h"
#include "planner/types/datum.h"

namespace caracal::planner {

inline bool NotDistinct(const Datum& a, const Datum& b, const SqlType& type) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null();
  return CompareForType(a, b, type) == 0;
}

inline int CompareForSort(const Datum& x, const Datum& y, const SortKey& k, const SqlType& type) {
  if (x.is_null() || y.is_null()) {
    if (x.is_null() == y.is_null()) return 0;
    return x.is_null() == k.nulls_first ? -1 : 1;
  }
  const int c = CompareForType(x, y, type);
  return k.descending ? -c : c;
}

}  // namespace caracal::planner
