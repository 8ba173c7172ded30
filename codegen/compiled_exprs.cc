#include "codegen/compiled_exprs.h"

#include "planner/sql_error.h"

namespace caracal::codegen {

bool CompiledExprs::Eval(const planner::Expr& e, const planner::EvalContext& ctx, planner::Datum& out) const {
  const int32_t which = code_.FindExpr(&e);
  if (which < 0) return false;
  EvalState state;
  // Compiled expressions only read the frame.
  state.variables = const_cast<planner::Datum*>(ctx.variables.data());
  state.group_keys = ctx.group_keys.data();
  state.aggregates = ctx.aggregates.data();
  state.row = ctx.row;
  state.excluded = ctx.excluded;
  state.temps = temps_.data();
  if (code_.RunExpr(which, &state, &out) == 0) {
    state.RethrowIfError();
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: compiled expression failed without an error");
  }
  return true;
}

}  // namespace caracal::codegen
