// Recovery by replay, at the engine level: a logged run replayed from its log (after the
// workload's deterministic load, or after a checkpoint taken while the run went on)
// reaches the run's state hash, for any worker count and split-on-demand setting;
// transactions that retried after a failed reconnaissance replay as logged; a procedure
// without a log identity cannot run on a logged engine.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <map>

#include "bench/runner.h"
#include "bench/workload.h"
#include "engine/checkpoint.h"
#include "engine/database.h"
#include "engine/engine.h"
#include "engine/log_replay.h"
#include "engine/log_writer.h"
#include "tests/temp_dir.h"
#include "tests/test_util.h"

namespace caracal {
namespace {

using testing::TempDir;

class WorkloadHost final : public ReplayHost {
 public:
  explicit WorkloadHost(const bench::Workload& w) {
    for (const Procedure* p : w.procedures()) by_identity_[std::string(p->log_identity())] = p;
  }
  std::shared_ptr<const Procedure> Resolve(std::string_view identity) override {
    auto it = by_identity_.find(std::string(identity));
    return it == by_identity_.end() ? nullptr : std::shared_ptr<const Procedure>(std::shared_ptr<const Procedure>(), it->second);
  }
  void ReplayDdl(const std::string& sql) override { FAIL() << "unexpected DDL " << sql; }

