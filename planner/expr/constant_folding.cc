#include "planner/expr/constant_folding.h"

#include <algorithm>

#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool Foldable(ExprKind kind) {
  switch (kind) {
    case ExprKind::kConst:
    case ExprKind::kSlot:
    case ExprKind::kAggRef:   // evaluated per group
    case ExprKind::kNextval:  // drawn at sequencing
    case ExprKind::kSubquery:  // reads tables
    case ExprKind::kWindowRef:
    case ExprKind::kRoutineCall:  // runs a body (which may read tables or raise)
      return false;
    default: return true;
  }
}

}  // namespace

void FoldConstantNode(Expr& e) {
  if (!Foldable(e.kind) || e.args.empty()) return;
  if (!std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return a && a->kind == ExprKind::kConst; }))
    return;
  Datum value;
  try {
    value = Eval(e, EvalContext{});
  } catch (const SqlError&) {
    return;
  }
  e.kind = ExprKind::kConst;
  e.value = std::move(value);
  e.args.clear();
}

}  // namespace caracal::planner
