#include "planner/exec/create_table_as.h"

#include <fmt/format.h>

#include <string_view>

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

std::string CreateTableAsDefinition(const PgQuery__SelectStmt* query, const PgQuery__IntoClause* into,
                                    const Catalog& catalog, const TableRowEstimator& estimate) {
  const PgQuery__RangeVar* rel = into->rel;
  if (rel->relpersistence && std::string_view(rel->relpersistence) == "t") throw NotSupported("temporary tables");
  if (rel->schemaname && *rel->schemaname && std::string_view(rel->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rel->schemaname));
  QueryPlan plan = PlanQuery(query, catalog, estimate);
  if (into->n_col_names > plan.columns.size())
    throw SqlError(sqlstate::kSyntaxError, "too many column names were specified");
  std::string columns;
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    const std::string name = c < into->n_col_names ? StringValue(into->col_names[c]) : plan.columns[c].name;
    columns += fmt::format("{}{} {}", c ? ", " : "", QuotedIdentifier(name), plan.columns[c].type.Name());
  }
  return fmt::format("CREATE TABLE {} ({})", QuotedIdentifier(rel->relname), columns);
}

}  // namespace caracal::planner
