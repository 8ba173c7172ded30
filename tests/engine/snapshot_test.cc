// Snapshot reads of the last committed epoch, taken while later epochs run, see whole
// epochs only.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

TEST(SnapshotTest, SeesWholeEpochsOnlyWhileEpochsRun) {
  constexpr uint32_t kEpoch = 50;
  constexpr int kEpochs = 200;
  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 0));
  db.LoadRow(t, KvRow(db, t, 2, 0));
  EngineOptions o;
  o.workers = 2;
  o.epoch_max_txns = kEpoch;
  o.epoch_interval_ms = 60000;  // epochs close only when full
  Engine engine(db, o);
  // Each transaction adds 1 to row 1 and row 2 (so snapshots must see them equal) and
  // every epoch holds exactly kEpoch transactions (so row 1 is a multiple of kEpoch).
  LambdaProcedure both(
      "both",
      [t](DeclareContext& c) {
        c.DeclareWrite(t, K(1), WriteKind::kUpdate);
        c.DeclareWrite(t, K(2), WriteKind::kUpdate);
      },
      [t](ExecContext& c) {
        const Schema& s = c.table(t).schema();
        c.Publish();
        for (int k : {1, 2}) {
          const RowValue* old = c.Read(t, K(k));
          c.Update(t, K(k), RowBuilder(s, *old).SetInt(1, old->GetInt(1) + 1).Build());
        }
      });
  std::atomic<bool> done{false};
  std::atomic<int> snapshots{0}, torn{0}, partial{0};
  std::thread reader([&] {
    while (!done.load()) {
      Snapshot snap(db);
      const RowValue* a = snap.Read(t, K(1));
      std::this_thread::yield();  // let epochs commit while the snapshot is open
      const RowValue* b = snap.Read(t, K(2));
      if (a->GetInt(1) != b->GetInt(1)) ++torn;
      if (a->GetInt(1) % kEpoch != 0) ++partial;
      if (static_cast<uint32_t>(a->GetInt(1)) != snap.epoch() * kEpoch) ++partial;
      ++snapshots;
    }
  });
  for (uint32_t i = 0; i < kEpoch * kEpochs; ++i) SubmitTo(engine, both, {}, nullptr);
  engine.Drain();
  done = true;
  reader.join();
  EXPECT_GT(snapshots.load(), 0);
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(partial.load(), 0);
  EXPECT_EQ(CommittedV(db, t, 1), kEpoch * kEpochs);
}

}  // namespace
}  // namespace caracal::engine::testing
