// PLACEHOLDER until the write-set analysis lands (issue #4): it annotates nothing, so a
// procedure declares no writes. Replaced wholesale by the analysis.
#include "planner/write_set_analysis.h"

namespace caracal::planner {

void AnalyzeProcedure(ProcedureIr&, const Catalog&) {}

}  // namespace caracal::planner
