// psql's presentation of statement results: result sets as PrintTables (NULL display,
// numbers right-aligned), and errors and notices laid out as libpq does (severity,
// "LINE n:" with a caret under the position, DETAIL, HINT, CONTEXT), at each of psql's
// VERBOSITY levels.
#pragma once

#include <string>

#include "frontend/shell/table_printer.h"
#include "frontend/session/session.h"
#include "frontend/shell/shell_variables.h"
#include "planner/types/result_set.h"

namespace caracal::frontend {

// A query result as a table: NULLs shown as `options.null_display`, numeric columns
// right-aligned.
planner::TextTable TableFromResult(const planner::ResultSet& result, const PrintOptions& options);

// Formats an error as libpq does for `verbosity` ("ERROR:  msg", "LINE n: ..." and the
// caret, then DETAIL, HINT and, unless `show_context` is never, CONTEXT).
// `location_prefix` is psql's "psql:FILE:LINE: " for messages from a script file.
std::string FormatError(const ErrorReport& error, const std::string& location_prefix,
                        Verbosity verbosity = Verbosity::kDefault, ShowContext show_context = ShowContext::kErrors);

// A NOTICE as psql prints it ("NOTICE:  msg").
std::string FormatNotice(const std::string& message, const std::string& location_prefix);

}  // namespace caracal::frontend
