// TPC-C consistency conditions 1-4 (clause 3.3.2.1-3.3.2.4) on a committed state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/tpcc/schema.h"
#include "engine/storage/store.h"

namespace caracal::bench::tpcc {

struct ConsistencyResult {
  uint64_t violations = 0;
  std::vector<std::string> errors;  // the first few violations, described
  bool ok() const { return violations == 0; }
};

// Condition 3 is adapted to FastIds: an aborted NewOrder leaves a gap in a district's
// order ids, so instead of max(no_o_id) - min(no_o_id) + 1 = count(new_order) we check
// that count(new_order) equals the number of orders whose o_id lies in
// [min(no_o_id), max(no_o_id)]. Condition 2 compares max(no_o_id) only while the district
// has undelivered orders.
ConsistencyResult CheckConsistency(const engine::Store& store, const Tables& tables, int warehouses);

}  // namespace caracal::bench::tpcc
