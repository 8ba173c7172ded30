#include "codegen/interpreter/interpreted_procedure.h"

#include <xxhash.h>

#include <chrono>
#include <random>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/interpreter/sequence_names.h"
#include "codegen/runtime/error_context.h"
#include "codegen/runtime/frame.h"
#include "engine/types/errors.h"
#include "planner/plan/ir_visit.h"
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

// Seeds for calls' random() (planner/expr/random_draws.h): unpredictable and distinct,
// drawn at sequencing and logged with the input, so nothing needs to replay them.
uint64_t FreshRandomSeed() {
  struct SeedSource {
    uint64_t base = (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    uint64_t drawn = 0;
  };
  thread_local SeedSource source;
  const uint64_t n = source.drawn++;
  return XXH3_64bits_withSeed(&n, sizeof(n), source.base);
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

void InterpretedProcedure::FailDraw(planner::SqlError e, const planner::SequenceCall& call) const {
  // PL/pgSQL's CONTEXT of the statement (or DECLARE default) whose nextval() failed.
  if (call.local >= 0) {
    AddLocalsContext(e, *ir_, ir_->variables[static_cast<size_t>(call.local)]);
  } else {
    // The statement that reads the drawn value: the nextval() was hoisted out of it.
    const planner::Stmt* at = nullptr;
    planner::ForEachStmt(ir_->body, [&](const planner::Stmt& s) {
      if (at != nullptr) return;
      planner::ForEachOwnExpr(s, [&](const planner::Expr& x) {
        if (at == nullptr && planner::VariablesOf(&x).contains(call.variable)) at = &s;
      });
    });
    if (at != nullptr) AddStatementContext(e, *ir_, *at);
  }
  throw engine::DetailedError(e.sqlstate(), e.what(), e.detail(), e.hint(), e.context());
}

void InterpretedProcedure::Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const {
  if (ir_->sequence_calls.empty() && ir_->now_variable < 0 && ir_->random_seed_variable < 0) return;
  Frame frame = MakeFrame(*ir_, input);
  planner::EvalContext eval;
  eval.variables = frame.vars;
  for (const planner::SequenceCall& call : ir_->sequence_calls) {
    try {
      input.sequence_values.push_back(ctx.NextVal(SequenceEngineName(call, eval, catalog_)));
    } catch (const engine::EngineError& e) {
      FailDraw(planner::SqlError(e.sqlstate(), e.what()), call);
    } catch (const planner::SqlError& e) {
      FailDraw(e, call);
    }
  }
  // now() is drawn at sequencing too, so it is an input: the log replays the same value.
  if (ir_->now_variable >= 0) input.sequence_values.push_back(ctx.TransactionTimestamp().value_or(TimestampNow()));
  // So is random()'s seed, after it.
  if (ir_->random_seed_variable >= 0) input.sequence_values.push_back(static_cast<int64_t>(FreshRandomSeed()));
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
