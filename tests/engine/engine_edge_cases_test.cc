// Edge cases of the procedure API, each found in review as a divergence between the epoch
// engine and the serial reference executor (or a memory error), kept as regressions.
#include <gtest/gtest.h>

#include <memory>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/types/errors.h"
#include "engine/execution/reference_executor.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

std::unique_ptr<Engine> OneEpochEngine(Database& db, int workers = 2, uint32_t max_txns = 1000, bool gc = true) {
  EngineOptions o;
  o.workers = workers;
  o.epoch_max_txns = max_txns;
  o.epoch_interval_ms = 60000;
  o.gc = gc;
  return std::make_unique<Engine>(db, o);
}

// F1: write before Publish(), then write the same row again after Publish().
TEST(EngineEdgeCasesTest, WriteBeforeAndAfterPublish) {
  auto make = [](TableId t) {
    return LambdaProcedure(
        "twice", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          const Schema& s = c.table(t).schema();
          c.Update(t, K(1), RowBuilder(s).SetInt(0, 1).SetInt(1, 11).Build());
          c.Publish();
          c.Update(t, K(1), RowBuilder(s).SetInt(0, 1).SetInt(1, 22).Build());
        });
  };
  ReferenceExecutor ref;
  TableId rt = CreateKv(ref);
  ref.LoadRow(rt, KvRow(ref, rt, 1, 0));
  auto rp = make(rt);
  TxnResult rr;
  SubmitTo(ref, rp, {}, &rr);

  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 0));
  auto engine = OneEpochEngine(db);
  auto p = make(t);
  TxnResult er;
  SubmitTo(*engine, p, {}, &er);
  engine->Drain();
  EXPECT_EQ(StateHash(db), StateHash(ref));
  EXPECT_EQ(er.status, TxnResult::Status::kAborted) << "a reader may already have seen the first write";
  EXPECT_EQ(er.status, rr.status);
}

