// A bounded soak: thousands of small epochs of ycsb-contention (all writes, 7 of 10 keys
// from 77 hot rows).
// With the minor collector and the K-epoch major collector, the number of versions the
// database holds stays bounded (it does not grow with the number of epochs), and so
// does the process's resident memory after warm-up.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <unistd.h>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "bench/workload.h"
#include "tests/engine/test_util.h"

namespace caracal::testing {
namespace {

double ResidentMb() {
  std::ifstream statm("/proc/self/statm");
  long total = 0, resident = 0;
  statm >> total >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

size_t TotalVersions(engine::Database& db, engine::TableId t) {
  size_t n = 0;
  db.table(t).ForEach(engine::Key(), engine::Key(), [&](const engine::Key&, engine::Row& row) {
    n += row.size();
    return true;
  });
  return n;
}

TEST(SoakTest, VersionsAndMemoryStayBoundedOverThousandsOfEpochs) {
  constexpr int kEpochTxns = 50, kEpochs = 3000;
  bench::WorkloadOptions wo;
  wo.keys = 20'000;
  wo.seed = 3;
  std::unique_ptr<bench::Workload> ycsb = bench::MakeWorkload("ycsb-contention", wo);
  engine::Database db;
  ycsb->Setup(db, {});
  const engine::TableId t = 0;
  engine::EngineOptions o;
  o.workers = 2;
  o.epoch_max_txns = kEpochTxns;
  o.epoch_interval_ms = 60000;
  o.gc_k = 8;
  o.split_threshold = 8;
  engine::Engine engine(db, o);
  std::mt19937_64 rng(5);
  double rss_warm = 0, rss_max_after = 0;
  size_t versions_warm = 0, versions_max_after = 0;
  for (int e = 1; e <= kEpochs; ++e) {
    for (int i = 0; i < kEpochTxns; ++i) engine.Submit(ycsb->Next(rng));
    engine.Drain();
    if (e % 500 == 0) {
      size_t versions = TotalVersions(db, t);
      double rss = ResidentMb();
      if (e == 500) {
        rss_warm = rss;
        versions_warm = versions;
      } else {
        rss_max_after = std::max(rss_max_after, rss);
        versions_max_after = std::max(versions_max_after, versions);
      }
    }
  }
  engine::EngineStats stats = engine.stats();
  EXPECT_EQ(stats.epochs, static_cast<uint64_t>(kEpochs));
  EXPECT_GT(stats.split_pieces, 0u);
  EXPECT_GT(stats.gc_freed_versions, static_cast<uint64_t>(kEpochs) * kEpochTxns * 5);
  // One version per row, plus at most what the last gc_k + 1 epochs wrote (10 per txn).
  const size_t bound = wo.keys + (o.gc_k + 2) * kEpochTxns * 10;
  EXPECT_LE(versions_max_after, bound) << "warm " << versions_warm;
  EXPECT_LE(rss_max_after, rss_warm + 16.0) << "resident MB after warm-up " << rss_warm;
}

}  // namespace
}  // namespace caracal::testing
