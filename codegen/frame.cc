#include "codegen/frame.h"

#include "planner/cast.h"
#include "planner/expr_eval.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

using planner::Datum;

Frame MakeFrame(const planner::ProcedureIr& ir, const TxnInput& input) {
  Frame frame;
  frame.vars.resize(ir.variables.size());
  for (int i = 0; i < ir.parameter_count && i < static_cast<int>(input.args.size()); ++i)
    frame.vars[i] = planner::DatumFromValue(input.args[i], ir.variables[i].type);
  for (size_t i = 0; i < ir.sequence_calls.size() && i < input.sequence_values.size(); ++i)
    frame.vars[ir.sequence_calls[i].variable] = Datum::Int(input.sequence_values[i]);
  // now(), when used, follows the sequence values (InterpretedProcedure::Sequence).
  if (ir.now_variable >= 0 && input.sequence_values.size() > ir.sequence_calls.size())
    frame.vars[ir.now_variable] = Datum::Timestamp(input.sequence_values[ir.sequence_calls.size()]);
  return frame;
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
