// Foreign-key lookups over any RowSource (a transaction at its serial position, the
// committed state of a bulk load or of ALTER TABLE ... ADD FOREIGN KEY): does the
// referenced row exist, and which rows reference a key. MATCH SIMPLE: a row with a NULL
// in its referencing columns references nothing.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/plan/row_source.h"
#include "planner/types/datum.h"

namespace caracal::planner {

// The values `row` (one Datum per column of `table`) holds in `columns`, each converted
// to the type of the matching column of `to` at `to_columns` (NULLs stay NULL).
std::vector<Datum> ConvertedValues(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row,
                                   const TableInfo& to, std::span<const int> to_columns);
// The same as a key: nullopt when one is NULL (MATCH SIMPLE: it references nothing).
std::optional<std::vector<Datum>> KeyValuesOf(const TableInfo& table, std::span<const int> columns,
                                              std::span<const Datum> row, const TableInfo& to,
                                              std::span<const int> to_columns);

// Whether `key`'s referenced table has a row whose referenced columns hold `values`
// (in `key.referenced_columns` order): a primary-key read or a UNIQUE-index probe.
bool ReferencedRowExists(RowSource& rows, const ForeignKey& key, std::span<const Datum> values);

// Visits the rows of `referencing.table` whose referencing columns hold `values` (in the
// key's column order): a primary-key range or an index scan when one starts with those
// columns, else a scan of the table. The visitor returns false to stop.
void ForEachReferencingRow(RowSource& rows, const Catalog& catalog, const ReferencingKey& referencing,
                           std::span<const Datum> values, const RowVisitor& visit);

// The foreign keys of a bulk load (COPY, the between-epochs INSERT ... SELECT), whose
// rows go straight into their table: each row's referenced rows must be in the committed
// state, or - for a table that references itself - among the load's rows, as
// PostgreSQL's checks at the end of the COPY find them.
class ForeignKeyLoadCheck {
 public:
  explicit ForeignKeyLoadCheck(const TableInfo& table) : table_(table), own_keys_(table.foreign_keys.size()) {}

  bool needed() const { return !table_.foreign_keys.empty(); }
  // Notes a row of the load (one Datum per column).
  void Add(std::span<const Datum> row);
  // Throws 23503 for the first row whose referenced row neither `state` nor the load has.
  void CheckAgainst(RowSource& state) const;

 private:
  struct Entry {
    size_t key;  // index into table_.foreign_keys
    std::vector<Datum> values;
    std::vector<Datum> row;
  };
  const TableInfo& table_;
  std::vector<Entry> entries_;
  // Per foreign key of the table onto itself: the load's rows' referenced-column values.
  std::vector<std::set<engine::Key, engine::KeyLess>> own_keys_;
};

}  // namespace caracal::planner