 private:
  std::map<std::string, const Procedure*> by_identity_;
};

std::string Hex(uint64_t h) { return fmt::format("{:016x}", h); }

// Replays `dir`'s log on a fresh load of the workload with `workers` workers.
uint64_t ReplayOnFreshLoad(const bench::RunOptions& run, const std::filesystem::path& dir, int workers,
                           ReplayStats* stats = nullptr) {
  std::unique_ptr<bench::Workload> w = bench::MakeWorkload(run.workload, run.workload_options);
  Database db;
  w->Setup(db, {});
  WorkloadHost host(*w);
  EngineOptions options = run.engine;
  options.workers = workers;
  LogScan scan = LogScan::Scan(dir / "log");
  EXPECT_FALSE(scan.cut().has_value());
  {
    Engine engine(db, options);
    ReplayStats s = ReplayLog(scan, 0, engine, db, host);
    if (stats) *stats = s;
  }
  return StateHash(db);
}

struct Case {
  std::string workload;
  uint64_t txns;
  uint32_t epoch_txns;
};

class ReplayTest : public ::testing::TestWithParam<Case> {};

TEST_P(ReplayTest, LongLogReplaysToTheRunsStateOnAnyWorkerCount) {
  const Case& c = GetParam();
  TempDir dir;
  bench::RunOptions run;
  run.workload = c.workload;
  run.workload_options.keys = 20'000;
  run.workload_options.warehouses = 2;
  run.txns = c.txns;
  run.engine.workers = 2;
  run.engine.epoch_max_txns = c.epoch_txns;
  run.engine.split_threshold = 8;  // contended rows split: pieces replay too
  run.log_dir = (dir.path() / "run").string();
  const bench::RunResult original = bench::RunWorkload(run);
  ASSERT_EQ(original.report["txns"], c.txns);
  // TPC-C's load is slow to repeat: one other worker count for it, two for YCSB.
  const std::vector<int> worker_counts = c.workload == "tpcc-1wh" ? std::vector<int>{3} : std::vector<int>{1, 3};
  for (int workers : worker_counts) {
    ReplayStats stats;
    EXPECT_EQ(Hex(ReplayOnFreshLoad(run, dir.path() / "run", workers, &stats)), Hex(original.state_hash))
        << c.workload << " replayed on " << workers << " workers";
    EXPECT_EQ(stats.txns, c.txns);
    EXPECT_EQ(stats.epochs, original.report["epochs"].get<uint64_t>());
  }
}

TEST_P(ReplayTest, CheckpointWrittenDuringTheRunPlusTheLogAfterItRecovers) {
  const Case& c = GetParam();
  TempDir dir;
  bench::RunOptions run;
  run.workload = c.workload;
  run.workload_options.keys = 20'000;
  run.workload_options.warehouses = 2;
  run.txns = c.txns;
  run.engine.workers = 2;
  run.engine.epoch_max_txns = c.epoch_txns;
  run.log_dir = (dir.path() / "run").string();
  run.checkpoint = true;
  run.recover = true;  // throws if the recovered state hash differs
  const bench::RunResult r = bench::RunWorkload(run);
  EXPECT_EQ(r.report["recovered_state_hash"], r.report["state_hash"]);
  EXPECT_GT(r.report["checkpoint_rows"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Workloads, ReplayTest,
                         ::testing::Values(Case{"ycsb-contention", 4000, 400}, Case{"tpcc-1wh", 3000, 97}),
                         [](const auto& info) {
                           std::string n = info.param.workload;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// A procedure of the kv tests with a log identity.
class Named final : public Procedure {
 public:
  Named(std::string name, testing::LambdaProcedure::DeclareFn d, testing::LambdaProcedure::ExecuteFn e)
      : inner_(name, std::move(d), std::move(e)), identity_("test:" + name) {}
  const std::string& name() const override { return inner_.name(); }
  void Declare(DeclareContext& ctx) const override { inner_.Declare(ctx); }
  void Execute(ExecContext& ctx) const override { inner_.Execute(ctx); }
  std::string_view log_identity() const override { return identity_; }

 private:
  testing::LambdaProcedure inner_;
  std::string identity_;
};

class MapHost final : public ReplayHost {
 public:
  explicit MapHost(std::vector<const Procedure*> ps) {
    for (const Procedure* p : ps) m_[std::string(p->log_identity())] = p;
  }
  std::shared_ptr<const Procedure> Resolve(std::string_view id) override {
    auto it = m_.find(std::string(id));
    return it == m_.end() ? nullptr : std::shared_ptr<const Procedure>(std::shared_ptr<const Procedure>(), it->second);
  }
  void ReplayDdl(const std::string&) override {}

 private:
  std::map<std::string, const Procedure*> m_;
};

TEST(ReplayRetries, ReconnaissanceRetriesReplayAsLogged) {
  // "follow": reads row 0's value v by reconnaissance and writes row v + 100; if v changed
  // before it runs, it retries in the next epoch. "bump" changes row 0 in the same epochs.
  TempDir dir;
  auto run = [&](Database& db, Engine& engine, Named& bump, Named& follow, std::vector<TxnResult>& results) {
    for (int i = 0; i < 60; ++i) {
      testing::SubmitTo(engine, (i % 3 == 0) ? bump : follow, {Value::Int(i)}, &results[i]);
    }
    engine.Drain();
  };
  auto make = [](TableId t) {
    Named bump(
        "bump", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(0), WriteKind::kUpdate); },
        [t](ExecContext& c) {
          const RowValue* r = c.Read(t, testing::K(0));
          c.Update(t, testing::K(0), RowBuilder(c.table(t).schema()).SetInt(0, 0).SetInt(1, r->GetInt(1) + 1).Build());
        });
    Named follow(
        "follow",
        [t](DeclareContext& c) {
          const RowValue* r = c.ReadCommitted(t, testing::K(0));
          const int64_t v = r ? r->GetInt(1) : 0;
          c.scratch().push_back(Value::Int(v));
          c.DeclareWrite(t, testing::K(v + 100), WriteKind::kUpsert);
        },
        [t](ExecContext& c) {
          const int64_t v = c.scratch()[0].as_int();
          const RowValue* r = c.Read(t, testing::K(0));
          if (r->GetInt(1) != v) {
            c.Retry();
            return;
          }
          c.Upsert(t, testing::K(v + 100),
                   RowBuilder(c.table(t).schema()).SetInt(0, v + 100).SetInt(1, c.input().args[0].as_int()).Build());
        });
    return std::make_pair(std::move(bump), std::move(follow));
  };
  uint64_t original_hash;
  uint64_t retries;
  {
    Database db;
    TableId t = testing::CreateKv(db);
    db.LoadRow(t, testing::KvRow(db, t, 0, 0));
    auto [bump, follow] = make(t);
    LogWriter log({dir.path() / "log"}, 1, {});
    EngineOptions o;
    o.workers = 2;
    o.epoch_max_txns = 8;
    o.epoch_interval_ms = 1000;
    std::vector<TxnResult> results(60);
    {
      Engine engine(db, o);
      engine.AttachLog(&log);
      run(db, engine, bump, follow, results);
      retries = engine.stats().retries;
    }
    original_hash = StateHash(db);
    uint32_t max_attempts = 0;
    for (const TxnResult& r : results) max_attempts = std::max(max_attempts, r.attempts);
    ASSERT_GT(max_attempts, 1u) << "the workload should make some transactions retry";
  }
  ASSERT_GT(retries, 0u);
  Database db;
  TableId t = testing::CreateKv(db);
  db.LoadRow(t, testing::KvRow(db, t, 0, 0));
  auto [bump, follow] = make(t);
  MapHost host({&bump, &follow});
  LogScan scan = LogScan::Scan(dir.path() / "log");
  for (int workers : {1}) {
    EngineOptions o;
    o.workers = workers;
    Engine engine(db, o);
    ReplayLog(scan, 0, engine, db, host);
  }
  EXPECT_EQ(Hex(StateHash(db)), Hex(original_hash));
}

TEST(ReplayIdentity, ProcedureWithoutLogIdentityFailsOnALoggedEngine) {
  TempDir dir;
  Database db;
  TableId t = testing::CreateKv(db);
  testing::LambdaProcedure anonymous(
      "anonymous", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(1), WriteKind::kUpsert); },
      [t](ExecContext& c) { c.Upsert(t, testing::K(1), RowBuilder(c.table(t).schema()).SetInt(0, 1).SetInt(1, 1).Build()); });
  LogWriter log({dir.path()}, 1, {});
  TxnResult result;
  {
    Engine engine(db, EngineOptions{});
    engine.AttachLog(&log);
    testing::SubmitTo(engine, anonymous, {}, &result);
    engine.Drain();
  }
  EXPECT_EQ(result.status, TxnResult::Status::kAborted);
  EXPECT_EQ(result.sqlstate, "0A000");
  EXPECT_FALSE(testing::CommittedV(db, t, 1).has_value());
}

TEST(ReplayCommit, ResultsWaitForTheLogUnlessSynchronousCommitIsOff) {
  TempDir dir;
  Database db;
  TableId t = testing::CreateKv(db);
  Named put(
      "put", [t](DeclareContext& c) { c.DeclareWrite(t, testing::K(c.input().args[0].as_int()), WriteKind::kUpsert); },
      [t](ExecContext& c) {
        const int64_t k = c.input().args[0].as_int();
        c.Upsert(t, testing::K(k), RowBuilder(c.table(t).schema()).SetInt(0, k).SetInt(1, k).Build());
      });
  LogWriter log({dir.path()}, 1, {});
  for (bool sync : {true, false}) {
    std::atomic<uint64_t> durable_at_result{0};
    std::atomic<int> done{0};
    {
      Engine engine(db, EngineOptions{});
      engine.AttachLog(&log);
      engine.set_synchronous_commit(sync);
      for (int i = 0; i < 50; ++i) {
        TxnRequest r;
        r.procedure = &put;
        r.input.args = {Value::Int(i + (sync ? 0 : 100))};
        r.on_done = [&](TxnResult&&) {
          durable_at_result = log.durable_lsn();
          ++done;
        };
        engine.Submit(std::move(r));
      }
      engine.Drain();
    }
    EXPECT_EQ(done.load(), 50);
    if (sync) EXPECT_GE(durable_at_result.load(), log.last_lsn()) << "a result went out before its epoch was durable";
  }
}

}  // namespace
}  // namespace caracal
