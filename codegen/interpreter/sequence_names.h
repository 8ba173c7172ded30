// The sequence a nextval() call names: its name evaluated over the frame, looked up in the
// catalog, with PostgreSQL's errors. Shared by every place that draws a value: at
// sequencing (InterpretedProcedure::Sequence), as a serial procedure's statement starts
// (ProcedureInterpreter::DrawSequences) and as a called function starts (routine_call.cc).
#pragma once

#include <string>

#include "planner/catalog/catalog.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

// The engine name of the sequence `call` draws from. Throws SqlError: 22004 for a NULL
// name, 42P01 for a name no sequence has.
const std::string& SequenceEngineName(const planner::SequenceCall& call, const planner::EvalContext& ctx,
                                      const planner::Catalog& catalog);

}  // namespace caracal::codegen
