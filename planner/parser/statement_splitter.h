// Splitting a script into statements the way psql does before sending each one:
// leading whitespace and "--" comments dropped, the terminating ';' kept, and the line
// on which each statement ends remembered (psql reports "psql:FILE:LINE:" with it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace caracal::planner {

struct ScriptStatement {
  std::string text;
  int end_line = 1;
};

std::vector<ScriptStatement> SplitScript(std::string_view script);

}  // namespace caracal::planner
