// WireResult: one statement's outcome as a connection sends it: the columns with their
// PostgreSQL type OIDs, rows in text format, the command tag, NOTICEs/WARNINGs, an
// error, and the reported parameters (ParameterStatus) the statement changed.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/session/session.h"
#include "planner/types/result_set.h"
#include "server/protocol.h"

namespace caracal::server {

struct WireColumn {
  std::string name;
  int32_t type_oid = 25;
  int32_t type_modifier = -1;
};

struct WireResult {
  std::string tag;
  std::optional<std::vector<WireColumn>> columns;  // set: the statement returns rows
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::optional<std::string> copy_out;  // COPY ... TO STDOUT's data
  std::vector<ErrorFields> notices;
  std::optional<ErrorFields> error;
  std::vector<std::pair<std::string, std::string>> parameter_status;
};

std::vector<WireColumn> WireColumns(const std::vector<planner::ResultColumn>& columns);
// A session's result: rows keep their text, types become OIDs, "WARNING:..." notices
// (the session's convention) become warnings.
WireResult FromStatementResult(frontend::StatementResult&& result);
// The current exception (SqlError, SyntaxError, anything) as an error result whose
// position refers to `query`.
WireResult FromCurrentException(const std::string& query);
ErrorFields ErrorFromReport(const frontend::ErrorReport& report);

// A result of text columns, for answers made up here (catalog emulation, SHOW).
WireResult TextRows(std::vector<std::string> names, std::vector<std::vector<std::optional<std::string>>> rows,
                    std::string tag = "");

}  // namespace caracal::server
