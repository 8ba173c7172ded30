// Settings of the epoch engine. Every optimization has a switch (DESIGN §2).
#pragma once

#include <cstdint>
#include <thread>

namespace caracal::engine {

struct EngineOptions {
  int workers = static_cast<int>(std::thread::hardware_concurrency() ? std::thread::hardware_concurrency() : 2);
  // An epoch closes when it holds this many transactions...
  uint32_t epoch_max_txns = 10000;
  // ...or when this much time has passed since its first transaction arrived...
  uint32_t epoch_interval_ms = 10;
  // ...or, with adaptive start, as soon as it holds as many transactions as the epochs
  // before it did (a slowly decaying maximum): a lone call runs at once instead of
  // waiting for the interval, and under load epochs still grow to what arrives while
  // one runs (group commit). Off: epochs close only on size and interval, which tests
  // use to put transactions into one epoch.
  bool adaptive_epoch_start = false;
  // Batch append (§3.3): a contended row lock diverts pending versions to per-core row
  // buffers that are appended in bulk at the end of each initialization step.
  bool batch_append = true;
  // Row buffers per core, pre-allocated at start-up (Figure 4); when they run out,
  // appends wait for the lock.
  uint32_t row_buffers = 16384;
  // Split-on-demand (§3.4): at the end of initialization, rows with at least
  // split_threshold pending versions form the contention set; ApplyRowUpdate on them runs
  // as pieces placed by lottery (Listing 1).
  bool split_on_demand = true;
  uint32_t split_threshold = 512;
  // Garbage collection (§3.5): the minor collector trims rows as initialization appends
  // to them; the major collector trims, at the end of epoch E, the rows last written in
  // epoch E - gc_k (rows written since are left to the minor collector).
  bool gc = true;
  bool minor_gc = true;
  uint32_t gc_k = 8;

  bool operator==(const EngineOptions&) const = default;
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
  uint64_t gc_freed_versions = 0;   // by both collectors
  uint64_t rows_erased = 0;
  uint64_t batch_appended_versions = 0;
  uint64_t split_rows = 0;    // contention-set rows, summed over epochs
  uint64_t split_pieces = 0;  // ApplyRowUpdate calls that ran as separate pieces
  double lock_wait_p999_us = 0;      // over every row-lock acquisition of initialization
};

}  // namespace caracal::engine
