// UniqueLoadCheck: the UNIQUE indexes of a bulk load (COPY, the between-epochs INSERT ...
// SELECT), whose rows go straight into the tables rather than through transactions. A
// row is refused when an earlier row of the load, or a row of the committed state, holds
// its non-NULL values of a UNIQUE index - 23505 worded as PostgreSQL words it.
#pragma once

#include <set>
#include <span>
#include <string>
#include <vector>

#include "engine/storage/database.h"
#include "engine/storage/table.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/row_source.h"
#include "planner/types/datum.h"

namespace caracal::planner {

class UniqueLoadCheck {
 public:
  UniqueLoadCheck(const TableInfo& table, const engine::Table& engine_table) : table_(table), engine_table_(engine_table),
      seen_(table.unique_indexes.size()) {}

  // Notes `row`'s values (`datums`: the same row, one Datum per column); throws 23505
  // (with `context` as its CONTEXT, if any) when an earlier row of the load holds them.
  void Add(const engine::RowValue& row, std::span<const Datum> datums, const std::string& context = {});
  // Throws 23505 for the first row of the load whose values a row of `state` (the
  // committed state the load goes into) holds.
  void CheckAgainst(RowSource& state) const;

 private:
  struct Entry {
    const TableInfo::UniqueIndex* index;
    engine::Key values;
    std::string detail, context;
  };
  const TableInfo& table_;
  const engine::Table& engine_table_;
  std::vector<std::set<engine::Key, engine::KeyLess>> seen_;  // per UNIQUE index
  std::vector<Entry> entries_;
};

}  // namespace caracal::planner
