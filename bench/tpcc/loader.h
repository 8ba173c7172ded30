// The initial TPC-C database (clause 4.3.3.1), loaded deterministically from a seed.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/tpcc/schema.h"
#include "bench/workload.h"

namespace caracal::bench::tpcc {

// Timestamps are microseconds since 2000-01-01 (PostgreSQL's epoch). The load happens
// "at" 2024-01-01 00:00:00; transactions are stamped after it by the generator.
inline constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
inline constexpr int64_t kLoadTimestamp = 8766 * kMicrosPerDay;

struct LoadResult {
  // Per district (DistrictSlot order): o_c_id of the undelivered orders 2101..3000, in
  // o_id order, so the generator can seed its delivery queues.
  std::vector<std::vector<int32_t>> undelivered_customers;
  int64_t history_rows = 0;
};

// h_id of the history row loaded for customer (w, d, c): dense and independent of the
// order in which loader threads run.
int64_t LoadedHistoryId(int64_t w, int64_t d, int64_t c);

// Loads every table. Work is split into independent tasks (items; per warehouse: the
// warehouse and district rows, the stock; per district: customers, history, orders), each
// with its own generator seeded from (seed, task), and run on several threads: the
// contents never depend on thread timing.
LoadResult LoadDatabase(engine::Store& store, const Tables& tables, int warehouses, uint64_t seed,
                        const ProgressFn& progress);

}  // namespace caracal::bench::tpcc
