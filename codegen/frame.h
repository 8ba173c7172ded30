// Frame: the variables of one running procedure (ProcedureIr::variables), as Datums,
// plus what the statements of its body share while it runs. The interpreter and the JIT'd
// code read and write the same frame, so the two can be mixed statement by statement.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/procedure.h"
#include "planner/datum.h"
#include "planner/procedure_ir.h"

namespace caracal::codegen {

struct Frame {
  std::vector<planner::Datum> vars;
  int64_t now_us = 0;  // now(): the transaction's epoch timestamp

  planner::Datum& var(int slot) { return vars[static_cast<size_t>(slot)]; }
};

// A frame for `ir` from a transaction's input: parameters from the arguments (cast to the
// parameter types), sequence slots from the values drawn at sequencing, everything else
// NULL. DECLARE defaults are not evaluated here (see InitializeLocals).
Frame MakeFrame(const planner::ProcedureIr& ir, const TxnInput& input);

// Passes a frame from Declare to Execute through the attempt state, so the arguments are
// converted once per attempt. When the init program assigns no parameter, Declare's whole
// frame is kept and Execute only resets the locals to NULL (their string buffers stay,
// so reading rows into them does not allocate); otherwise Declare keeps a copy of the
// converted parameters (arrays are shared, not copied). Execute converts the arguments
// itself when Declare left nothing (EXPLAIN CALL, replay, an init program that failed).
class FramePassing {
 public:
  explicit FramePassing(const planner::ProcedureIr& ir);

  Frame DeclareFrame(DeclareContext& ctx) const;
  // After the init program ran to its end on `frame`.
  void KeepForExecute(DeclareContext& ctx, Frame& frame) const;
  Frame ExecuteFrame(ExecContext& ctx) const;

 private:
  const planner::ProcedureIr& ir_;
  bool init_writes_parameters_;
};

// Evaluates the DECLARE defaults of the locals, in declaration order, and enforces
// NOT NULL declarations (22004, as PL/pgSQL).
void InitializeLocals(const planner::ProcedureIr& ir, Frame& frame);

}  // namespace caracal::codegen
