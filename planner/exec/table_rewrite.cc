#include "planner/exec/table_rewrite.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "engine/storage/database.h"
#include "engine/types/key.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

std::vector<engine::RowValuePtr> RewriteRows(Catalog& catalog, const TableInfo& old, const TableInfo& table,
                                             std::span<const ColumnOrigin> origins) {
  engine::Database& db = catalog.database();
  const engine::Schema& old_schema = db.schema(old.id);
  const engine::Schema schema = Catalog::EngineSchema(table);
  const size_t n = table.columns.size();
  std::vector<engine::RowValuePtr> rows;
  std::vector<std::pair<engine::Key, size_t>> keys;  // each row's primary key, and the row
  std::vector<Datum> datums(n);
  std::vector<engine::Value> values;
  std::vector<engine::Value> key_values;
  // ADD PRIMARY KEY: as PostgreSQL, duplicates are found before NULLs in its columns.
  const bool new_key = old.HasRowIdentity() && !table.HasRowIdentity();
  std::optional<SqlError> null_key;
  engine::Snapshot snapshot(db);
  snapshot.Scan(old.id, engine::Key(), engine::Key(), [&](const engine::Key&, const engine::RowValue& row) {
    bool null_in_key = false;
    EvalContext old_row;
    old_row.row = &row;
    old_row.schema = &old_schema;
    values.clear();
    for (size_t c = 0; c < n; ++c) {
      const ColumnOrigin& origin = origins[c];
      if (origin.convert) datums[c] = Eval(*origin.convert, old_row);
      else if (origin.old_column >= 0)
        DatumFromRowInto(row, origin.old_column, old_schema.column(origin.old_column), datums[c]);
      else datums[c] = origin.fill;
      const CatalogColumn& col = table.columns[c];
      if (datums[c].is_null() && col.not_null) {
        SqlError e(sqlstate::kNotNullViolation,
                   fmt::format("column \"{}\" of relation \"{}\" contains null values", col.name, table.name));
        // A new primary key's columns are found NULL only after its index is built.
        if (!new_key || std::ranges::find(table.primary_key, static_cast<int>(c)) == table.primary_key.end()) throw e;
        if (!null_key) null_key = std::move(e);
        null_in_key = true;
      }
      values.push_back(DatumToColumnValue(datums[c], col.type));
    }
    if (table.HasRowIdentity()) {
      // Kept: nothing else names the row.
      const int at = static_cast<int>(old.columns.size());
      values.push_back(engine::Value::Int(row.GetInt(at)));
      values.push_back(engine::Value::Int(row.GetInt(at + 1)));
    }
    if (null_in_key) return true;  // fails after the duplicate check
    engine::RowValuePtr built = engine::MakeRow(schema, values);
    EvalContext new_row;
    new_row.row = built.get();
    new_row.schema = &schema;
    for (const CheckConstraint& check : table.checks) {
      Datum ok = Eval(*check.expr, new_row);
      if (!ok.is_null() && !ok.as_bool())
        throw SqlError("23514",
                       fmt::format("check constraint \"{}\" of relation \"{}\" is violated by some row", check.name,
                                   table.name));
    }
    if (!table.HasRowIdentity()) {
      key_values.clear();
      for (int c : schema.primary_key()) key_values.push_back(values[static_cast<size_t>(c)]);
      keys.emplace_back(engine::EncodePrimaryKey(schema, key_values), rows.size());
    }
    rows.push_back(std::move(built));
    return true;
  });
  // As PostgreSQL builds the key's index once every row is in: the smallest duplicated
  // key is the one named (PostgreSQL names the first pair its sort compares).
  std::ranges::sort(keys, [](const auto& a, const auto& b) { return engine::KeyLess()(a.first, b.first); });
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i].first.view() != keys[i - 1].first.view()) continue;
    const engine::RowValue& row = *rows[keys[i].second];
    for (size_t c = 0; c < n; ++c) DatumFromRowInto(row, static_cast<int>(c), schema.column(static_cast<int>(c)), datums[c]);
    throw SqlError(sqlstate::kUniqueViolation, fmt::format("could not create unique index \"{}\"", table.PrimaryKeyName()))
        .WithDetail(fmt::format("Key {} is duplicated.", KeyValuesText(table, table.primary_key, datums)));
  }
  if (null_key) throw *null_key;
  return rows;
}

}  // namespace caracal::planner
