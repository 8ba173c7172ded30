#include "planner/procedure_ir.h"

#include <fmt/format.h>

namespace caracal::planner {

std::string ProcedureIr::Signature() const { return name + "(" + ArgumentTypes() + ")"; }

std::string ProcedureIr::ArgumentTypes() const {
  std::string text;
  for (int i = 0; i < parameter_count; ++i) text += (i ? ", " : "") + variables[i].type.Name();
  return text;
}

}  // namespace caracal::planner
