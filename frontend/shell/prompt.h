// psql's prompts (PROMPT1 / PROMPT2 / PROMPT3 with %-escapes): the default
// '%/%R%x%# ' gives "caracal=> ", "caracal-> ", "caracal'> ", "caracal$> ", ...
#pragma once

#include <string>

#include "frontend/shell/input_scanner.h"
#include "frontend/shell/shell_variables.h"

namespace caracal::frontend {

struct PromptContext {
  PromptStatus status = PromptStatus::kReady;
  bool inactive_branch = false;  // inside a false \if branch: '@'
  bool in_pipeline = false;      // between \startpipeline and \endpipeline: %P shows "on"
  int line_number = 1;           // %l: line of the current statement
  char transaction = 'I';        // %x: the session's block, as ReadyForQuery says it (I, T, E)
};

// Expands psql's escapes: %/ %~ (database), %M %m (host), %> (port), %n (user), %#
// ('>'), %p (process id), %R (status), %x (transaction status: empty, '*' in a block, '!' in a failed one), %P (pipeline
// status: on / off), %l, %%,
// %:name: (a variable), %0NNN (octal), %`cmd` (a command's output), %[ %] (dropped).
std::string ExpandPrompt(const std::string& format, const PromptContext& context, const ShellVariables& variables);

}  // namespace caracal::frontend
