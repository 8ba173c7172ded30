// RowBufferPool: batch append's per-core row buffers (paper §3.3, §4.1, Figure 4).
//
// Memory for every core's buffers is allocated once, at start-up. A row whose lock was
// contended during initialization gets a buffer *index* (one integer in the row); the
// index names one fixed-size slice per core. A core appends its pending versions to its
// own slice without any lock and, at the end of its initialization step (or when the
// slice is full), inserts them into the row's version array under the row lock.
//
// Safe while other cores still allocate: a core flushes slices [0, allocated) as it sees
// them when it has finished appending; a buffer allocated later cannot hold versions of
// that core. Reset() (all cores idle) returns every index to the pool.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/storage/row.h"
#include "engine/types/serial_id.h"

namespace caracal::engine {

class RowBufferPool {
 public:
  static constexpr uint32_t kSlots = 8;

  RowBufferPool(int cores, uint32_t buffers);

  // The row's buffer index, allocating one if it has none; Row::kNoBuffer when the pool
  // is exhausted.
  uint32_t BufferOf(Row& row);
  // Adds a pending version of `row` (buffer `index`) to `core`'s slice. Returns false if
  // the slice is full: the caller flushes it and tries again.
  bool Add(int core, uint32_t index, SerialId sid) {
    Slice& s = slices_[static_cast<size_t>(core) * capacity_ + index];
    if (s.count == kSlots) return false;
    s.sids[s.count++] = sid;
    return true;
  }
  // What a flush does to a row while it holds the row's lock (minor collection).
  using UnderLock = std::function<void(Row&)>;

  // Inserts `core`'s buffered versions of buffer `index` into its row under the row
  // lock; with `try_only`, gives up (returning false) if the lock is taken.
  bool FlushOne(int core, uint32_t index, const UnderLock& under_lock, bool try_only = false);
  // Flushes every slice of `core` allocated so far; rows whose lock is busy are left
  // for a second pass (§4.1: delay a contended row, process the others first).
  void FlushCore(int core, const UnderLock& under_lock);
  // All cores idle: rows give back their indexes.
  void Reset();

  uint32_t allocated() const { return std::min(next_.load(std::memory_order_acquire), capacity_); }

 private:
  struct Slice {
    uint32_t count = 0;
    SerialId sids[kSlots];
  };

  const uint32_t capacity_;
  std::unique_ptr<Slice[]> slices_;          // core-major: [core][index]
  std::unique_ptr<std::atomic<Row*>[]> rows_;  // [index] -> the row it belongs to
  std::atomic<uint32_t> next_{0};
};

}  // namespace caracal::engine
