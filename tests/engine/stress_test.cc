// A short multi-threaded stress run, bounded in time, meant for the sanitizer presets
// (ctest --preset asan / tsan): contended and uncontended epochs on several workers,
// garbage collection, and snapshot readers running concurrently.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/execution/reference_executor.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

// The engine's database and the serial reference executor, each with a kv table that
// holds the same rows: a stress test runs the same stream on both and compares them.
struct KvWithReference {
  Database db;
  ReferenceExecutor ref;
  TableId t = CreateKv(db);
  TableId rt = CreateKv(ref);

  void Load(int64_t k, int64_t v) {
    db.LoadRow(t, KvRow(db, t, k, v));
    ref.LoadRow(rt, KvRow(ref, rt, k, v));
  }
};

// Short epochs, and split-on-demand from the first pending version: nearly every
// declared row update runs as a piece on another core.
EngineOptions SplittingEveryUpdate(int workers, uint32_t epoch_max_txns) {
  EngineOptions o;
  o.workers = workers;
  o.epoch_max_txns = epoch_max_txns;
  o.epoch_interval_ms = 2;
  o.split_threshold = 1;
  return o;
}

TEST(StressTest, ContendedEpochsWithSnapshotReaders) {
  constexpr int kKeys = 64;
  KvWithReference kv;
  auto& [db, ref, t, rt] = kv;
  for (int k = 0; k < kKeys; k += 2) kv.Load(k, k);
  // Reads three keys, then inserts, deletes or increments three others, sometimes
  // aborting: exercises every kind of version on a few hot rows.
  auto make = [](TableId table) {
    return LambdaProcedure(
        "mix",
        [table](DeclareContext& c) {
          const auto& a = c.input().args;
          for (int i = 3; i < 6; ++i) c.DeclareWrite(table, K(a[i].as_int()), WriteKind::kUpsert);
          c.DeclareRange(table, K(a[6].as_int()), K(a[6].as_int() + 4), RangeKind::kDelete);
        },
        [table](ExecContext& c) {
          const auto& a = c.input().args;
          const Schema& s = c.table(table).schema();
          int64_t sum = 0;
          for (int i = 0; i < 3; ++i)
            if (const RowValue* r = c.Read(table, K(a[i].as_int()))) sum += r->GetInt(1);
          if (a[7].as_int() == 0) {
            c.Abort("P0001", "abort");
            return;
          }
          c.Publish();
          for (int i = 3; i < 6; ++i) {
            int64_t k = a[i].as_int();
            const RowValue* old = c.Read(table, K(k));
            c.Upsert(table, K(k), RowBuilder(s).SetInt(0, k).SetInt(1, (old ? old->GetInt(1) : 0) + sum % 7 + 1).Build());
          }
          for (const Key& k : c.RangeRows(0))
            if (c.Read(table, k) != nullptr && sum % 3 == 0) c.Delete(table, k);
        });
  };
  LambdaProcedure proc = make(t), ref_proc = make(rt);

  EngineOptions o;
  o.workers = 4;
  o.epoch_max_txns = 97;
  o.epoch_interval_ms = 2;
  Engine engine(db, o);
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    while (!stop.load()) {
      Snapshot snap(db);
      int64_t n = 0;
      snap.Scan(t, Key(), Key(), [&](const Key&, const RowValue& r) {
        n += r.GetInt(1) >= 0;
        return true;
      });
      ASSERT_LE(n, kKeys);
    }
  });
  std::mt19937_64 rng(99);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  uint64_t n = 0;
  while (std::chrono::steady_clock::now() < until && n < 200'000) {
    std::vector<Value> args;
    std::vector<int64_t> picked;
    while (picked.size() < 6) {
      int64_t k = static_cast<int64_t>(rng() % kKeys);
      if (std::find(picked.begin() + (picked.size() >= 3 ? 3 : 0), picked.end(), k) == picked.end())
        picked.push_back(k);
    }
    for (int64_t k : picked) args.push_back(Value::Int(k));
    args.push_back(Value::Int(static_cast<int64_t>(rng() % kKeys)));
    args.push_back(Value::Int(static_cast<int64_t>(rng() % 10)));
    SubmitTo(engine, proc, args, nullptr);
    SubmitTo(ref, ref_proc, args, nullptr);
    ++n;
    if (n % 2000 == 0) engine.Drain();  // bound the queue
  }
  engine.Drain();
  stop = true;
  reader.join();
  EXPECT_EQ(StateHash(db), StateHash(ref)) << n << " transactions";
}


