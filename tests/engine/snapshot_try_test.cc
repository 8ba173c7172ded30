// Snapshot tries (engine/execution/snapshot_try.h): a transaction run against the last
// committed epoch, on the caller's thread, sees its own writes and leaves nothing behind;
// what it cannot do there (draw a sequence value, retry) sends it back to the engine.
// And adaptive epoch start: a lone transaction does not wait for the epoch interval.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "engine/execution/engine.h"
#include "engine/execution/snapshot_try.h"
#include "engine/storage/database.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

// Adds args[0] to row 1, inserts row 10, then emits every row it sees by a scan.
LambdaProcedure AddAndScan(TableId t) {
  return LambdaProcedure(
      "add_and_scan",
      [t](DeclareContext& c) {
        c.DeclareWrite(t, K(1), WriteKind::kUpdate);
        c.DeclareWrite(t, K(10), WriteKind::kInsert);
      },
      [t](ExecContext& c) {
        const Schema& s = c.table(t).schema();
        const RowValue* old = c.Read(t, K(1));
        c.Update(t, K(1), RowBuilder(s, *old).SetInt(1, old->GetInt(1) + c.input().args[0].as_int()).Build());
        c.Insert(t, K(10), RowBuilder(s).SetInt(0, 10).SetInt(1, 100).Build());
        c.Scan(t, Key(), Key(), [&](const Key&, const RowValue& row) {
          c.Emit({Value::Int(row.GetInt(0)), Value::Int(row.GetInt(1))});
          return true;
        });
      });
}

TEST(SnapshotTryTest, SeesItsOwnWritesAndWritesNothing) {
  Database db;
  TableId t = CreateKv(db);
  for (int k : {1, 2, 20}) db.LoadRow(t, KvRow(db, t, k, k));
  LambdaProcedure proc = AddAndScan(t);
  WorkerScratch scratch;
  TxnInput in;
  in.args = {Value::Int(5)};
  std::optional<TxnResult> r = RunOnSnapshot(db, proc, in, scratch);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->status, TxnResult::Status::kCommitted) << r->message;
  // The scan merges the snapshot with the overlay in key order: 1 (updated), 2, 10 (new), 20.
  ASSERT_EQ(r->rows.size(), 4u);
  EXPECT_EQ(r->rows[0][1].as_int(), 6);
  EXPECT_EQ(r->rows[1][0].as_int(), 2);
  EXPECT_EQ(r->rows[2][0].as_int(), 10);
  EXPECT_EQ(r->rows[3][0].as_int(), 20);
  EXPECT_EQ(CommittedV(db, t, 1), 1);
  EXPECT_EQ(CommittedV(db, t, 10), std::nullopt);
}

TEST(SnapshotTryTest, ReadsTheLastCommittedEpochWhileTheEngineRuns) {
  Database db;
  TableId t = CreateKv(db);
  for (int k : {1, 2, 20}) db.LoadRow(t, KvRow(db, t, k, k));
  EngineOptions o;
  o.workers = 2;
  o.epoch_interval_ms = 1;
  Engine engine(db, o);
  LambdaProcedure proc = AddAndScan(t);
  TxnResult committed;
  SubmitTo(engine, proc, {Value::Int(7)}, &committed);
  engine.Drain();
  ASSERT_EQ(CommittedV(db, t, 1), 8);
  WorkerScratch scratch;
  TxnInput in;
  in.args = {Value::Int(1)};
  // Row 10 exists now: the try's insert finds a duplicate and reports it, writing nothing.
  LambdaProcedure insert_again(
      "insert_again", [t](DeclareContext& c) { c.DeclareWrite(t, K(10), WriteKind::kInsert); },
      [t](ExecContext& c) {
        if (!c.Insert(t, K(10), RowBuilder(c.table(t).schema()).SetInt(0, 10).SetInt(1, 0).Build()))
          c.Abort("23505", "duplicate");
      });
  std::optional<TxnResult> dup = RunOnSnapshot(db, insert_again, in, scratch);
  ASSERT_TRUE(dup.has_value());
  EXPECT_EQ(dup->sqlstate, "23505");
  // The committed 8, plus 1; the committed row 10 (the try's own insert was a duplicate).
  std::optional<TxnResult> r = RunOnSnapshot(db, proc, in, scratch);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->rows.size(), 4u);
  EXPECT_EQ(r->rows[0][1].as_int(), 9);
  EXPECT_EQ(r->rows[2][1].as_int(), 100);
  EXPECT_EQ(CommittedV(db, t, 1), 8);
}

TEST(SnapshotTryTest, SequenceDrawsAndRetriesGoToTheEngine) {
  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 1));
  db.sequences().Create("ids");
  class Draws final : public Procedure {
   public:
    const std::string& name() const override { return name_; }
    void Sequence(SequenceContext& ctx, TxnInput& input) const override { input.sequence_values.push_back(ctx.NextVal("ids")); }
    void Declare(DeclareContext&) const override {}
    void Execute(ExecContext&) const override {}

   private:
    std::string name_ = "draws";
  } draws;
  WorkerScratch scratch;
  EXPECT_FALSE(RunOnSnapshot(db, draws, {}, scratch).has_value());
  EXPECT_TRUE(db.sequences().TakeAdvanced().empty());  // nothing drawn
  LambdaProcedure retries("retries", [](DeclareContext&) {}, [](ExecContext& c) { c.Retry(); });
  EXPECT_FALSE(RunOnSnapshot(db, retries, {}, scratch).has_value());
}

TEST(AdaptiveEpochStartTest, ALoneTransactionDoesNotWaitForTheInterval) {
  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 1));
  EngineOptions o;
  o.workers = 2;
  o.epoch_interval_ms = 60000;
  o.adaptive_epoch_start = true;
  Engine engine(db, o);
  LambdaProcedure bump(
      "bump", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
      [t](ExecContext& c) {
        const RowValue* old = c.Read(t, K(1));
        c.Update(t, K(1), RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1).Build());
      });
  for (int i = 0; i < 20; ++i) {
    std::promise<void> done;
    TxnRequest r;
    r.procedure = &bump;
    r.on_done = [&done](TxnResult&&) { done.set_value(); };
    engine.Submit(std::move(r));
    // Without adaptive start this waits 60 s: only the interval or a full epoch closes it.
    ASSERT_EQ(done.get_future().wait_for(std::chrono::seconds(20)), std::future_status::ready) << "call " << i;
  }
  EXPECT_EQ(CommittedV(db, t, 1), 21);
}

}  // namespace
}  // namespace caracal::engine::testing
