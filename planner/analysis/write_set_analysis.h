// Write-set analysis of a bound procedure: annotates a ProcedureIr
// that the PL/pgSQL binder produced with what codegen/ needs to run it on the engine:
//   * `sequence_calls` (nextval() hoisted to sequencing time, rewritten into kSequence
//     slots), `now_variable` and `random_seed_variable` (random()'s draw sites numbered);
//   * per table statement, an AccessInfo (access, key class, key expression, ApplyRowUpdate
//     candidacy and weight, note);
//   * `init`: the init program (kDeclare / kReconRead plus the slice of the body that
//     computes their keys);
//   * a kPublish statement after the last statement that can abort.
// It rejects what cannot run deterministically (setseed(), clock_timestamp(), ...) with a
// SqlError naming the call and its line.
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// Throws SqlError; on error `ir` is left unusable (the caller discards it).
void AnalyzeProcedure(ProcedureIr& ir, const Catalog& catalog);

}  // namespace caracal::planner
