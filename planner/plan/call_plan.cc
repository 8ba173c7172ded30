#include "planner/plan/call_plan.h"

namespace caracal::planner {

std::string RecordText(const std::vector<std::optional<std::string>>& fields) {
  std::string out = "(";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    if (!fields[i]) continue;
    const std::string& f = *fields[i];
    bool quote = f.empty();
    for (char c : f) quote |= c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || isspace(static_cast<unsigned char>(c));
    if (!quote) {
      out += f;
      continue;
    }
    out += '"';
    for (char c : f) {
      if (c == '"' || c == '\\') out += c;
      out += c;
    }
    out += '"';
  }
  return out + ")";
}

}  // namespace caracal::planner
