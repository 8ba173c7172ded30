// The write-set analysis's first pass: nextval() calls that provably run once per call
// are drawn at sequencing time (the paper's "FastIds"), so keys built from them are known inputs.
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

class Taint;

void HoistSequenceCalls(ProcedureIr& ir);

}  // namespace caracal::planner
