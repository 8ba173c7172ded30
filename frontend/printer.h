// psql-compatible printing of statement results and errors, so a script's output can be
// compared line by line with `psql -X` running the same script on PostgreSQL.
#pragma once

#include <ostream>
#include <string>

#include "frontend/session.h"

namespace caracal::frontend {

struct PrintOptions {
  bool unaligned = false;    // -A
  bool tuples_only = false;  // -t: no header, no footer
  bool quiet = false;        // -q: no command tags
  std::string field_separator = "|";  // -F (unaligned mode)
};

// Prints one successful result (rows, or the command tag) to `out`, notices to `err`.
// `location_prefix` is psql's "psql:FILE:LINE: " for messages from a script file.
void PrintResult(const StatementResult& result, const PrintOptions& options, std::ostream& out, std::ostream& err,
                 const std::string& location_prefix);

// Formats an error as libpq does: "ERROR:  msg", "LINE n: ..." and the caret,
// then DETAIL, HINT and CONTEXT lines.
std::string FormatError(const ErrorReport& error, const std::string& location_prefix);

}  // namespace caracal::frontend
