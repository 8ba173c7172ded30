// The terminal input of the interactive shell: libedit (BSD editline) for line editing,
// history in ~/.caracal_history (or $CARACAL_HISTORY, or the HISTFILE variable; HISTSIZE
// and HISTCONTROL as psql reads them), Tab completion, and Ctrl-C that abandons the line
// being typed. Without libedit (-n) a plain prompt-and-read source does the same minus
// editing.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/shell/line_source.h"
#include "frontend/shell/shell_variables.h"

namespace caracal::frontend {

// Completion: given the statement text up to the cursor (earlier lines of the statement
// included), the candidates for the word being typed.
using Completer = std::function<std::vector<std::string>(const std::string& text_before_cursor)>;

// `variables` supplies HISTFILE / HISTSIZE / HISTCONTROL; it must outlive the editor.
std::unique_ptr<LineSource> MakeLineEditor(const ShellVariables& variables, Completer completer, bool use_libedit);

// The history file: HISTFILE if set, else $CARACAL_HISTORY, else ~/.caracal_history.
std::string HistoryFile(const ShellVariables& variables);

}  // namespace caracal::frontend
