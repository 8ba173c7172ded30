#include "codegen/frame.h"

#include "planner/cast.h"
#include "planner/expr_eval.h"
#include "planner/ir_visit.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

using planner::Datum;

namespace {

// What Declare leaves for Execute: the converted parameters, or the whole frame.
struct DeclaredFrame {
  std::vector<Datum> vars;
  bool whole = false;
};

// Whether the init program may assign a parameter (then Execute needs the parameters as
// converted, not as the init program left them).
bool InitWritesParameters(const planner::ProcedureIr& ir) {
  auto parameter = [&](int slot) { return slot >= 0 && slot < ir.parameter_count; };
  bool writes = false;
  planner::ForEachStmt(ir.init, [&](const planner::Stmt& s) {
    writes |= parameter(s.target);
    for (int slot : s.into) writes |= parameter(slot);
    if (s.kind != planner::StmtKind::kReconRead) return;
    const planner::Stmt* read = nullptr;
    for (const planner::Stmt* t : ir.table_statements)
      if (t->id == s.target_stmt) read = t;
    if (read == nullptr) writes = true;
    else
      for (int slot : read->into) writes |= parameter(slot);
  });
  return writes;
}

std::vector<Datum> ConvertParameters(const planner::ProcedureIr& ir, const TxnInput& input) {
  std::vector<Datum> values(static_cast<size_t>(ir.parameter_count));
  for (int i = 0; i < ir.parameter_count && i < static_cast<int>(input.args.size()); ++i)
    values[i] = planner::DatumFromValue(input.args[i], ir.variables[i].type);
  return values;
}

Frame FrameOf(const planner::ProcedureIr& ir, const TxnInput& input, std::vector<Datum> parameters) {
  Frame frame;
  frame.vars = std::move(parameters);
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
  return FrameOf(ir, input, ConvertParameters(ir, input));
}

FramePassing::FramePassing(const planner::ProcedureIr& ir) : ir_(ir), init_writes_parameters_(InitWritesParameters(ir)) {}

Frame FramePassing::DeclareFrame(DeclareContext& ctx) const {
  std::vector<Datum> parameters = ConvertParameters(ir_, ctx.input());
  if (init_writes_parameters_) ctx.attempt_state() = DeclaredFrame{parameters, false};
  else ctx.attempt_state().reset();
  return FrameOf(ir_, ctx.input(), std::move(parameters));
}

void FramePassing::KeepForExecute(DeclareContext& ctx, Frame& frame) const {
  if (!init_writes_parameters_) ctx.attempt_state() = DeclaredFrame{std::move(frame.vars), true};
}

Frame FramePassing::ExecuteFrame(ExecContext& ctx) const {
  auto* declared = std::any_cast<DeclaredFrame>(&ctx.attempt_state());
  if (declared == nullptr) return MakeFrame(ir_, ctx.input());
  std::vector<Datum> vars = std::move(declared->vars);
  const bool whole = declared->whole;
  ctx.attempt_state().reset();  // taken: a second Execute of this attempt converts again
  if (whole)
    for (size_t i = static_cast<size_t>(ir_.parameter_count); i < vars.size(); ++i) vars[i].kind = Datum::Kind::kNull;
  return FrameOf(ir_, ctx.input(), std::move(vars));
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
