// A procedure that needs a solo epoch runs alone in its epoch, in submission order among
// the others, writes rows it never declared and draws sequence values as it runs; any
// other procedure is refused both.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/execution/engine.h"
#include "engine/execution/reference_executor.h"
#include "engine/storage/database.h"
#include "tests/engine/test_util.h"

namespace caracal::engine::testing {
namespace {

// Reads kv[1] and writes kv[v + 100] = nextval, a key no Declare could know. The read
// also sees whether an earlier transaction of the same epoch ran first.
LambdaProcedure Chaser(TableId t) {
  LambdaProcedure p(
      "chaser", [](DeclareContext&) {},
      [t](ExecContext& c) {
        const RowValue* row = c.Read(t, K(1));
        const int64_t v = row ? row->GetInt(1) : 0;
        const int64_t drawn = c.NextVal("ids");
        c.Insert(t, K(v + 100), RowBuilder(c.table(t).schema()).SetInt(0, v + 100).SetInt(1, drawn).Build());
        c.Update(t, K(1), RowBuilder(c.table(t).schema()).SetInt(0, 1).SetInt(1, v + 1).Build());
      });
  p.set_solo(true);
  return p;
}

// Increments kv[1], declared as usual.
LambdaProcedure Bump(TableId t) {
  return LambdaProcedure(
      "bump", [t](DeclareContext& c) { c.DeclareWrite(t, K(1), WriteKind::kUpdate); },
      [t](ExecContext& c) {
        const int64_t v = c.Read(t, K(1))->GetInt(1);
        c.Update(t, K(1), RowBuilder(c.table(t).schema()).SetInt(0, 1).SetInt(1, v + 1).Build());
      });
}

template <typename Store>
std::vector<std::pair<int64_t, int64_t>> Rows(const Store& s, TableId t) {
  std::vector<std::pair<int64_t, int64_t>> out;
  s.ForEachCommittedRow(t, [&](const Key&, const RowValue& r) { out.emplace_back(r.GetInt(0), r.GetInt(1)); });
  std::sort(out.begin(), out.end());
  return out;
}

// bump, chaser, bump, bump, chaser, chaser, bump: each chaser sees exactly the bumps
// and chasers before it in submission order.
template <typename Ex, typename Store>
void SubmitMix(Ex& ex, Store& store, TableId t, std::vector<TxnResult>& results) {
  store.sequences().Create("ids", 10, 5);
  static const char kMix[] = "bcbbccb";
  LambdaProcedure chaser = Chaser(t), bump = Bump(t);
  results.resize(sizeof(kMix) - 1);
  for (size_t i = 0; i + 1 < sizeof(kMix); ++i) SubmitTo(ex, kMix[i] == 'c' ? chaser : bump, {}, &results[i]);
  ex.Drain();
}

const std::vector<std::pair<int64_t, int64_t>> kExpected = {
    {1, 7}, {101, 10}, {104, 15}, {105, 20}};

TEST(SoloEpochTest, UndeclaredWritesAndLiveDrawsFollowSubmissionOrder) {
  for (int workers : {1, 2}) {
    for (uint32_t max_txns : {1u, 3u, 100u}) {
      Database db;
      TableId t = CreateKv(db);
      db.LoadRow(t, KvRow(db, t, 1, 0));
      EngineOptions opts;
      opts.workers = workers;
      opts.epoch_max_txns = max_txns;
      opts.epoch_interval_ms = 60000;
      Engine engine(db, opts);
      std::vector<TxnResult> results;
      SubmitMix(engine, db, t, results);
      for (const TxnResult& r : results) EXPECT_EQ(r.status, TxnResult::Status::kCommitted) << r.message;
      EXPECT_EQ(Rows(db, t), kExpected) << "workers " << workers << ", epoch_max_txns " << max_txns;
      // Each chaser had an epoch of its own.
      std::set<uint64_t> chaser_epochs;
      for (size_t i : {1, 4, 5}) chaser_epochs.insert(results[i].serial_id >> 32);
      EXPECT_EQ(chaser_epochs.size(), 3u);
    }
  }
  ReferenceExecutor ref;
  TableId t = CreateKv(ref);
  ref.LoadRow(t, KvRow(ref, t, 1, 0));
  std::vector<TxnResult> results;
  SubmitMix(ref, ref, t, results);
  EXPECT_EQ(Rows(ref, t), kExpected);
}

TEST(SoloEpochTest, OtherProceduresMayNotWriteUndeclaredRowsOrDrawLive) {
  Database db;
  TableId t = CreateKv(db);
  db.sequences().Create("ids");
  EngineOptions opts;
  opts.workers = 2;
  Engine engine(db, opts);
  LambdaProcedure draws("draws", [](DeclareContext&) {}, [](ExecContext& c) { c.NextVal("ids"); });
  LambdaProcedure writes("writes", [](DeclareContext&) {}, [t](ExecContext& c) {
    c.Insert(t, K(5), RowBuilder(c.table(t).schema()).SetInt(0, 5).SetInt(1, 5).Build());
  });
  TxnResult a, b;
  SubmitTo(engine, draws, {}, &a);
  SubmitTo(engine, writes, {}, &b);
  engine.Drain();
  EXPECT_EQ(a.status, TxnResult::Status::kAborted);
  EXPECT_NE(a.message.find("outside a solo epoch"), std::string::npos) << a.message;
  EXPECT_EQ(b.status, TxnResult::Status::kAborted);
  EXPECT_NE(b.message.find("not declared"), std::string::npos) << b.message;
  EXPECT_TRUE(db.sequences().TakeAdvanced().empty());  // nothing drawn
  EXPECT_FALSE(CommittedV(db, t, 5).has_value());
}

}  // namespace
}  // namespace caracal::engine::testing
