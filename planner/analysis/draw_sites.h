// The write-set analysis's first pass: numbers the draw sites of a procedure (its
// random() calls and its user-function calls, RandomDraws in expr/random_draws.h) and,
// when the body or a function it calls draws, adds the seed variable the call's input
// fills at sequencing.
#pragma once

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

void NumberDrawSites(ProcedureIr& ir);

}  // namespace caracal::planner
