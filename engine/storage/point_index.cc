#include "engine/storage/point_index.h"

namespace caracal::engine {

PointIndex::PointIndex() : shards_(std::make_unique<Shard[]>(kShards)) {
  for (size_t i = 0; i < kShards; ++i) {
    shards_[i].arrays.push_back(NewArray(64));
    shards_[i].array.store(shards_[i].arrays.back().get(), std::memory_order_release);
  }
}

PointIndex::~PointIndex() = default;

std::unique_ptr<PointIndex::Array> PointIndex::NewArray(size_t capacity) {
  auto a = std::make_unique<Array>();
  a->mask = capacity - 1;
  a->slots = std::make_unique<Slot[]>(capacity);
  return a;
}

void PointIndex::Place(Array& a, uint64_t hash, Row* row) {
  size_t i = hash & a.mask;
  while (a.slots[i].row.load(std::memory_order_relaxed) != nullptr) i = (i + 1) & a.mask;
  a.slots[i].hash = hash;
  a.slots[i].row.store(row, std::memory_order_release);
}

void PointIndex::Grow(Shard& shard) {
  const Array& old = *shard.array.load(std::memory_order_relaxed);
  auto bigger = NewArray((old.mask + 1) * 2);
  for (size_t i = 0; i <= old.mask; ++i) {
    Row* r = old.slots[i].row.load(std::memory_order_relaxed);
    if (r != nullptr) Place(*bigger, old.slots[i].hash, r);
  }
  shard.array.store(bigger.get(), std::memory_order_release);
  shard.arrays.push_back(std::move(bigger));  // the old one stays readable until released
}

void PointIndex::ReleaseRetired() {
  for (size_t i = 0; i < kShards; ++i) {
    Shard& s = shards_[i];
    if (s.arrays.size() > 1) s.arrays.erase(s.arrays.begin(), s.arrays.end() - 1);
  }
}

}  // namespace caracal::engine