// F2: a retried transaction takes its new serial id's place (after the rest of its
// epoch). With one transaction per epoch that is its submission place, and the outcome
// equals the serial reference; with larger epochs it is the same for every worker count.
TEST(EngineEdgeCasesTest, RetryTakesItsNewSerialPlaceDeterministically) {
  auto setup = [](Store& store) {
    TableId t = CreateKv(store);
    store.LoadRow(t, KvRow(store, t, 0, 3));
    for (int k = 3; k <= 5; ++k) store.LoadRow(t, KvRow(store, t, k, 0));
    return t;
  };
  auto follow = [](TableId t) {
    return LambdaProcedure(
        "follow",
        [t](DeclareContext& c) {
          const RowValue* ptr = c.ReadCommitted(t, K(0));
          c.DeclareWrite(t, K(ptr->GetInt(1)), WriteKind::kUpdate);
          c.scratch().push_back(Value::Int(ptr->GetInt(1)));
        },
        [t](ExecContext& c) {
          int64_t now = c.Read(t, K(0))->GetInt(1);
          if (now != c.scratch().at(0).as_int()) {
            c.Retry();
            return;
          }
          c.Publish();
          const RowValue* old = c.Read(t, K(now));
          c.Update(t, K(now), RowBuilder(c.table(t).schema(), *old).SetInt(1, old->GetInt(1) + 1).Build());
        });
  };
  auto repoint = [](TableId t) {
    return LambdaProcedure(
        "repoint", [t](DeclareContext& c) { c.DeclareWrite(t, K(0), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          c.Publish();
          c.Update(t, K(0), RowBuilder(c.table(t).schema()).SetInt(0, 0).SetInt(1, c.input().args[0].as_int()).Build());
        });
  };
  ReferenceExecutor ref;
  TableId rt = setup(ref);
  auto rf = follow(rt), rr = repoint(rt);
  SubmitTo(ref, rr, {Value::Int(5)}, nullptr);
  SubmitTo(ref, rf, {}, nullptr);
  SubmitTo(ref, rr, {Value::Int(3)}, nullptr);
  for (uint32_t epoch : {1u, 1000u}) {
    std::optional<uint64_t> first;
    for (int workers : {1, 2, 4}) {
      Database db;
      TableId t = setup(db);
      auto engine = OneEpochEngine(db, workers, epoch);
      auto f = follow(t), r = repoint(t);
      SubmitTo(*engine, r, {Value::Int(5)}, nullptr);
      SubmitTo(*engine, f, {}, nullptr);
      SubmitTo(*engine, r, {Value::Int(3)}, nullptr);
      engine->Drain();
      if (epoch == 1) {
        EXPECT_EQ(StateHash(db), StateHash(ref)) << workers;
      }
      if (!first) first = StateHash(db);
      EXPECT_EQ(StateHash(db), *first) << "epoch " << epoch << " workers " << workers;
      if (epoch == 1000) {
        EXPECT_EQ(CommittedV(db, t, 3), 1) << "it retried after the second repoint";
      }
    }
  }
}

// A procedure that always asks to retry gives up with 40001 instead of looping forever.
TEST(EngineEdgeCasesTest, EndlessRetryGivesUp) {
  Database db;
  TableId t = CreateKv(db);
  auto engine = OneEpochEngine(db, 2, 10);
  LambdaProcedure p("always_retry", [](DeclareContext&) {}, [](ExecContext& c) { c.Retry(); });
  TxnResult r;
  SubmitTo(*engine, p, {}, &r);
  engine->Drain();
  EXPECT_EQ(r.status, TxnResult::Status::kAborted);
  EXPECT_EQ(r.sqlstate, "40001");
  (void)t;
}

// F3: Delete of a key inside a declared range that does not exist at the writer's position.
// Reference: not in the write set -> ApiMisuse. Engine: depends on whether a dead Row
// object lingers in the index (GC / compaction state).
TEST(EngineEdgeCasesTest, WriteOfAbsentKeyInsideDeclaredRange) {
  auto setup = [](Store& s) {
    TableId t = CreateKv(s);
    s.LoadRow(t, KvRow(s, t, 12, 1));
    return t;
  };
  auto del_point = [](TableId t) {
    return LambdaProcedure(
        "del12", [t](DeclareContext& c) { c.DeclareWrite(t, K(12), WriteKind::kDelete); },
        [t](ExecContext& c) { c.Delete(t, K(12)); });
  };
  auto range_then_point = [](TableId t) {
    return LambdaProcedure(
        "range_delete_12", [t](DeclareContext& c) { c.DeclareRange(t, K(10), K(20), RangeKind::kDelete); },
        [t](ExecContext& c) { c.Emit({Value::Bool(c.Delete(t, K(12)))}); });
  };
  ReferenceExecutor ref;
  TableId rt = setup(ref);
  auto rd = del_point(rt), rr = range_then_point(rt);
  TxnResult r1;
  SubmitTo(ref, rd, {}, nullptr);
  SubmitTo(ref, rr, {}, &r1);

  Database db;
  TableId t = setup(db);
  auto engine = OneEpochEngine(db, 1, 1);  // one txn per epoch: the delete commits first
  auto d = del_point(t), r = range_then_point(t);
  TxnResult e1;
  SubmitTo(*engine, d, {}, nullptr);
  SubmitTo(*engine, r, {}, &e1);
  engine->Drain();
  EXPECT_EQ(e1.status, r1.status);
  EXPECT_EQ(e1.status, TxnResult::Status::kCommitted) << e1.message;
  ASSERT_EQ(e1.rows.size(), 1u);
  EXPECT_FALSE(e1.rows[0][0].as_bool()) << "nothing to delete";
}

// F4: Sequence() fails, but the engine still runs Declare(), whose error replaces the
// sequencing error (and Declare sees incomplete sequence_values).
class SeqProc final : public Procedure {
 public:
  explicit SeqProc(TableId t) : t_(t) {}
  const std::string& name() const override { return name_; }
  void Sequence(SequenceContext& ctx, TxnInput& in) const override {
    in.sequence_values.push_back(ctx.NextVal("no_such_sequence"));
  }
  void Declare(DeclareContext& ctx) const override {
    ctx.DeclareWrite(t_, K(ctx.input().sequence_values.at(0)), WriteKind::kInsert);
  }
  void Execute(ExecContext&) const override {}

 private:
  TableId t_;
  std::string name_ = "seq";
};

TEST(EngineEdgeCasesTest, DeclareRunsAfterSequenceFailed) {
  ReferenceExecutor ref;
  TableId rt = CreateKv(ref);
  SeqProc rp(rt);
  TxnResult rr;
  SubmitTo(ref, rp, {}, &rr);
  Database db;
  TableId t = CreateKv(db);
  auto engine = OneEpochEngine(db);
  SeqProc p(t);
  TxnResult er;
  SubmitTo(*engine, p, {}, &er);
  engine->Drain();
  EXPECT_EQ(er.message, rr.message);
  EXPECT_NE(er.message.find("no_such_sequence"), std::string::npos) << er.message;
}

// F5: with gc=false an ignore marker is the newest entry; LoadRow's duplicate check
// looks only at the newest entry and silently accepts a duplicate primary key.
TEST(EngineEdgeCasesTest, LoadRowDuplicateAfterIgnoreMarkerWithGcOff) {
  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 10));
  {
    auto engine = OneEpochEngine(db, 1, 1000, /*gc=*/false);
    LambdaProcedure noop("declare_only", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
                         [](ExecContext&) {});
    SubmitTo(*engine, noop, {}, nullptr);
    engine->Drain();
  }
  bool threw = false;
  try {
    db.LoadRow(t, KvRow(db, t, 1, 99));
  } catch (const EngineError&) {
    threw = true;
  }
  EXPECT_TRUE(threw);
}

