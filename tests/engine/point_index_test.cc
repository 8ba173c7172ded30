// The hash index under concurrent inserts (with shard growth) and lookups.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "engine/storage/row.h"
#include "engine/storage/table.h"

namespace caracal::engine {
namespace {

Key IntKey(int64_t k) {
  Key key;
  key.AppendInt(k, ColumnType::kBigInt);
  return key;
}

TEST(PointIndexTest, ConcurrentCreatesFindEveryRowOnce) {
  Table table(0, Schema("t", {{"k", ColumnType::kBigInt}}, {0}), {});
  constexpr int kThreads = 4, kKeys = 200'000;
  std::vector<std::vector<Row*>> seen(kThreads, std::vector<Row*>(kKeys));
  std::vector<std::thread> threads;
  // Every thread creates every key (in a different order): exactly one Row per key wins.
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kKeys; ++i) {
        int k = (i * 7919 + t * 104729) % kKeys;
        seen[t][k] = table.FindOrCreate(IntKey(k));
      }
    });
  for (auto& th : threads) th.join();
  for (int k = 0; k < kKeys; ++k) {
    Row* r = table.Find(IntKey(k));
    ASSERT_NE(r, nullptr) << k;
    EXPECT_EQ(r->key, IntKey(k));
    for (int t = 0; t < kThreads; ++t) ASSERT_EQ(seen[t][k], r) << "key " << k << " thread " << t;
  }
  EXPECT_EQ(table.Find(IntKey(kKeys)), nullptr);
  EXPECT_EQ(table.ApproximateRows(), static_cast<size_t>(kKeys));
  table.ReleaseRetired();
  EXPECT_EQ(table.Find(IntKey(kKeys / 2))->key, IntKey(kKeys / 2));
}

TEST(PointIndexTest, CompactionKeepsLiveRowsFindable) {
  Table table(0, Schema("t", {{"k", ColumnType::kBigInt}}, {0}), {});
  for (int k = 0; k < 10'000; ++k) {
    Row* r = table.FindOrCreate(IntKey(k));
    // Even keys live, odd keys deleted long ago.
    r->InsertVersion(MakeSerialId(1, 1), k % 2 ? version::kTombstone : version::kIgnore);
    if (k % 2) table.NoteDeadRow();
  }
  EXPECT_TRUE(table.WantsCompaction());
  EXPECT_EQ(table.Compact(MakeSerialId(5, 0), 5), 5'000u);
  for (int k = 0; k < 10'000; ++k) EXPECT_EQ(table.Find(IntKey(k)) != nullptr, k % 2 == 0) << k;
  int scanned = 0;
  table.ForEach(Key(), Key(), [&](const Key&, Row&) { return ++scanned; });
  EXPECT_EQ(scanned, 5'000);
}

// Entries left behind by updates that moved rows to other index keys (and by rows gone
// altogether) go at a rebuild; every entry of a version a row still keeps stays.
TEST(PointIndexTest, IndexRebuildDropsOnlyStaleEntries) {
  Schema schema("t", {{"k", ColumnType::kBigInt}, {"v", ColumnType::kBigInt}}, {0});
  Table table(0, schema, {IndexSchema{"t_v", {1}}});
  constexpr int kRows = 3'000;
  auto index_key = [](int64_t v) { return IntKey(v); };
  for (int k = 0; k < kRows; ++k) {
    Row* r = table.FindOrCreate(IntKey(k));
    // Two kept versions (v = k, then v = k + 10'000) and an entry for a key no version has.
    for (int64_t v : {int64_t{k}, int64_t{k} + 10'000}) {
      RowValuePtr value = RowBuilder(schema).SetInt(0, k).SetInt(1, v).Build();
      r->InsertVersion(MakeSerialId(v < 10'000 ? 1 : 2, 1), reinterpret_cast<uintptr_t>(value.release()));
      table.AddIndexEntry(0, index_key(v), IntKey(k));
    }
    table.AddIndexEntry(0, index_key(k + 20'000), IntKey(k));
    // A row that is gone: its entry points at nothing.
    table.AddIndexEntry(0, index_key(k + 30'000), IntKey(k + kRows));
  }
  EXPECT_TRUE(table.WantsIndexRebuild());
  EXPECT_EQ(table.RebuildIndexes(), 2u * kRows);
  EXPECT_FALSE(table.WantsIndexRebuild());
  std::vector<std::pair<std::string, Key>> entries;
  table.ForEachIndexEntry(0, Key(), Key(), [&](std::string_view ik, const Key& pk) {
    entries.emplace_back(std::string(ik), pk);
    return true;
  });
  ASSERT_EQ(entries.size(), 2u * kRows);
  for (int k = 0; k < kRows; ++k) {
    EXPECT_TRUE(table.HasIndexEntry(0, index_key(k), IntKey(k))) << k;
    EXPECT_TRUE(table.HasIndexEntry(0, index_key(k + 10'000), IntKey(k))) << k;
    EXPECT_FALSE(table.HasIndexEntry(0, index_key(k + 20'000), IntKey(k))) << k;
  }
}

}  // namespace
}  // namespace caracal::engine