// Split-on-demand under load: every transaction applies read-modify-writes to hot rows
// (declared for ApplyRowUpdate), some wait for the futures, some read their own split
// row back, some abort before publishing (their pieces are cancelled). With threshold 1
// nearly every update runs as a piece on another core. Final state equals the reference.
TEST(StressTest, SplitPiecesOnHotRows) {
  constexpr int kKeys = 32;
  KvWithReference kv;
  auto& [db, ref, t, rt] = kv;
  for (int k = 0; k < kKeys; ++k) kv.Load(k, 1);
  auto make = [](TableId table) {
    return LambdaProcedure(
        "hot_rmw",
        [table](DeclareContext& c) {
          const auto& a = c.input().args;
          for (int i = 0; i < 3; ++i) c.DeclareRowUpdate(table, K(a[i].as_int()), 1);
        },
        [table](ExecContext& c) {
          const auto& a = c.input().args;
          const int64_t mode = a[3].as_int();
          if (mode == 0) {
            c.Abort("P0001", "no");
            return;
          }
          c.Publish();
          std::vector<RowUpdateFuture> futures;
          const Schema* s = &c.table(table).schema();
          for (int i = 0; i < 3; ++i) {
            const int64_t mul = a[4 + i].as_int();
            futures.push_back(c.ApplyRowUpdate(
                table, K(a[i].as_int()),
                [s, mul](const RowValue& old) {
                  return RowBuilder(*s, old).SetInt(1, (old.GetInt(1) * mul + 7) % 1000003).Build();
                },
                1));
          }
          if (mode == 1) {
            for (auto& f : futures) f.Wait();
          }
          if (mode == 2) {
            const RowValue* mine = c.Read(table, K(a[0].as_int()));  // waits for its own piece
            c.Emit({Value::Int(mine->GetInt(1))});
          }
        });
  };
  LambdaProcedure proc = make(t), ref_proc = make(rt);
  for (int workers : {2, 4}) {
    Engine engine(db, SplittingEveryUpdate(workers, 200));
    std::mt19937_64 rng(7 + workers);
    std::vector<TxnResult> got(3000), want(3000);
    for (size_t n = 0; n < got.size(); ++n) {
      std::vector<Value> args;
      std::vector<int64_t> keys;
      while (keys.size() < 3) {
        int64_t k = static_cast<int64_t>(rng() % 4 == 0 ? rng() % kKeys : rng() % 3);  // 3 very hot rows
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
      }
      for (int64_t k : keys) args.push_back(Value::Int(k));
      args.push_back(Value::Int(static_cast<int64_t>(rng() % 4)));
      for (int i = 0; i < 3; ++i) args.push_back(Value::Int(static_cast<int64_t>(rng() % 5 + 2)));
      SubmitTo(engine, proc, args, &got[n]);
      SubmitTo(ref, ref_proc, args, &want[n]);
    }
    engine.Drain();
    EXPECT_GT(engine.stats().split_pieces, 1000u) << workers;
    EXPECT_EQ(StateHash(db), StateHash(ref)) << workers;
    for (size_t n = 0; n < got.size(); ++n) {
      ASSERT_EQ(got[n].status, want[n].status) << n;
      ASSERT_EQ(got[n].rows.size(), want[n].rows.size()) << n;
      if (!got[n].rows.empty()) {
        ASSERT_EQ(got[n].rows[0][0].as_int(), want[n].rows[0][0].as_int()) << n;
      }
    }
  }
}

// A transaction that waits for each split update before it makes the next (as a SQL
// UPDATE ... RETURNING INTO does) may have two pieces on one other core, queued at the
// same serial position in either order. That core must run whichever is posted first:
// waiting for the other would deadlock with the transaction waiting for this one. The
// updates are made in a random order per transaction, so both queue orders occur.
TEST(StressTest, SplitPiecesWaitedOneByOne) {
  constexpr int kHot = 3;
  KvWithReference kv;
  auto& [db, ref, t, rt] = kv;
  for (int k = 0; k < kHot; ++k) kv.Load(k, 1);
  auto make = [](TableId table) {
    return LambdaProcedure(
        "hot_rmw_waited",
        [table](DeclareContext& c) {
          for (int k = 0; k < kHot; ++k) c.DeclareRowUpdate(table, K(k), 1);
        },
        [table](ExecContext& c) {
          const auto& a = c.input().args;
          c.Publish();
          const Schema* s = &c.table(table).schema();
          int64_t seen = 0;
          for (int i = 0; i < kHot; ++i) {
            const int64_t mul = a[static_cast<size_t>(kHot + i)].as_int();
            int64_t before = 0;
            RowUpdateFuture f = c.ApplyRowUpdate(
                table, K(a[static_cast<size_t>(i)].as_int()),
                [s, mul, &before](const RowValue& old) {
                  before = old.GetInt(1);
                  return RowBuilder(*s, old).SetInt(1, (old.GetInt(1) * mul + 7) % 1000003).Build();
                },
                1);
            if (!f.Wait()) throw std::logic_error("hot row missing");
            seen = (seen * 31 + before) % 1000003;
          }
          c.Emit({Value::Int(seen)});
        });
  };
  LambdaProcedure proc = make(t), ref_proc = make(rt);
  // A deadlock hangs the engine: fail the test instead of waiting for ctest's timeout.
  std::atomic<bool> finished{false};
  std::thread watchdog([&finished] {
    for (int i = 0; i < 1200 && !finished.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!finished.load()) {
      std::fprintf(stderr, "SplitPiecesWaitedOneByOne: no progress for 120 s (deadlock)\n");
      std::_Exit(1);
    }
  });
  for (int workers : {2, 3}) {
    Engine engine(db, SplittingEveryUpdate(workers, 400));
    std::mt19937_64 rng(11 + workers);
    std::vector<TxnResult> got(4000), want(4000);
    for (size_t n = 0; n < got.size(); ++n) {
      std::vector<int64_t> order(kHot);
      for (int k = 0; k < kHot; ++k) order[static_cast<size_t>(k)] = k;
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<Value> args;
      for (int64_t k : order) args.push_back(Value::Int(k));
      for (int i = 0; i < kHot; ++i) args.push_back(Value::Int(static_cast<int64_t>(rng() % 5 + 2)));
      SubmitTo(engine, proc, args, &got[n]);
      SubmitTo(ref, ref_proc, args, &want[n]);
    }
    engine.Drain();
    EXPECT_GT(engine.stats().split_pieces, 1000u) << workers;
    EXPECT_EQ(StateHash(db), StateHash(ref)) << workers;
    for (size_t n = 0; n < got.size(); ++n) {
      ASSERT_EQ(got[n].status, want[n].status) << n;
      ASSERT_EQ(got[n].rows.size(), 1u) << n;
      ASSERT_EQ(got[n].rows[0][0].as_int(), want[n].rows[0][0].as_int()) << n;
    }
  }
  finished = true;
  watchdog.join();
}

}  // namespace
}  // namespace caracal::engine::testing
