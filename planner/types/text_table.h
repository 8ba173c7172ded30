// TextTable: a table of text cells with a title and footers, the form in which catalog
// descriptions (planner/exec/describe.h) reach the shell's printer.
#pragma once

#include <string>
#include <vector>

namespace caracal::planner {

// A titled table whose cells are already text (NULLs already replaced by the caller):
// what describing the catalog (\d and friends) produces and the shell prints.
struct TextTable {
  std::string title;                          // printed above (aligned) unless tuples_only
  std::vector<std::string> headers;
  std::vector<bool> right_aligned;            // per column (numbers)
  std::vector<std::vector<std::string>> rows;
  // Footers replace the default "(N rows)" (e.g. \d's "Indexes:" lines); `default_footer`
  // false suppresses the row count when there are none.
  std::vector<std::string> footers;
  bool default_footer = true;
};

}  // namespace caracal::planner
