// Batch append's row buffers under concurrent allocation, appends and flushes.
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <thread>

#include "engine/storage/row_buffer_pool.h"

namespace caracal::engine {
namespace {

TEST(RowBufferPoolTest, ConcurrentCoresAppendEveryVersionSorted) {
  constexpr int kCores = 4, kRows = 50, kVersionsPerCore = 400;
  RowBufferPool pool(kCores, /*buffers=*/32);  // fewer buffers than rows: some rows must wait
  std::vector<std::unique_ptr<Row>> rows;
  for (int r = 0; r < kRows; ++r) rows.push_back(std::make_unique<Row>(Key()));
  std::barrier sync(kCores);
  std::atomic<int> buffered{0}, direct{0};
  auto core = [&](int c) {
    for (int i = 0; i < kVersionsPerCore; ++i) {
      Row& row = *rows[(i * 7 + c) % kRows];
      // Serial ids interleave across cores, as round-robin assignment makes them.
      SerialId sid = MakeSerialId(1, static_cast<uint32_t>(i * kCores + c + 1));
      uint32_t index = pool.BufferOf(row);
      if (index == Row::kNoBuffer) {
        SpinGuard g(row.lock());
        row.InsertVersion(sid, version::kPending);
        ++direct;
        continue;
      }
      while (!pool.Add(c, index, sid)) pool.FlushOne(c, index, nullptr);
      ++buffered;
    }
    pool.FlushCore(c, nullptr);  // while other cores may still allocate
    sync.arrive_and_wait();
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kCores; ++c) threads.emplace_back(core, c);
  for (auto& t : threads) t.join();
  EXPECT_GT(buffered.load(), 0);
  EXPECT_GT(direct.load(), 0);
  size_t total = 0;
  for (auto& row : rows) {
    total += row->size();
    for (uint32_t i = 1; i < row->size(); ++i) ASSERT_LT(row->entry(i - 1).sid, row->entry(i).sid);
    if (row->size() > 0) {
      EXPECT_EQ(row->first_sid(), row->entry(0).sid);
    }
  }
  EXPECT_EQ(total, static_cast<size_t>(kCores * kVersionsPerCore));
  pool.Reset();
  for (auto& row : rows) {
    EXPECT_EQ(row->buffer_index.load(), Row::kNoBuffer);
    for (uint32_t i = 0; i < row->size(); ++i) row->entry(i).value.store(version::kIgnore);
  }
  EXPECT_EQ(pool.allocated(), 0u);
}

}  // namespace
}  // namespace caracal::engine
