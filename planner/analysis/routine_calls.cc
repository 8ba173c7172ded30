#include "planner/analysis/routine_calls.h"

#include <fmt/format.h>

#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"

namespace caracal::planner {

namespace {

void VisitCalls(const Expr& e, const std::function<void(const Expr&)>& fn) {
  if (e.kind == ExprKind::kRoutineCall) fn(e);
  for (const auto& a : e.args) VisitCalls(*a, fn);
}

// What makes a call of `routine` serial, or "".
std::string SerialEffect(const ProcedureIr& routine) {
  for (const Stmt* s : routine.table_statements)
    if (IsWrite(*s)) return fmt::format("writes table {}", s->table->name);
  if (!routine.sequence_calls.empty() || !routine.live_sequence_calls.empty()) return "draws sequence values";
  if (routine.is_serial()) return "runs alone in its epoch: " + routine.serial_reason;
  return {};
}

}  // namespace

void ForEachRoutineCall(const ProcedureIr& ir, const std::function<void(const Expr& call)>& fn) {
  for (const Variable& v : ir.variables)
    if (v.default_value) VisitCalls(*v.default_value, fn);
  ForEachStmt(ir.body, [&](const Stmt& s) { ForEachOwnExpr(s, [&](const Expr& e) { VisitCalls(e, fn); }); });
}

bool CallsRoutines(const ProcedureIr& ir) {
  bool calls = false;
  ForEachRoutineCall(ir, [&](const Expr&) { calls = true; });
  return calls;
}

bool TouchesTables(const ProcedureIr& routine) {
  if (!routine.table_statements.empty()) return true;
  bool touches = false;
  ForEachRoutineCall(routine, [&](const Expr& call) { touches = touches || TouchesTables(*call.routine); });
  return touches;
}

bool CallsTableRoutine(const Expr& e) {
  bool found = false;
  VisitCalls(e, [&](const Expr& call) { found = found || TouchesTables(*call.routine); });
  return found;
}

std::string WhyRoutineCallsAreSerial(const ProcedureIr& ir) {
  std::string why;
  ForEachRoutineCall(ir, [&](const Expr& call) {
    if (!why.empty()) return;
    std::string effect = SerialEffect(*call.routine);
    if (!effect.empty()) why = fmt::format("it calls {}, which {}", call.routine->Signature(), effect);
  });
  return why;
}

}  // namespace caracal::planner
