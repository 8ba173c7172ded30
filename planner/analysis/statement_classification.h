// The write-set analysis's third pass: every table statement's access, key class, key
// text, ApplyRowUpdate candidacy and the index entries it cannot name in advance.
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

class Taint;

void ClassifyStatements(ProcedureIr& ir, const Taint& taint, const Catalog& catalog);

}  // namespace caracal::planner
