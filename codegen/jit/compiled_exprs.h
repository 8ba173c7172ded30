// CompiledExprs: the planner's ExprAccelerator over the statement expressions a
// ProcedureCode compiled (keys, new values, filters, query outputs), for one attempt of
// one transaction: it owns the scratch temps the compiled code writes, so it is used by
// one thread at a time. planner::Eval asks it first and interprets what it lacks.
#pragma once

#include <vector>

#include "codegen/runtime/eval_state.h"
#include "codegen/jit/procedure_codegen.h"
#include "planner/expr/expr_eval.h"

namespace caracal::codegen {

class CompiledExprs final : public planner::ExprAccelerator {
 public:
  explicit CompiledExprs(const ProcedureCode& code) : code_(code), temps_(&own_temps_) {}
  // With `temps` as the scratch temps: a buffer the caller reuses from run to run (its
  // Datums are reset to NULL before first use, keeping their strings' capacity).
  CompiledExprs(const ProcedureCode& code, std::vector<planner::Datum>& temps) : code_(code), temps_(&temps) {}
  CompiledExprs(const CompiledExprs&) = delete;
  CompiledExprs& operator=(const CompiledExprs&) = delete;

  bool Eval(const planner::Expr& e, const planner::EvalContext& ctx, planner::Datum& out) const override;

  // INSERT or UPDATE `s` over ctx's row and frame: its filter, then its new values
  // (assignments in order, or the VALUES row) into `values` (resized to fit; give each
  // statement a vector of its own to keep their buffers from call to call). False when
  // the filter rejects the row (values then unset). One EvalState for all of them;
  // values without compiled code are interpreted. Throws what planner::Eval throws.
  bool NewValues(const planner::Stmt& s, const planner::EvalContext& ctx, std::vector<planner::Datum>& values) const;

  // UPDATE `s`'s compiled patch (row_writes.h) over ctx, whose row is the old row: a
  // RowWrite, with the new row in `row` when kRowWritten (kRowFallback, and no copy
  // made, when `s` has no patch). Throws what the statement's expressions raise.
  int32_t Patch(const planner::Stmt& s, const planner::EvalContext& ctx, engine::RowValuePtr& row) const;
  // INSERT `s`'s compiled row (row_writes.h) over ctx's frame into `row`: a RowWrite
  // (kRowFallback when `s` has no compiled row).
  int32_t BuildRow(const planner::Stmt& s, const planner::EvalContext& ctx, const engine::Schema& schema,
                   engine::RowValuePtr& row) const;

  // Write statement `s`'s RETURNING ... INTO over ctx (the written row and the frame,
  // whose INTO variables it assigns), when compiled whole: true; false when `s` has no
  // such case (then Returning and the runner's assignments do it). Throws what the
  // expressions or assignments raise.
  bool ReturningInto(const planner::Stmt& s, const planner::EvalContext& ctx) const;

  // DELETE, UPDATE or INSERT `s`'s RETURNING expressions over ctx (the written row) into
  // `values`.
  void Returning(const planner::Stmt& s, const planner::EvalContext& ctx, std::vector<planner::Datum>& values) const;

  const ProcedureCode& code() const { return code_; }

 private:
  // The one EvalState of this object's compiled code, pointed at ctx. One object, one
  // thread at a time, and compiled code never evaluates another statement expression
  // while it runs (what it cannot compute it interprets), so it is never in use twice;
  // a failed case leaves no error in it (Run rethrows and clears it).
  EvalState& StateFor(const planner::EvalContext& ctx) const {
    if (!temps_ready_) PrepareTemps();
    // Compiled expressions only read the frame.
    state_.variables = const_cast<planner::Datum*>(ctx.variables.data());
    state_.group_keys = ctx.group_keys.data();
    state_.aggregates = ctx.aggregates.data();
    state_.row = ctx.row;
    state_.excluded = ctx.excluded;
    state_.error_at = nullptr;  // where an earlier case failed
    state_.error_where = 0;
    return state_;
  }
  // Set up on first use: many transactions never evaluate a statement expression.
  [[gnu::noinline]] void PrepareTemps() const;
  // Runs compiled row write case `which` with `out` as its output.
  int32_t RunRowWrite(int32_t which, const planner::EvalContext& ctx, void* out) const;
  void Run(int32_t which, EvalState& state, planner::Datum& out) const;
  // Each expression of `list` into `out` (resized to fit), with `state` for the compiled
  // ones and `interpreted` for the rest.
  void EvalList(const ProcedureCode::CaseList& list, EvalState& state, const planner::EvalContext& interpreted,
                std::vector<planner::Datum>& out) const;
  // The i-th expression of `list` into `out`, which is NULL.
  void EvalOne(const ProcedureCode::CaseList& list, size_t i, EvalState& state,
               const planner::EvalContext& interpreted, planner::Datum& out) const;

  const ProcedureCode& code_;
  mutable std::vector<planner::Datum> own_temps_;
  std::vector<planner::Datum>* temps_;
  mutable bool temps_ready_ = false;
  mutable EvalState state_;
  // A filter's result: apart from the values, so that a statement's values keep their
  // size (and their strings' buffers) from row to row.
  mutable planner::Datum filter_result_;
};

}  // namespace caracal::codegen
