// The write-set analysis's fourth pass: the init program, the slice of the body that
// computes keys, with kDeclare statements for the writes and kReconRead for the reads
// reconnaissance needs.
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

class Taint;

void BuildInitProgram(ProcedureIr& ir, const Taint& taint);

}  // namespace caracal::planner
