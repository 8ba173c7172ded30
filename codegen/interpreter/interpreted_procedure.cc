#include "codegen/interpreter/interpreted_procedure.h"

#include <chrono>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/interpreter/sequence_names.h"
#include "codegen/runtime/frame.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

namespace {

// Microseconds since 2000-01-01 00:00:00 UTC (PostgreSQL's timestamp epoch).
int64_t TimestampNow() {
  using namespace std::chrono;
  constexpr int64_t kPostgresEpochUnixSeconds = 946684800;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() -
         kPostgresEpochUnixSeconds * 1'000'000;
}

bool HasDependentStatement(const planner::ProcedureIr& ir) {
  for (const planner::Stmt* s : ir.table_statements)
    if (s->access && s->access->key_class == planner::AccessInfo::KeyClass::kDependent) return true;
  return false;
}

}  // namespace

InterpretedProcedure::InterpretedProcedure(std::shared_ptr<const planner::ProcedureIr> ir,
                                           const planner::Catalog& catalog)
    : ir_(std::move(ir)),
      catalog_(catalog),
      needs_epoch_head_(HasDependentStatement(*ir_)),
      log_identity_(ProcedureLogIdentity(*ir_)) {}

std::string ProcedureLogIdentity(const planner::ProcedureIr& ir) {
  if (!ir.command_tag.empty()) return std::string(kLogDmlPrefix) + ir.source;
  return std::string(kLogCallPrefix) + ir.Signature();
}

void InterpretedProcedure::Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const {
  if (ir_->sequence_calls.empty() && ir_->now_variable < 0) return;
  Frame frame = MakeFrame(*ir_, input);
  planner::EvalContext eval;
  eval.variables = frame.vars;
  for (const planner::SequenceCall& call : ir_->sequence_calls)
    input.sequence_values.push_back(ctx.NextVal(SequenceEngineName(call, eval, catalog_)));
  // now() is drawn at sequencing too, so it is an input: the log replays the same value.
  if (ir_->now_variable >= 0) input.sequence_values.push_back(TimestampNow());
}

void InterpretedProcedure::Declare(engine::DeclareContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  ProcedureInterpreter runner(*ir_, catalog_, ctx, frame);
  try {
    runner.RunInit();
  } catch (const planner::SqlError&) {
    // The body fails at the same point (the init program evaluates a slice of it, in
    // order, on the same values): Execute reports the error with its SQLSTATE.
  }
}

void InterpretedProcedure::Execute(engine::ExecContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  ProcedureInterpreter runner(*ir_, catalog_, ctx, frame);
  try {
    runner.Run();
  } catch (const planner::SqlError& e) {
    if (runner.published()) throw;  // the engine reports it; see README.md on the publish point
    ctx.Abort(e.sqlstate(), e.what(), {e.detail(), e.hint(), e.context()});
  }
}

}  // namespace caracal::codegen
