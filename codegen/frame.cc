#include "codegen/frame.h"

#include <algorithm>
#include <memory>

#include "planner/cast.h"
#include "planner/expr_eval.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

using planner::Datum;

namespace {

// The parameters converted from the input, which Declare leaves for Execute.
struct DeclaredParameters {
  std::vector<Datum> values;
};

std::vector<Datum> ConvertParameters(const planner::ProcedureIr& ir, const TxnInput& input) {
  std::vector<Datum> values(static_cast<size_t>(ir.parameter_count));
  for (int i = 0; i < ir.parameter_count && i < static_cast<int>(input.args.size()); ++i)
    values[i] = planner::DatumFromValue(input.args[i], ir.variables[i].type);
  return values;
}

Frame FrameOf(const planner::ProcedureIr& ir, const TxnInput& input, std::vector<Datum> parameters,
              std::vector<Datum> buffer) {
  Frame frame;
  frame.vars = std::move(buffer);
  frame.vars.resize(std::max(ir.variables.size(), parameters.size()));
  for (Datum& d : frame.vars) planner::ResetDatum(d);
  for (size_t i = 0; i < parameters.size(); ++i) frame.vars[i] = std::move(parameters[i]);
  frame.vars.resize(ir.variables.size());
  for (size_t i = 0; i < ir.sequence_calls.size() && i < input.sequence_values.size(); ++i)
    frame.vars[ir.sequence_calls[i].variable] = Datum::Int(input.sequence_values[i]);
  // now(), when used, follows the sequence values (InterpretedProcedure::Sequence).
  if (ir.now_variable >= 0 && input.sequence_values.size() > ir.sequence_calls.size())
    frame.vars[ir.now_variable] = Datum::Timestamp(input.sequence_values[ir.sequence_calls.size()]);
  return frame;
}

}  // namespace

Frame MakeFrame(const planner::ProcedureIr& ir, const TxnInput& input) {
  return FrameOf(ir, input, ConvertParameters(ir, input), {});
}

Frame DeclareFrame(const planner::ProcedureIr& ir, DeclareContext& ctx, std::vector<Datum> buffer) {
  std::vector<Datum> parameters = ConvertParameters(ir, ctx.input());
  ctx.attempt_state() = DeclaredParameters{parameters};
  return FrameOf(ir, ctx.input(), std::move(parameters), std::move(buffer));
}

Frame ExecuteFrame(const planner::ProcedureIr& ir, ExecContext& ctx, std::vector<Datum> buffer) {
  if (auto* declared = std::any_cast<DeclaredParameters>(&ctx.attempt_state()))
    return FrameOf(ir, ctx.input(), std::move(declared->values), std::move(buffer));
  return FrameOf(ir, ctx.input(), ConvertParameters(ir, ctx.input()), std::move(buffer));
}

BorrowedBuffers::BorrowedBuffers(WorkerScratch& scratch, const void* owner) {
  std::any& slot = scratch.For(owner);
  if (!slot.has_value()) slot = std::make_shared<RunBuffers>();
  // Shared, not held by value, so that what a run borrows has a stable address.
  auto* held = std::any_cast<std::shared_ptr<RunBuffers>>(&slot);
  if (held == nullptr || *held == nullptr) return;  // another owner's object: run unbuffered
  home_ = held->get();
  buffers_ = std::move(*home_);
  *home_ = RunBuffers();
}

BorrowedBuffers::~BorrowedBuffers() {
  if (home_ == nullptr) return;
  buffers_.vars = std::move(frame_.vars);
  *home_ = std::move(buffers_);
}

void InitializeLocals(const planner::ProcedureIr& ir, Frame& frame) {
  planner::EvalContext ctx;
  ctx.variables = frame.vars;
  for (size_t i = 0; i < ir.variables.size(); ++i) {
    const planner::Variable& v = ir.variables[i];
    if (v.kind != planner::VariableKind::kLocal || !v.default_value) continue;
    frame.vars[i] = planner::Eval(*v.default_value, ctx);
    if (v.not_null && frame.vars[i].is_null())
      throw planner::SqlError("22004", "null value cannot be assigned to variable \"" + v.name +
                                           "\" declared NOT NULL");
  }
}

}  // namespace caracal::codegen
