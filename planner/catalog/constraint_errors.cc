#include "planner/catalog/constraint_errors.h"

#include <fmt/format.h>

namespace caracal::planner {

SqlError NotNullViolation(const TableInfo& table, int column, std::span<const Datum> row) {
  std::string shown;
  for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c) {
    if (c > 0) shown += ", ";
    shown += row[c].is_null() ? std::string("null") : DatumToText(row[c], table.columns[c].type);
  }
  return SqlError(sqlstate::kNotNullViolation,
                  fmt::format("null value in column \"{}\" of relation \"{}\" violates not-null constraint",
                              table.columns[static_cast<size_t>(column)].name, table.name))
      .WithDetail(fmt::format("Failing row contains ({}).", shown));
}

}  // namespace caracal::planner
