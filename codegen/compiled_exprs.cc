#include "codegen/compiled_exprs.h"

#include "planner/sql_error.h"

namespace caracal::codegen {

EvalState CompiledExprs::StateFor(const planner::EvalContext& ctx) const {
  EvalState state;
  // Compiled expressions only read the frame.
  state.variables = const_cast<planner::Datum*>(ctx.variables.data());
  state.group_keys = ctx.group_keys.data();
  state.aggregates = ctx.aggregates.data();
  state.row = ctx.row;
  state.excluded = ctx.excluded;
  state.temps = temps_.data();
  return state;
}

void CompiledExprs::Run(int32_t which, EvalState& state, planner::Datum& out) const {
  if (code_.RunExpr(which, &state, &out) == 0) {
    state.RethrowIfError();
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: compiled expression failed without an error");
  }
}

bool CompiledExprs::Eval(const planner::Expr& e, const planner::EvalContext& ctx, planner::Datum& out) const {
  const int32_t which = code_.FindExpr(&e);
  if (which < 0) return false;
  EvalState state = StateFor(ctx);
  Run(which, state, out);
  return true;
}

bool CompiledExprs::NewValues(const planner::Stmt& s, const planner::EvalContext& ctx,
                              std::vector<planner::Datum>& values) const {
  const ProcedureCode::StatementCases* cases = code_.CasesOf(s);
  const size_t n = s.kind == planner::StmtKind::kInsert ? s.row_values.size() : s.assignments.size();
  auto value_expr = [&](size_t i) -> const planner::Expr& {
    return s.kind == planner::StmtKind::kInsert ? *s.row_values[i] : *s.assignments[i].second;
  };
  // What has no case is interpreted whole (asking us again would only miss again).
  planner::EvalContext interpreted = ctx;
  interpreted.accelerator = nullptr;
  EvalState state = StateFor(ctx);
  if (s.filter) {
    planner::Datum keep;
    if (cases != nullptr && cases->filter >= 0)
      Run(cases->filter, state, keep);
    else
      keep = planner::Eval(*s.filter, interpreted);
    if (keep.is_null() || !keep.as_bool()) return false;
  }
  values.clear();  // compiled code writes into a Datum as it finds it: start from NULLs
  values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (cases != nullptr && cases->values[i] >= 0)
      Run(cases->values[i], state, values[i]);
    else
      values[i] = planner::Eval(value_expr(i), interpreted);
  }
  return true;
}

}  // namespace caracal::codegen
