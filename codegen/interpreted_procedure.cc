#include "codegen/interpreted_procedure.h"

#include "codegen/body_runner.h"
#include "codegen/frame.h"
#include "planner/expr_eval.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

namespace {

bool HasDependentStatement(const planner::ProcedureIr& ir) {
  for (const planner::Stmt* s : ir.table_statements)
    if (s->access && s->access->key_class == planner::AccessInfo::KeyClass::kDependent) return true;
  return false;
}

}  // namespace

InterpretedProcedure::InterpretedProcedure(std::shared_ptr<const planner::ProcedureIr> ir,
                                           const planner::Catalog& catalog)
    : ir_(std::move(ir)), catalog_(catalog), needs_epoch_head_(HasDependentStatement(*ir_)) {}

void InterpretedProcedure::Sequence(SequenceContext& ctx, TxnInput& input) const {
  if (ir_->sequence_calls.empty()) return;
  Frame frame = MakeFrame(*ir_, input);
  planner::EvalContext eval;
  eval.variables = frame.vars;
  for (const planner::SequenceCall& call : ir_->sequence_calls) {
    planner::Datum name = planner::Eval(*call.sequence_name, eval);
    if (name.is_null()) throw planner::SqlError("22004", "nextval: the sequence name is null");
    const planner::SequenceInfo* seq = catalog_.FindSequence(name.s);
    if (seq == nullptr) throw planner::SqlError("42P01", "relation \"" + name.s + "\" does not exist");
    input.sequence_values.push_back(ctx.NextVal(seq->engine_name));
  }
}

void InterpretedProcedure::Declare(DeclareContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  BodyRunner runner(*ir_, catalog_, ctx, frame);
  runner.RunInit();
}

void InterpretedProcedure::Execute(ExecContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  BodyRunner runner(*ir_, catalog_, ctx, frame);
  try {
    runner.Run();
  } catch (const planner::SqlError& e) {
    if (runner.published()) throw;  // the engine reports it; see README.md on the publish point
    ctx.Abort(e.sqlstate(), e.what());
  }
}

}  // namespace caracal::codegen
