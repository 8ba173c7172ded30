// Settings of the epoch engine. Every optimization has a switch (DESIGN §2).
#pragma once

#include <cstdint>
#include <thread>

namespace caracal {

struct EngineOptions {
  int workers = static_cast<int>(std::thread::hardware_concurrency() ? std::thread::hardware_concurrency() : 2);
  // An epoch closes when it holds this many transactions...
  uint32_t epoch_max_txns = 10000;
  // ...or when this much time has passed since its first transaction arrived.
  uint32_t epoch_interval_ms = 10;
  // Major GC collects rows not updated in the last gc_k epochs (contention issue); 0 =
  // collect every row written in the epoch at the epoch's end.
  uint32_t gc_k = 0;
  bool gc = true;
};

// Per-epoch timings and counters, summed over the engine's life.
struct EngineStats {
  uint64_t epochs = 0;
  uint64_t txns = 0;
  uint64_t aborts = 0;
  uint64_t retries = 0;
  double init_ms = 0;   // insert + append steps
  double exec_ms = 0;   // execution phase
  double gc_ms = 0;     // major collection
  uint64_t gc_freed_versions = 0;
  uint64_t rows_erased = 0;
};

}  // namespace caracal
