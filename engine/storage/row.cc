#include "engine/storage/row.h"

#include <cassert>
#include <cstdlib>

namespace caracal::engine {

static void FreeValue(uintptr_t v) {
  if (version::IsData(v)) std::free(reinterpret_cast<void*>(v));
}

Row::~Row() {
  for (uint32_t i = 0; i < size_; ++i) FreeValue(versions_[i].value.load(std::memory_order_relaxed));
}

void Row::Grow() {
  uint32_t cap = capacity_ * 2;
  auto bigger = std::make_unique<VersionEntry[]>(cap);
  for (uint32_t i = 0; i < size_; ++i) {
    bigger[i].sid = versions_[i].sid;
    bigger[i].value.store(versions_[i].value.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  heap_ = std::move(bigger);
  versions_ = heap_.get();
  capacity_ = cap;
}

bool Row::InsertVersion(SerialId sid, uintptr_t value) {
  uint32_t pos = size_;
  while (pos > 0 && versions_[pos - 1].sid > sid) --pos;
  if (pos > 0 && versions_[pos - 1].sid == sid) return false;
  if (size_ == capacity_) Grow();
  for (uint32_t i = size_; i > pos; --i) {
    versions_[i].sid = versions_[i - 1].sid;
    versions_[i].value.store(versions_[i - 1].value.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  versions_[pos].sid = sid;
  versions_[pos].value.store(value, std::memory_order_relaxed);
  ++size_;
  if (pos == 0) UpdateFirst();
  return true;
}

int64_t Row::FindBefore(SerialId before) const {
  uint32_t n = size_;
  if (n == 0) return -1;
  // Near-latest fast path: the newest or second-newest entry is usually the answer.
  if (versions_[n - 1].sid < before) return n - 1;
  if (n >= 2 && versions_[n - 2].sid < before) return n - 2;
  uint32_t lo = 0, hi = n;  // first index with sid >= before
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (versions_[mid].sid < before)
      lo = mid + 1;
    else
      hi = mid;
  }
  return static_cast<int64_t>(lo) - 1;
}

int64_t Row::FindExact(SerialId sid) const {
  int64_t i = FindBefore(sid + 1);
  return (i >= 0 && versions_[i].sid == sid) ? i : -1;
}

const RowValue* Row::NewestSettledBefore(SerialId before) const {
  for (int64_t i = FindBefore(before); i >= 0; --i) {
    uintptr_t v = versions_[i].value.load(std::memory_order_acquire);
    if (v == version::kIgnore || v == version::kPending) continue;
    if (v == version::kTombstone) return nullptr;
    return reinterpret_cast<const RowValue*>(v);
  }
  return nullptr;
}

size_t Row::Collect(SerialId horizon) {
  // Find the newest settled, non-ignore version older than the horizon: it is the one
  // the oldest possible reader sees. Everything before it is garbage.
  int64_t keep_from = -1;
  for (int64_t i = static_cast<int64_t>(size_) - 1; i >= 0; --i) {
    if (versions_[i].sid >= horizon) continue;
    uintptr_t v = versions_[i].value.load(std::memory_order_relaxed);
    if (v == version::kIgnore || v == version::kPending) continue;
    keep_from = i;
    break;
  }
  size_t freed = 0;
  uint32_t out = 0;
  for (uint32_t i = 0; i < size_; ++i) {
    uintptr_t v = versions_[i].value.load(std::memory_order_relaxed);
    bool drop = static_cast<int64_t>(i) < keep_from || v == version::kIgnore;
    if (drop) {
      FreeValue(v);
      ++freed;
      continue;
    }
    if (out != i) {
      versions_[out].sid = versions_[i].sid;
      versions_[out].value.store(v, std::memory_order_relaxed);
    }
    ++out;
  }
  size_ = out;
  UpdateFirst();
  return freed;
}

bool Row::IsDead(SerialId horizon) const {
  if (size_ == 0) return true;
  if (size_ > 1) return false;
  return versions_[0].sid < horizon &&
         versions_[0].value.load(std::memory_order_relaxed) == version::kTombstone;
}

}  // namespace caracal::engine
