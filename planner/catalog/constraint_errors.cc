#include "planner/catalog/constraint_errors.h"

#include <fmt/format.h>

#include <vector>

#include "planner/expr/expr_eval.h"
#include "planner/expr/functions.h"

namespace caracal::planner {

namespace {

std::string RowText(const TableInfo& table, std::span<const Datum> row) {
  std::vector<std::optional<std::string>> values;
  for (size_t c = 0; c < row.size() && c < table.columns.size(); ++c)
    values.push_back(row[c].is_null() ? std::nullopt : std::optional(DatumToText(row[c], table.columns[c].type)));
  return FailingRow(values);
}

}  // namespace

SqlError NotNullViolation(const TableInfo& table, int column, std::span<const Datum> row) {
  return SqlError(sqlstate::kNotNullViolation,
                  fmt::format("null value in column \"{}\" of relation \"{}\" violates not-null constraint",
                              table.columns[static_cast<size_t>(column)].name, table.name))
      .WithDetail(RowText(table, row));
}

SqlError CheckViolation(const TableInfo& table, const std::string& constraint, std::span<const Datum> row) {
  return SqlError("23514", fmt::format("new row for relation \"{}\" violates check constraint \"{}\"", table.name, constraint))
      .WithDetail(RowText(table, row));
}

std::string KeyValuesText(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row) {
  std::string names, values;
  for (size_t i = 0; i < columns.size(); ++i) {
    const CatalogColumn& c = table.columns[static_cast<size_t>(columns[i])];
    names += (i ? ", " : "") + c.name;
    values += (i ? ", " : "") + DatumToText(row[static_cast<size_t>(columns[i])], c.type);
  }
  return fmt::format("({})=({})", names, values);
}

std::string DuplicateKeyDetail(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row) {
  return fmt::format("Key {} already exists.", KeyValuesText(table, columns, row));
}

SqlError UniqueViolation(const TableInfo& table, const std::string& constraint, std::span<const int> columns,
                         std::span<const Datum> row) {
  return SqlError(sqlstate::kUniqueViolation, fmt::format("duplicate key value violates unique constraint \"{}\"", constraint))
      .WithDetail(DuplicateKeyDetail(table, columns, row));
}

SqlError ForeignKeyMissing(const TableInfo& table, const ForeignKey& key, std::span<const Datum> row) {
  return SqlError(sqlstate::kForeignKeyViolation,
                  fmt::format("insert or update on table \"{}\" violates foreign key constraint \"{}\"", table.name,
                              key.name))
      .WithDetail(fmt::format("Key {} is not present in table \"{}\".", KeyValuesText(table, key.columns, row),
                              key.referenced_table));
}

SqlError ForeignKeyStillReferenced(const TableInfo& table, const ReferencingKey& referencing, std::span<const Datum> row) {
  return SqlError(sqlstate::kForeignKeyViolation,
                  fmt::format("update or delete on table \"{}\" violates foreign key constraint \"{}\" on table \"{}\"",
                              table.name, referencing.key->name, referencing.table->name))
      .WithDetail(fmt::format("Key {} is still referenced from table \"{}\".",
                              KeyValuesText(table, referencing.key->referenced_columns, row), referencing.table->name));
}

SqlError PrimaryKeyViolation(const TableInfo& table, std::span<const Datum> row) {
  return UniqueViolation(table, table.PrimaryKeyName(), table.primary_key, row);
}

void EnforceConstraints(const TableInfo& table, const engine::Schema& schema, const engine::RowValue& built,
                        std::span<const Datum> row) {
  for (size_t c = 0; c < table.columns.size(); ++c)
    if (table.columns[c].not_null && row[c].is_null()) throw NotNullViolation(table, static_cast<int>(c), row);
  if (table.checks.empty()) return;
  EvalContext ctx;
  ctx.row = &built;
  ctx.schema = &schema;
  for (const CheckConstraint& check : table.checks) {
    Datum ok = Eval(*check.expr, ctx);
    if (!ok.is_null() && !ok.as_bool()) throw CheckViolation(table, check.name, row);
  }
}

}  // namespace caracal::planner
