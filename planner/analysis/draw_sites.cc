#include "planner/analysis/draw_sites.h"

#include "planner/plan/ir_visit.h"

namespace caracal::planner {

namespace {

// Numbers the sites of `e` and below, pre-order; notes whether one draws.
void NumberIn(Expr& e, int& next, bool& draws) {
  if (e.kind == ExprKind::kFunc && e.func == Func::kRandom) {
    e.site = next++;
    draws = true;
  } else if (e.kind == ExprKind::kRoutineCall) {
    e.site = next++;
    draws = draws || (e.routine && e.routine->random_seed_variable >= 0);
  }
  for (auto& a : e.args) NumberIn(*a, next, draws);
}

}  // namespace

void NumberDrawSites(ProcedureIr& ir) {
  int next = 0;
  bool draws = false;
  for (Variable& v : ir.variables)
    if (v.default_value) NumberIn(*v.default_value, next, draws);
  ForEachStmt(ir.body, [&](Stmt& s) { ForEachOwnExpr(s, [&](Expr& e) { NumberIn(e, next, draws); }); });
  if (draws) ir.RandomSeedVariable();
}

}  // namespace caracal::planner
