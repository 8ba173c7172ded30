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

// MakeFrame, converting the arguments once per attempt: Declare leaves a copy of the
// converted parameters in the attempt state (arrays are shared, not copied) and Execute
// takes them from there, or converts them itself when there are none.
Frame DeclareFrame(const planner::ProcedureIr& ir, DeclareContext& ctx);
Frame ExecuteFrame(const planner::ProcedureIr& ir, ExecContext& ctx);

// Evaluates the DECLARE defaults of the locals, in declaration order, and enforces
// NOT NULL declarations (22004, as PL/pgSQL).
void InitializeLocals(const planner::ProcedureIr& ir, Frame& frame);

}  // namespace caracal::codegen
