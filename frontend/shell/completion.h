// Tab completion for the interactive shell, in the spirit of psql's tab-complete.c:
// meta-commands after '\', variables after ':', SQL keywords at the start of a statement
// and after CREATE / DROP / EXPLAIN / ..., tables after FROM / INTO / UPDATE / TABLE /
// COPY, procedures after CALL and EXPLAIN PROCEDURE, columns of the statement's tables
// after SELECT / WHERE / SET / BY / '(', settings after SET / SHOW / RESET, file names
// after \i, \o, \w and \copy ... FROM. Keywords follow COMP_KEYWORD_CASE.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace caracal::frontend {

// What completion can offer; the shell fills it from the catalog, settings and variables.
struct CompletionSources {
  std::vector<std::string> tables;
  std::vector<std::string> indexes;
  std::vector<std::string> sequences;
  std::vector<std::string> procedures;
  std::map<std::string, std::vector<std::string>> columns;  // table -> its columns
  std::vector<std::string> settings;
  std::vector<std::string> boolean_settings;
  std::vector<std::string> variables;
  std::string keyword_case = "preserve-upper";  // COMP_KEYWORD_CASE
};

// The candidates (whole words, to replace the word before the cursor) for `text`: the
// statement typed so far up to the cursor. Sorted, without duplicates.
std::vector<std::string> Complete(const std::string& text, const CompletionSources& sources);

// The backslash commands completion offers (with their backslash).
const std::vector<std::string>& MetaCommandNames();

}  // namespace caracal::frontend
