// Table access for procedures: the runtime helpers through which interpreted and JIT'd
// procedure code reads and writes rows. They turn Datums into engine keys and rows, and
// engine outcomes into PostgreSQL's errors (duplicate keys, NOT NULL violations).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/procedure/procedure.h"
#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "planner/catalog/catalog.h"
#include "planner/types/datum.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

// The primary key of `row` (one Datum per engine column, schema order: a table with a
// row identity has its two Datums last, planner/catalog/row_identity.h). Throws SqlError
// if a key column is NULL (23502) or its value has no exact key encoding.
engine::Key PrimaryKeyOf(const planner::TableInfo& table, std::span<const planner::Datum> row);
// The same key read back from a built row of `table`, whose key columns are all integers.
engine::Key IntegerPrimaryKeyOf(const planner::TableInfo& table, const engine::RowValue& row);

// The key fixed by a point KeyAccess; nullopt when a key value is NULL (no row matches).
std::optional<engine::Key> PointKey(const planner::TableInfo& table, const planner::KeyAccess& access,
                            const planner::EvalContext& ctx);

// [lo, hi) of a range, index or full-scan KeyAccess (hi empty: unbounded) over the key
// `columns` (the primary key, or the secondary index's columns for kIndex); nullopt when
// a bound is NULL (no row matches).
struct KeySpan {
  engine::Key lo, hi;
};
std::optional<KeySpan> RangeSpan(const planner::TableInfo& table, std::span<const int> columns,
                                 const planner::KeyAccess& access, const planner::EvalContext& ctx);

// The row as Datums, one per column (schema order).
std::vector<planner::Datum> RowDatums(const engine::Schema& schema, const engine::RowValue& row);

// Builds a row from Datums already coerced to the column types, one per engine column
// (a row identity's too, see PrimaryKeyOf); NOT NULL is checked here
// (23502 naming the column and the table, as PostgreSQL words it).
engine::RowValuePtr BuildRow(const planner::TableInfo& table, const engine::Schema& schema, std::span<const planner::Datum> row);

// PostgreSQL's duplicate-key error for `table`'s primary key.
[[noreturn]] void ThrowDuplicateKey(const planner::TableInfo& table, std::span<const planner::Datum> row);

// The first UNIQUE index of `table` on which `row`, about to be written at `key`, holds
// the values of another row that exists at the transaction's serial position (its own
// writes included), or null. `old`: the row's value before this write (index values it
// keeps need no check). NULLs never conflict. The index scan waits for earlier writers,
// whose entries initialization declared, so the first writer in serial order wins.
const planner::TableInfo::UniqueIndex* UniqueConflict(engine::ExecContext& exec, const planner::TableInfo& table,
                                                      const engine::Key& key, const engine::RowValue& row,
                                                      const engine::RowValue* old);
// UniqueConflict for one of `table`'s UNIQUE indexes: whether it refuses `row`.
bool UniqueIndexConflict(engine::ExecContext& exec, const planner::TableInfo& table,
                         const planner::TableInfo::UniqueIndex& index, const engine::Key& key, const engine::RowValue& row,
                         const engine::RowValue* old);

}  // namespace caracal::codegen
