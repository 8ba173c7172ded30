// Row: one primary key's history, as a version array sorted by serial id (paper §3.2).
//
// Invariants:
//  - entries are sorted by serial id, strictly increasing (one version per transaction);
//  - entries are only added during initialization (under `lock`) - or during the
//    execution of a solo epoch by its one transaction, which no other reads -, and only
//    removed or compacted by garbage collection between epochs (under `lock`); otherwise
//    during execution the array's shape is frozen and only an entry's `value` changes,
//    from kPending to its final state, exactly once, published with release order;
//  - the array never shrinks its capacity (§4.1).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "engine/types/serial_id.h"
#include "engine/storage/spin_lock.h"

namespace caracal::engine {

// The value word of a version entry: a RowValue* or one of these markers.
namespace version {
constexpr uintptr_t kPending = 1;    // declared, not yet written
constexpr uintptr_t kIgnore = 2;     // the writer aborted or did not write: skip to the previous
constexpr uintptr_t kTombstone = 3;  // the row was deleted
inline bool IsData(uintptr_t v) { return v > kTombstone; }
}  // namespace version

struct VersionEntry {
  SerialId sid;
  std::atomic<uintptr_t> value;
};

class Row {
 public:
  static constexpr uint32_t kNoBuffer = UINT32_MAX;

  explicit Row(const Key& key) : key(key) {}
  Row(const Row&) = delete;
  Row& operator=(const Row&) = delete;
  ~Row();

  SpinLock& lock() { return lock_; }
  uint32_t size() const { return size_; }
  VersionEntry& entry(uint32_t i) { return versions_[i]; }
  const VersionEntry& entry(uint32_t i) const { return versions_[i]; }
  uint32_t capacity() const { return capacity_; }

  // Inserts a version with `sid` and `value` keeping the array sorted (insertion sort
  // from the end: appends arrive in roughly increasing order). Caller holds the lock.
  // Returns false if a version with this sid exists already.
  bool InsertVersion(SerialId sid, uintptr_t value);

  // Index of the newest entry with sid < `before`, or -1. Checks the newest entries
  // first (readers mostly want the latest version), then binary-searches.
  int64_t FindBefore(SerialId before) const;
  // Index of the entry with exactly `sid`, or -1.
  int64_t FindExact(SerialId sid) const;
  // The newest settled data version older than `before`, skipping ignore markers and
  // pending versions; nullptr if the row does not exist then. The caller keeps the
  // array's shape stable (holds the lock, or no initialization is running).
  const RowValue* NewestSettledBefore(SerialId before) const;

  // Garbage collection between epochs (caller holds the lock): keeps the newest
  // data-or-tombstone version older than `horizon` and everything after it, drops
  // ignore markers, frees dropped values. Returns the number of versions freed.
  size_t Collect(SerialId horizon);
  // True when nothing of the row is visible at or after `horizon`: its only versions are a
  // tombstone (or nothing) older than `horizon`. Such a row can leave the index.
  bool IsDead(SerialId horizon) const;

  const Key key;                       // a copy: hash lookups confirm matches without another miss
  // Serial id of the oldest entry (UINT64_MAX when empty), kept in step with the array
  // under the lock, so the append step can test "does the row exist before me?"
  // without the lock (batch append appends without it).
  SerialId first_sid() const { return first_sid_.load(std::memory_order_acquire); }

  std::atomic<uint32_t> buffer_index{kNoBuffer};  // batch append's row buffer, if contended
  std::atomic<uint32_t> gc_epoch{0};              // epoch this row was last queued for collection
  std::atomic<uint32_t> last_write_epoch{0};      // epoch that last appended a version

 private:
  void Grow();
  void UpdateFirst() { first_sid_.store(size_ ? versions_[0].sid : UINT64_MAX, std::memory_order_release); }

  static constexpr uint32_t kInlineVersions = 2;

  SpinLock lock_;
  std::atomic<SerialId> first_sid_{UINT64_MAX};
  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineVersions;
  // The array lives inline while it fits (a committed version plus one pending is the
  // common case), saving a cache miss per access; it moves to the heap when it grows.
  VersionEntry* versions_ = inline_;
  std::unique_ptr<VersionEntry[]> heap_;
  VersionEntry inline_[kInlineVersions];
};

}  // namespace caracal::engine
