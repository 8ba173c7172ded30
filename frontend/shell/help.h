// The shell's help texts: \? (meta-commands, command-line options, special variables),
// `caracal --help`, and \h (the SQL statements caracal runs, with their syntax).
#pragma once

#include <string>

namespace caracal::frontend {

std::string MetaCommandHelp();
std::string OptionsHelp();
std::string VariablesHelp();
// \h with no topic: the list of statements; with one: its syntax, or "No help available".
std::string SqlHelp(const std::string& topic);

}  // namespace caracal::frontend