// F6: a pointer returned by Read() for the transaction's own write dies at its next write
// of the same row (ASan: heap-use-after-free in the engine AND in the reference).
TEST(EngineEdgeCasesTest, ReadPointerToOwnWriteDanglesAfterRewrite) {
  Database db;
  TableId t = CreateKv(db);
  db.LoadRow(t, KvRow(db, t, 1, 10));
  auto engine = OneEpochEngine(db);
  int64_t seen = 0;
  LambdaProcedure p(
      "rewrite", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
      [t, &seen](ExecContext& c) {
        const Schema& s = c.table(t).schema();
        c.Update(t, K(1), RowBuilder(s).SetInt(0, 1).SetInt(1, 11).Build());
        const RowValue* mine = c.Read(t, K(1));
        c.Update(t, K(1), RowBuilder(s).SetInt(0, 1).SetInt(1, 12).Build());
        seen = mine->GetInt(1);  // use after free
      });
  SubmitTo(*engine, p, {}, nullptr);
  engine->Drain();
  EXPECT_EQ(seen, 11) << "a pointer Read() returned stays valid until the transaction ends";
}

// Rows deleted while a snapshot was open are collected, and leave the index, once the
// snapshot is closed (the major collector revisits what a pin held back).
TEST(EngineEdgeCasesTest, RowsDeletedUnderAnOpenSnapshotAreCollectedLater) {
  Database db;
  TableId t = CreateKv(db);
  EngineOptions o;
  o.workers = 2;
  o.epoch_max_txns = 100000;
  o.epoch_interval_ms = 60000;
  o.gc_k = 1;
  Engine engine(db, o);
  LambdaProcedure put(
      "put", [t](DeclareContext& c) { c.DeclareWrite(t, K(c.input().args[0].as_int()), WriteKind::kUpsert); },
      [t](ExecContext& c) {
        int64_t k = c.input().args[0].as_int();
        c.Upsert(t, K(k), RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, k).Build());
      });
  LambdaProcedure del(
      "del", [t](DeclareContext& c) { c.DeclareWrite(t, K(c.input().args[0].as_int()), WriteKind::kDelete); },
      [t](ExecContext& c) { c.Delete(t, K(c.input().args[0].as_int())); });
  int64_t next = 0;
  auto churn = [&] {  // one epoch inserting 3000 keys, one deleting them
    for (int i = 0; i < 3000; ++i) SubmitTo(engine, put, {Value::Int(next + i)}, nullptr);
    engine.Drain();
    for (int i = 0; i < 3000; ++i) SubmitTo(engine, del, {Value::Int(next + i)}, nullptr);
    engine.Drain();
    next += 3000;
  };
  {
    Snapshot pinned(db);
    for (int i = 0; i < 5; ++i) churn();
  }
  for (int i = 0; i < 5; ++i) churn();
  EXPECT_GT(engine.stats().rows_erased, 15000u);
  EXPECT_LT(db.table(t).ApproximateRows(), 12000u);
}

}  // namespace
}  // namespace caracal::engine::testing
