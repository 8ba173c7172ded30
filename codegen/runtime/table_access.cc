#include "codegen/runtime/table_access.h"

#include "codegen/runtime/point_key.h"

#include <fmt/format.h>

#include "planner/plan/access_path.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/catalog/row_identity.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlError;
using planner::TableInfo;

engine::Key PrimaryKeyOf(const TableInfo& table, std::span<const Datum> row) {
  if (table.HasRowIdentity()) {
    const size_t n = table.columns.size();
    return planner::RowIdentityKey({row[n].i, row[n + 1].i});
  }
  engine::Key key;
  for (int c : table.primary_key) {
    const planner::CatalogColumn& col = table.columns[c];
    if (row[c].is_null()) throw planner::NotNullViolation(table, c, row);
    if (!planner::AppendKeyValue(key, row[c], col))
      throw SqlError(planner::sqlstate::kNumericOutOfRange,
                     fmt::format("value {} of key column \"{}\" cannot be stored", planner::DatumToText(row[c], col.type),
                                 col.name));
  }
  return key;
}

engine::Key IntegerPrimaryKeyOf(const TableInfo& table, const engine::RowValue& row) {
  const size_t n = table.primary_key.size();
  if (n <= static_cast<size_t>(kMaxPointKeyParts)) {
    // As compiled code hands keys over: KeyFromParts encodes all-integer keys fastest.
    int64_t parts[kMaxPointKeyParts];
    int32_t widths = 0;
    for (size_t i = 0; i < n; ++i) {
      const int c = table.primary_key[i];
      parts[i] = row.GetInt(c);
      widths |= PackedKeyWidth(IntegerWidth(table.columns[static_cast<size_t>(c)].type.id).value()) << (2 * i);
    }
    return KeyFromParts(parts, static_cast<int32_t>(n), widths);
  }
  engine::Key key;
  for (int c : table.primary_key)
    key.AppendInt(row.GetInt(c), IntegerWidth(table.columns[static_cast<size_t>(c)].type.id).value());
  return key;
}

std::optional<engine::Key> PointKey(const TableInfo& table, const planner::KeyAccess& access,
                            const planner::EvalContext& ctx) {
  engine::Key key;
  for (size_t i = 0; i < access.key.size(); ++i) {
    Datum v = planner::Eval(*access.key[i], ctx);
    if (v.is_null()) return std::nullopt;
    // A value with no exact encoding (e.g. 1.5 for an integer column) matches no row.
    if (!planner::AppendKeyValue(key, v, table.columns[table.primary_key[i]])) return std::nullopt;
  }
  return key;
}

std::optional<KeySpan> RangeSpan(const TableInfo& table, std::span<const int> columns,
                                 const planner::KeyAccess& access, const planner::EvalContext& ctx) {
  KeySpan span;
  if (access.kind == planner::KeyAccess::Kind::kFullScan) return span;
  engine::Key prefix;
  for (size_t i = 0; i < access.key.size(); ++i) {
    Datum v = planner::Eval(*access.key[i], ctx);
    if (v.is_null()) return std::nullopt;
    if (!planner::AppendKeyValue(prefix, v, table.columns[columns[i]])) return std::nullopt;
  }
  span.lo = prefix;
  span.hi = prefix.empty() ? engine::Key() : prefix.PrefixSuccessor();
  if (access.key.size() >= columns.size()) return span;
  const planner::CatalogColumn& next = table.columns[columns[access.key.size()]];
  if (access.lower) {
    Datum v = planner::Eval(*access.lower, ctx);
    if (v.is_null()) return std::nullopt;
    engine::Key k = prefix;
    if (planner::AppendKeyValue(k, v, next)) span.lo = access.lower_inclusive ? k : k.PrefixSuccessor();
  }
  if (access.upper) {
    Datum v = planner::Eval(*access.upper, ctx);
    if (v.is_null()) return std::nullopt;
    engine::Key k = prefix;
    if (planner::AppendKeyValue(k, v, next)) span.hi = access.upper_inclusive ? k.PrefixSuccessor() : k;
  }
  return span;
}

std::vector<Datum> RowDatums(const engine::Schema& schema, const engine::RowValue& row) {
  std::vector<Datum> out;
  out.reserve(static_cast<size_t>(schema.num_columns()));
  for (int c = 0; c < schema.num_columns(); ++c)
    out.push_back(planner::DatumFromRow(row, c, schema.column(c)));
  return out;
}

engine::RowValuePtr BuildRow(const TableInfo& table, const engine::Schema& schema, std::span<const Datum> row) {
  engine::RowBuilder b(schema);
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const planner::CatalogColumn& col = table.columns[c];
    if (row[c].is_null()) {
      if (col.not_null) throw planner::NotNullViolation(table, static_cast<int>(c), row);
      b.SetNull(static_cast<int>(c));
      continue;
    }
    planner::SetRowColumn(b, static_cast<int>(c), schema.column(static_cast<int>(c)), row[c], col.type);
  }
  // The row identity (row_identity.h), after the table's own columns.
  for (int c = static_cast<int>(table.columns.size()); c < schema.num_columns(); ++c) b.SetInt(c, row[static_cast<size_t>(c)].i);
  return b.Build();
}

void ThrowDuplicateKey(const TableInfo& table, std::span<const Datum> row) { throw planner::PrimaryKeyViolation(table, row); }

bool UniqueIndexConflict(engine::ExecContext& exec, const TableInfo& table, const TableInfo::UniqueIndex& u,
                         const engine::Key& key, const engine::RowValue& row, const engine::RowValue* old) {
  const engine::Table& t = exec.table(table.id);
  std::optional<engine::Key> values = t.IndexKey(u.engine_index, row);
  if (!values) return false;
  if (old != nullptr) {
    std::optional<engine::Key> before = t.IndexKey(u.engine_index, *old);
    if (before && *before == *values) return false;
  }
  bool taken = false;
  exec.ScanIndex(table.id, u.engine_index, *values, values->PrefixSuccessor(),
                 [&](const engine::Key& other, const engine::RowValue& v) {
                   // An UPDATE's own row is no conflict; an INSERT's key holds no row of its own
                   // yet, so one there is another's (the ON CONFLICT arbiter's case).
                   if (old != nullptr && other == key) return true;
                   std::optional<engine::Key> held = t.IndexKey(u.engine_index, v);
                   taken = held && *held == *values;
                   return !taken;
                 });
  return taken;
}

const TableInfo::UniqueIndex* UniqueConflict(engine::ExecContext& exec, const TableInfo& table, const engine::Key& key,
                                             const engine::RowValue& row, const engine::RowValue* old) {
  for (const TableInfo::UniqueIndex& u : table.unique_indexes)
    if (UniqueIndexConflict(exec, table, u, key, row, old)) return &u;
  return nullptr;
}

}  // namespace caracal::codegen
