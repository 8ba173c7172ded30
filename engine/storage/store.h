// Store: what the multi-version Database and the serial ReferenceStore have in common,
// so a workload can create its schema, load its rows and hash the final state the same
// way on both.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "engine/storage/sequences.h"
#include "engine/types/types.h"

namespace caracal::engine {

using TableId = uint32_t;

class Store {
 public:
  virtual ~Store() = default;
  // DDL; only between epochs.
  virtual TableId CreateTable(Schema schema, std::vector<IndexSchema> indexes = {}) = 0;
  virtual std::optional<TableId> FindTable(std::string_view name) const = 0;
  // DROP TABLE; only between epochs. The id is never reused; the table's rows are freed.
  virtual void DropTable(TableId table) = 0;
  virtual bool IsDropped(TableId table) const = 0;
  virtual const Schema& schema(TableId table) const = 0;
  virtual size_t num_tables() const = 0;
  virtual Sequences& sequences() = 0;

  // Bulk load before or between epochs, as if by a transaction before all others.
  // Throws EngineError on a duplicate key. Safe to call from several threads at once
  // for different keys.
  virtual void LoadRow(TableId table, RowValuePtr row) = 0;

  // Visits every row of the last committed state of `table`, in key order.
  virtual void ForEachCommittedRow(TableId table,
                                   const std::function<void(const Key&, const RowValue&)>& visit) const = 0;
};

// A hash of the complete committed contents of every table (names, keys and column
// values), independent of physical layout: equal states give equal hashes.
uint64_t StateHash(const Store& store);

}  // namespace caracal::engine
