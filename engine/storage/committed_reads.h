// CommittedReads: the state as of the last epoch that settled before a serial id, read
// directly from the rows' version arrays. It is what Declare's reconnaissance sees
// (DeclareContext::ReadCommitted / ScanCommitted / ScanIndexCommitted) and what
// EXPLAIN CALL evaluates a procedure's init program against.
//
// Valid only while no epoch is collecting garbage below `before` (the engine's
// initialization phase, or between epochs).
#pragma once

#include <functional>

#include "engine/storage/database.h"
#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "engine/types/serial_id.h"

namespace caracal::engine {

class CommittedReads {
 public:
  CommittedReads(Database& db, SerialId before) : db_(db), before_(before) {}

  const RowValue* Read(TableId table, const Key& key) const;
  // Rows with lo <= key < hi (hi empty: unbounded), in key order; `visit` returns false to stop.
  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) const;
  // Rows whose secondary index `index` key lies in [lo, hi), in index order. Throws
  // ApiMisuse for an unknown index, naming `procedure`.
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key& primary_key, const RowValue&)>& visit,
                 std::string_view procedure) const;

 private:
  Database& db_;
  SerialId before_;
};

}  // namespace caracal::engine
