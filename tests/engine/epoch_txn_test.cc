// A transaction's row cache: every lookup finds exactly the entry added for that table
// and key, whatever the cache's size, lookup order or hash collisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "engine/execution/epoch_txn.h"
#include "tests/engine/test_util.h"

namespace caracal::engine {
namespace {

using testing::K;

class EpochTxnCacheTest : public ::testing::Test {
 protected:
  Table a_{0, Schema("a", {{"k", ColumnType::kBigInt}}, {0}), {}};
  Table b_{1, Schema("b", {{"k", ColumnType::kBigInt}}, {0}), {}};
};

TEST_F(EpochTxnCacheTest, FindsEveryEntryInAnyOrderAtEverySize) {
  // Sizes on both sides of the switch from a scan to a hash table.
  for (int entries : {1, 5, 47, 48, 49, 200}) {
    EpochTxn txn;
    std::vector<CacheEntry*> added;
    for (int i = 0; i < entries; ++i) {
      Key k = K(i);
      // The same key in two tables: two entries.
      EXPECT_EQ(txn.Find(&a_, k, k.Hash()), nullptr) << entries << " " << i;
      added.push_back(&txn.Add(&a_, k, k.Hash()));
      added.push_back(&txn.Add(&b_, k, k.Hash()));
    }
    std::vector<int> order(entries);
    for (int i = 0; i < entries; ++i) order[i] = i;
    std::mt19937 rng(entries);
    // Declaration order, reversed, then shuffled: the scan's starting point must not matter.
    for (int pass = 0; pass < 3; ++pass) {
      if (pass == 1) std::reverse(order.begin(), order.end());
      if (pass == 2) std::shuffle(order.begin(), order.end(), rng);
      for (int i : order) {
        Key k = K(i);
        EXPECT_EQ(txn.Find(&a_, k, k.Hash()), added[2 * i]) << entries << " " << i;
        EXPECT_EQ(txn.Find(&b_, k, k.Hash()), added[2 * i + 1]) << entries << " " << i;
      }
      Key absent = K(entries + pass);
      EXPECT_EQ(txn.Find(&a_, absent, absent.Hash()), nullptr) << entries;
    }
  }
}

TEST_F(EpochTxnCacheTest, EqualHashesAreToldApartByKey) {
  // Callers pass the hash; entries whose hashes collide must still match by key.
  for (int entries : {3, 100}) {
    EpochTxn txn;
    std::vector<CacheEntry*> added;
    for (int i = 0; i < entries; ++i) added.push_back(&txn.Add(&a_, K(i), 42));
    for (int i = entries - 1; i >= 0; --i) EXPECT_EQ(txn.Find(&a_, K(i), 42), added[i]) << i;
    EXPECT_EQ(txn.Find(&a_, K(entries), 42), nullptr);
    EXPECT_EQ(txn.Find(&b_, K(0), 42), nullptr);
  }
}

TEST_F(EpochTxnCacheTest, EntriesKeepTheirAddressAsTheCacheGrows) {
  EpochTxn txn;
  CacheEntry* first = &txn.Add(&a_, K(0), K(0).Hash());
  first->row_update_weight = 7;
  for (int i = 1; i < 1000; ++i) txn.Add(&a_, K(i), K(i).Hash());
  EXPECT_EQ(txn.Find(&a_, K(0), K(0).Hash()), first);
  EXPECT_EQ(first->row_update_weight, 7);
  size_t count = 0;
  for (const CacheEntry& e : txn.cache) {
    EXPECT_EQ(e.key, K(static_cast<int64_t>(count)));
    ++count;
  }
  EXPECT_EQ(count, 1000u);
}

}  // namespace
}  // namespace caracal::engine
