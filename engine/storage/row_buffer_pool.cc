#include "engine/storage/row_buffer_pool.h"

#include "engine/storage/spin_lock.h"

namespace caracal::engine {

RowBufferPool::RowBufferPool(int cores, uint32_t buffers)
    : capacity_(buffers),
      slices_(std::make_unique<Slice[]>(static_cast<size_t>(cores) * buffers)),
      rows_(std::make_unique<std::atomic<Row*>[]>(buffers)) {}

uint32_t RowBufferPool::BufferOf(Row& row) {
  uint32_t index = row.buffer_index.load(std::memory_order_acquire);
  if (index != Row::kNoBuffer) return index;
  uint32_t mine = next_.fetch_add(1, std::memory_order_relaxed);
  if (mine >= capacity_) return Row::kNoBuffer;
  // Publish the owner before the index: a core that finds the index in the row may
  // flush through rows_[index].
  rows_[mine].store(&row, std::memory_order_release);
  uint32_t expected = Row::kNoBuffer;
  if (row.buffer_index.compare_exchange_strong(expected, mine, std::memory_order_acq_rel)) return mine;
  return expected;  // another core won; `mine` stays unused (all its slices are empty)
}

bool RowBufferPool::FlushOne(int core, uint32_t index, const UnderLock& under_lock, bool try_only) {
  Slice& s = slices_[static_cast<size_t>(core) * capacity_ + index];
  if (s.count == 0) return true;
  Row& row = *rows_[index].load(std::memory_order_acquire);
  if (try_only) {
    if (!row.lock().TryLock()) return false;
  } else {
    row.lock().Lock();
  }
  if (under_lock) under_lock(row);
  for (uint32_t i = 0; i < s.count; ++i) row.InsertVersion(s.sids[i], version::kPending);
  row.lock().Unlock();
  s.count = 0;
  return true;
}

void RowBufferPool::FlushCore(int core, const UnderLock& under_lock) {
  const uint32_t upto = allocated();
  std::vector<uint32_t> busy;
  for (uint32_t i = 0; i < upto; ++i)
    if (!FlushOne(core, i, under_lock, true)) busy.push_back(i);
  for (uint32_t i : busy) FlushOne(core, i, under_lock, false);
}

void RowBufferPool::Reset() {
  const uint32_t upto = allocated();
  for (uint32_t i = 0; i < upto; ++i) {
    Row* row = rows_[i].load(std::memory_order_relaxed);
    if (row != nullptr) row->buffer_index.store(Row::kNoBuffer, std::memory_order_relaxed);
    rows_[i].store(nullptr, std::memory_order_relaxed);
  }
  next_.store(0, std::memory_order_release);
}

}  // namespace caracal::engine
