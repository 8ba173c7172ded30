#include "codegen/runtime/frame.h"

#include <algorithm>
#include <memory>

#include "codegen/runtime/error_context.h"
#include "planner/analysis/routine_calls.h"
#include "planner/types/cast.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;

Frame MakeFrame(const planner::ProcedureIr& ir, const engine::TxnInput& input, std::vector<Datum> buffer,
                const std::vector<bool>* parameters_read) {
  Frame frame;
  frame.vars = std::move(buffer);
  frame.vars.resize(ir.variables.size());
  const size_t parameters = std::min({static_cast<size_t>(ir.parameter_count), input.args.size(), frame.vars.size()});
  // Everything else first: a local may still share a parameter's array from the last run,
  // and the parameter rewrites that array in place only once it is its only holder.
  // NULL is the kind alone (a NULL Datum's other fields mean nothing, as CopyDatum
  // leaves them); an array is let go so that the parameter's count drops.
  for (size_t i = parameters; i < frame.vars.size(); ++i) {
    Datum& d = frame.vars[i];
    d.kind = Datum::Kind::kNull;
    if (d.array) d.array.reset();
  }
  // PL/pgSQL's FOUND starts false, and ROW_COUNT 0.
  if (ir.found_variable >= 0) frame.vars[ir.found_variable] = Datum::Bool(false);
  if (ir.row_count_variable >= 0) frame.vars[ir.row_count_variable] = Datum::Int(0);
  for (size_t i = 0; i < parameters; ++i) {
    if (parameters_read != nullptr && !(*parameters_read)[i]) {
      frame.vars[i].kind = Datum::Kind::kNull;
      continue;
    }
    planner::AssignFromValue(frame.vars[i], input.args[i], ir.variables[i].type);
  }
  for (size_t i = 0; i < ir.sequence_calls.size() && i < input.sequence_values.size(); ++i)
    frame.vars[ir.sequence_calls[i].variable] = Datum::Int(input.sequence_values[i]);
  // now(), when used, follows the sequence values (InterpretedProcedure::Sequence).
  size_t drawn = ir.sequence_calls.size();
  if (ir.now_variable >= 0 && input.sequence_values.size() > drawn)
    frame.vars[ir.now_variable] = Datum::Timestamp(input.sequence_values[drawn++]);
  // random()'s seed follows (an input logged before procedures drew one holds none).
  if (ir.random_seed_variable >= 0 && input.sequence_values.size() > drawn)
    frame.vars[ir.random_seed_variable] = Datum::Int(input.sequence_values[drawn]);
  return frame;
}

BorrowedBuffers::BorrowedBuffers(engine::WorkerScratch& scratch, const void* owner, int parameters)
    : parameters_(parameters) {
  std::any& slot = scratch.For(owner);
  if (!slot.has_value()) slot = std::make_shared<RunBuffers>();
  // Shared, not held by value, so that what a run borrows has a stable address and
  // outlives the entry (WorkerScratch may drop it).
  auto* held = std::any_cast<std::shared_ptr<RunBuffers>>(&slot);
  if (held == nullptr || *held == nullptr || (*held)->in_use) return;  // run on buffers of its own
  lent_ = *held;
  buffers_ = lent_.get();
  buffers_->in_use = true;
}

namespace {

// Drops the arrays that scratch Datums still share: a temp that boxed an array argument
// (array_length(p, 1), FOREACH's held copy) would otherwise keep the parameter's elements
// alive until the next run, whose MakeFrame could then not rewrite them in place and
// would allocate a new array for every transaction.
void ReleaseArrays(std::vector<Datum>& datums) {
  for (Datum& d : datums)
    if (d.kind == Datum::Kind::kArray) planner::ResetDatum(d);
}

// Whether one of the first `parameters` variables (-1: all) holds an array that
// something else holds too.
bool ParameterArrayShared(const std::vector<Datum>& vars, int parameters) {
  const size_t n = parameters < 0 ? vars.size() : std::min(vars.size(), static_cast<size_t>(parameters));
  for (size_t i = 0; i < n; ++i)
    if (vars[i].kind == Datum::Kind::kArray && vars[i].array.use_count() > 1) return true;
  return false;
}

}  // namespace

BorrowedBuffers::~BorrowedBuffers() {
  if (buffers_ == &own_) return;
  // Only when a parameter's array is shared: walking every temp after every run cost
  // more (their cache lines) than the rare case it is for (FOREACH over a parameter).
  if (ParameterArrayShared(frame_.vars, parameters_)) {
    ReleaseArrays(buffers_->temps);
    ReleaseArrays(buffers_->body_temps);
  }
  buffers_->vars = std::move(frame_.vars);
  buffers_->in_use = false;
}

void InitializeLocals(const planner::ProcedureIr& ir, Frame& frame, const planner::RoutineRunner* routines, bool for_init) {
  planner::EvalContext ctx;
  ctx.variables = frame.vars;
  ctx.routines = routines;
  for (size_t i = 0; i < ir.variables.size(); ++i) {
    const planner::Variable& v = ir.variables[i];
    if (v.kind != planner::VariableKind::kLocal || !v.default_value) continue;
    if (for_init && v.default_value->Contains(planner::ExprKind::kRoutineCall) && planner::CallsTableRoutine(*v.default_value))
      continue;
    try {
      frame.vars[i] = planner::Eval(*v.default_value, ctx);
      if (v.not_null && frame.vars[i].is_null())
        throw planner::SqlError("22004", "null value cannot be assigned to variable \"" + v.name +
                                             "\" declared NOT NULL");
    } catch (planner::SqlError& e) {
      AddLocalsContext(e, ir, v);
      throw;
    }
  }
}

}  // namespace caracal::codegen
