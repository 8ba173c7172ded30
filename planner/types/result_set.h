// ResultSet: what a query hands back to a client: column names and types, and rows
// already in PostgreSQL's text format (nullopt = NULL).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "planner/types/sql_type.h"

namespace caracal::planner {

struct ResultColumn {
  std::string name;
  SqlType type;
};

struct ResultSet {
  std::vector<ResultColumn> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

}  // namespace caracal::planner
