// psql's presentation of statement results: result sets as PrintTables (NULL display,
// numbers right-aligned), and errors and notices laid out as libpq does (severity,
// "LINE n:" with a caret under the position, DETAIL, HINT, CONTEXT), at each of psql's
// VERBOSITY levels.
#pragma once

#include <string>

#include "frontend/print_table.h"
#include "frontend/session.h"
#include "frontend/shell_variables.h"
#include "planner/result_set.h"

namespace caracal::frontend {

// A query result as a table: NULLs shown as `options.null_display`, numeric columns
// right-aligned.
PrintTable TableFromResult(const planner::ResultSet& result, const PrintOptions& options);

// Formats an error as libpq does for `verbosity` ("ERROR:  msg", "LINE n: ..." and the
// caret, then DETAIL, HINT and, unless `show_context` is never, CONTEXT).
// `location_prefix` is psql's "psql:FILE:LINE: " for messages from a script file.
std::string FormatError(const ErrorReport& error, const std::string& location_prefix,
                        Verbosity verbosity = Verbosity::kDefault, ShowContext show_context = ShowContext::kErrors);

// A NOTICE as psql prints it ("NOTICE:  msg").
std::string FormatNotice(const std::string& message, const std::string& location_prefix);

}  // namespace caracal::frontend
