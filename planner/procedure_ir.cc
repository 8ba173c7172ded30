#include "planner/procedure_ir.h"

#include <fmt/format.h>

namespace caracal::planner {

std::string ProcedureIr::Signature() const {
  std::string text = name + "(";
  for (int i = 0; i < parameter_count; ++i) text += (i ? ", " : "") + variables[i].type.Name();
  return text + ")";
}

}  // namespace caracal::planner
