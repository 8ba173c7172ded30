// A bounded soak: thousands of small epochs of a contended read-modify-write workload.
// With the minor collector and the K-epoch major collector, the number of versions the
// database holds stays bounded (it does not grow with the number of epochs), and so
// does the process's resident memory after warm-up.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <unistd.h>

#include "engine/database.h"
#include "engine/engine.h"
#include "tests/test_util.h"

namespace caracal::testing {
namespace {

double ResidentMb() {
  std::ifstream statm("/proc/self/statm");
  long total = 0, resident = 0;
  statm >> total >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

size_t TotalVersions(Database& db, TableId t) {
  size_t n = 0;
  db.table(t).ForEach(Key(), Key(), [&](const Key&, Row& row) {
    n += row.size();
    return true;
  });
  return n;
}

TEST(SoakTest, VersionsAndMemoryStayBoundedOverThousandsOfEpochs) {
  constexpr int kKeys = 2000, kHot = 16, kEpochTxns = 50, kEpochs = 3000;
  Database db;
  TableId t = CreateKv(db);
  for (int k = 0; k < kKeys; ++k) db.LoadRow(t, KvRow(db, t, k, 0));
  EngineOptions o;
  o.workers = 2;
  o.epoch_max_txns = kEpochTxns;
  o.epoch_interval_ms = 60000;
  o.gc_k = 8;
  Engine engine(db, o);
  LambdaProcedure incr(
      "incr",
      [t](DeclareContext& c) {
        for (const Value& k : c.input().args) c.DeclareWrite(t, K(k.as_int()), WriteKind::kUpdate);
      },
      [t](ExecContext& c) {
        c.Publish();
        for (const Value& k : c.input().args)
          c.ApplyRowUpdate(
              t, K(k.as_int()),
              [s = &c.table(t).schema()](const RowValue& old) {
                return RowBuilder(*s, old).SetInt(1, old.GetInt(1) + 1).Build();
              },
              1);
      });
  std::mt19937_64 rng(5);
  double rss_warm = 0, rss_max_after = 0;
  size_t versions_warm = 0, versions_max_after = 0;
  for (int e = 1; e <= kEpochs; ++e) {
    for (int i = 0; i < kEpochTxns; ++i) {
      // Three hot keys and one cold one per transaction.
      std::vector<Value> keys;
      for (int j = 0; j < 3; ++j) keys.push_back(Value::Int(static_cast<int64_t>(rng() % kHot) * (kKeys / kHot) + j));
      keys.push_back(Value::Int(static_cast<int64_t>(rng() % kKeys)));
      std::sort(keys.begin(), keys.end(), [](const Value& a, const Value& b) { return a.as_int() < b.as_int(); });
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      SubmitTo(engine, incr, keys, nullptr);
    }
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
  EXPECT_EQ(engine.stats().epochs, static_cast<uint64_t>(kEpochs));
  // At most the last gc_k + 1 epochs' versions beyond one per row.
  const size_t bound = kKeys + (o.gc_k + 2) * kEpochTxns * 4;
  EXPECT_LE(versions_max_after, bound) << "warm " << versions_warm;
  EXPECT_LE(rss_max_after, rss_warm + 16.0) << "resident MB after warm-up " << rss_warm;
}

}  // namespace
}  // namespace caracal::testing
