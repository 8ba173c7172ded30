// The `$n` parameter references of a statement's text, as the extended protocol's
// Parse and PREPARE see them.
#pragma once

#include <string>
#include <vector>

namespace caracal::planner {

struct ParameterSlot {
  int number;  // n of $n
  int start;   // byte range of "$n" in the text
  int end;
};

// The `$n` tokens of `text` (found by libpg_query's scanner, so `'$1'` in a string or a
// comment is not one). Throws SyntaxError if the text does not scan.
std::vector<ParameterSlot> FindParameters(const std::string& text);

}  // namespace caracal::planner
