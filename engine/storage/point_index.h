// PointIndex: the hash index a table's point lookups go through (the ordered skip list
// serves scans). Open addressing with linear probing, split into shards.
//
// Concurrency contract:
//  - Find is lock-free and may run concurrently with anything.
//  - Insert takes its shard's spin lock; a shard that grows publishes a new slot array
//    and retires the old one, which stays readable until ReleaseRetired().
//  - A Find concurrent with the Insert of the same key may miss it. The engine only needs
//    to find rows inserted before a barrier (every insert happens in the insert step,
//    before any lookup that must see it), and FindOrCreate re-checks under the lock.
//  - ReleaseRetired and Clear only at quiescent points (no Find running).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/types/key.h"
#include "engine/storage/spin_lock.h"

namespace caracal::engine {

class Row;

class PointIndex {
 public:
  PointIndex();
  ~PointIndex();
  PointIndex(const PointIndex&) = delete;
  PointIndex& operator=(const PointIndex&) = delete;

  // `key_of` gives a candidate row's key, to confirm a hash match.
  template <typename KeyOf>
  Row* Find(const Key& key, uint64_t hash, KeyOf key_of) const {
    const Array* a = shards_[ShardOf(hash)].array.load(std::memory_order_acquire);
    for (size_t i = hash & a->mask;; i = (i + 1) & a->mask) {
      const Slot& s = a->slots[i];
      Row* r = s.row.load(std::memory_order_acquire);
      if (r == nullptr) return nullptr;
      if (s.hash == hash && key_of(r) == key) return r;
    }
  }

  // Runs `create` under the shard's lock if no row with `key` exists, and indexes its
  // result. Returns the row for `key` either way.
  template <typename KeyOf, typename Create>
  Row* FindOrInsert(const Key& key, uint64_t hash, KeyOf key_of, Create create) {
    Shard& shard = shards_[ShardOf(hash)];
    SpinGuard guard(shard.lock);
    if (Row* r = Find(key, hash, key_of)) return r;
    Row* row = create();
    if ((shard.count + 1) * 2 > shard.array.load(std::memory_order_relaxed)->mask + 1) Grow(shard);
    Place(*shard.array.load(std::memory_order_relaxed), hash, row);
    ++shard.count;
    return row;
  }

  // Frees slot arrays retired by growth. Only when no Find can be running.
  void ReleaseRetired();

 private:
  static constexpr size_t kShards = 64;
  struct Slot {
    std::atomic<Row*> row{nullptr};
    uint64_t hash = 0;  // written before `row` is published
  };
  struct Array {
    size_t mask;
    std::unique_ptr<Slot[]> slots;
  };
  struct Shard {
    SpinLock lock;
    std::atomic<Array*> array{nullptr};
    size_t count = 0;
    std::vector<std::unique_ptr<Array>> arrays;  // current last; earlier ones retired
  };

  static size_t ShardOf(uint64_t hash) { return (hash >> 58) % kShards; }
  static std::unique_ptr<Array> NewArray(size_t capacity);
  static void Place(Array& a, uint64_t hash, Row* row);
  void Grow(Shard& shard);

  std::unique_ptr<Shard[]> shards_;
};

}  // namespace caracal::engine
