#include "codegen/jit/compiled_exprs.h"

#include "codegen/runtime/error_context.h"
#include "codegen/jit/row_writes.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

void CompiledExprs::PrepareTemps() const {
  // Not reset, as ProcedureCode::Run's temps: each is written before it is read.
  temps_->resize(static_cast<size_t>(code_.expr_temps()));
  state_.temps = temps_->data();
  temps_ready_ = true;
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
  EvalState& state = StateFor(ctx);
  Run(which, state, out);
  return true;
}

void CompiledExprs::EvalList(const ProcedureCode::CaseList& list, EvalState& state,
                             const planner::EvalContext& interpreted, std::vector<planner::Datum>& out) const {
  // Compiled code writes into a Datum as it finds it: start from NULLs, but keep the
  // strings' buffers of the last statement's values.
  if (out.size() > list.exprs.size()) out.resize(list.exprs.size());
  for (planner::Datum& d : out) planner::ResetDatum(d);
  out.resize(list.exprs.size());
  for (size_t i = 0; i < list.exprs.size(); ++i) EvalOne(list, i, state, interpreted, out[i]);
}

void CompiledExprs::EvalOne(const ProcedureCode::CaseList& list, size_t i, EvalState& state,
                            const planner::EvalContext& interpreted, planner::Datum& out) const {
  const planner::Expr& e = *list.exprs[i];
  if (list.cases[i] >= 0)
    Run(list.cases[i], state, out);
  else if (e.kind == planner::ExprKind::kConst)  // the usual uncompiled values: copied as Eval would
    planner::CopyDatum(out, e.value);
  else if (e.kind == planner::ExprKind::kSlot && e.slot.space == planner::SlotSpace::kVariable)
    planner::CopyDatum(out, interpreted.variables[static_cast<size_t>(e.slot.index)]);
  else
    out = planner::Eval(e, interpreted);
}

namespace {

// ctx without the accelerator: what has no case is interpreted whole (asking again would
// only miss again).
planner::EvalContext Interpreted(const planner::EvalContext& ctx) {
  planner::EvalContext interpreted = ctx;
  interpreted.accelerator = nullptr;
  return interpreted;
}

const ProcedureCode::StatementCases& CasesOf(const ProcedureCode& code, const planner::Stmt& s) {
  const ProcedureCode::StatementCases* cases = code.CasesOf(s);
  if (cases == nullptr)
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: write statement without its cases");
  return *cases;
}

}  // namespace

bool CompiledExprs::NewValues(const planner::Stmt& s, const planner::EvalContext& ctx,
                              std::vector<planner::Datum>& values) const {
  const ProcedureCode::StatementCases& cases = CasesOf(code_, s);
  const planner::EvalContext interpreted = Interpreted(ctx);
  EvalState& state = StateFor(ctx);
  if (!cases.filter.exprs.empty()) {
    planner::ResetDatum(filter_result_);
    EvalOne(cases.filter, 0, state, interpreted, filter_result_);
    if (filter_result_.is_null() || !filter_result_.as_bool()) return false;
  }
  EvalList(cases.values, state, interpreted, values);
  return true;
}

int32_t CompiledExprs::RunRowWrite(int32_t which, const planner::EvalContext& ctx, void* out) const {
  EvalState& state = StateFor(ctx);
  const int32_t result = code_.RunExpr(which, &state, static_cast<planner::Datum*>(out));
  if (result == 0) {
    state.RethrowIfError();
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: compiled row write failed without an error");
  }
  return result;
}

int32_t CompiledExprs::Patch(const planner::Stmt& s, const planner::EvalContext& ctx, engine::RowValuePtr& row) const {
  const int32_t which = CasesOf(code_, s).row_write;
  if (which < 0) return kRowFallback;
  engine::RowPatch patch(*ctx.row);
  PatchTarget target{patch.mutable_row(), ctx.schema, nullptr};
  const int32_t result = RunRowWrite(which, ctx, &target);
  // Set only on the way to kRowWritten.
  engine::RowValuePtr rebuilt(target.rebuilt);
  if (result == kRowWritten) row = rebuilt ? std::move(rebuilt) : patch.Build();
  return result;
}

int32_t CompiledExprs::BuildRow(const planner::Stmt& s, const planner::EvalContext& ctx, const engine::Schema& schema,
                                engine::RowValuePtr& row) const {
  const int32_t which = CasesOf(code_, s).row_write;
  if (which < 0) return kRowFallback;
  BuiltRow built;
  built.schema = &schema;
  const int32_t result = RunRowWrite(which, ctx, &built);
  row.reset(built.row);
  return result;
}

bool CompiledExprs::ReturningInto(const planner::Stmt& s, const planner::EvalContext& ctx) const {
  const ProcedureCode::StatementCases& cases = CasesOf(code_, s);
  if (cases.returning_into < 0) return false;
  // This case writes the frame (ctx.variables is the runner's own frame).
  EvalState& state = StateFor(ctx);
  if (code_.RunExpr(cases.returning_into, &state, nullptr) == 0) {
    try {
      state.RethrowIfError();
    } catch (planner::SqlError& e) {
      if (static_cast<ErrorWhere>(state.error_where) == ErrorWhere::kPlpgsql) e.AtPlpgsqlLevel();
      throw;
    }
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: compiled RETURNING failed without an error");
  }
  return true;
}

void CompiledExprs::Returning(const planner::Stmt& s, const planner::EvalContext& ctx,
                              std::vector<planner::Datum>& values) const {
  const ProcedureCode::StatementCases& cases = CasesOf(code_, s);
  EvalState& state = StateFor(ctx);
  EvalList(cases.returning, state, Interpreted(ctx), values);
}

}  // namespace caracal::codegen
