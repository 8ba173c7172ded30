// RowSource: where a bound query reads its rows. The same query code runs over the last
// committed snapshot (ad-hoc SELECT), over a transaction at its serial position (SELECT
// INTO inside a procedure) and over the committed state during initialization
// (reconnaissance). Row references stay valid until the source goes away.
#pragma once

#include <functional>

#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "engine/types/types.h"

namespace caracal::planner {

using RowVisitor = std::function<bool(const engine::Key& primary_key, const engine::RowValue& row)>;

class RoutineRunner;

class RowSource {
 public:
  virtual ~RowSource() = default;
  // Runs the user functions the query's expressions call (EvalContext::routines); null:
  // none can run over this source.
  const RoutineRunner* routines = nullptr;
  virtual const engine::Schema& schema(engine::TableId table) = 0;
  // The row with primary key `key`, or nullptr.
  virtual const engine::RowValue* Read(engine::TableId table, const engine::Key& key) = 0;
  // Rows with lo <= key < hi (hi empty: unbounded) in key order; the visitor returns false
  // to stop.
  virtual void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi, const RowVisitor& visit) = 0;
  // Rows whose secondary index `index` key is in [lo, hi), in index order.
  virtual void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi, const RowVisitor& visit) = 0;
};

}  // namespace caracal::planner
