// The write-set analysis's fifth pass: where a procedure publishes its writes. Writes
// before the last point at which it can still abort are held back and published
// together; writes after it are published at once (early write visibility).
#pragma once

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// The publish point goes after the last top-level statement that can fail, and late
// enough that no row is written twice after it.
void PlacePublish(ProcedureIr& ir);

}  // namespace caracal::planner
