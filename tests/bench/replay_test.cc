// Recovery by replay of the benchmark workloads: a logged run replayed from its log
// (after the workload's deterministic load, or after a checkpoint taken while the run
// went on) reaches the run's state hash, for other worker counts and with
// split-on-demand pieces. (The engine-level cases are in log_test.)
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>

#include "bench/runner.h"
#include "bench/workload.h"
#include "engine/durability/checkpoint.h"
#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/durability/log_replay.h"
#include "engine/log/log_writer.h"
#include "tests/engine/temp_dir.h"

namespace caracal {
namespace {

using engine::testing::TempDir;

class WorkloadHost final : public engine::ReplayHost {
 public:
  explicit WorkloadHost(const bench::Workload& w) {
    for (const engine::Procedure* p : w.procedures()) by_identity_[std::string(p->log_identity())] = p;
  }
  std::shared_ptr<const engine::Procedure> Resolve(std::string_view identity) override {
    auto it = by_identity_.find(std::string(identity));
    return it == by_identity_.end() ? nullptr : std::shared_ptr<const engine::Procedure>(std::shared_ptr<const engine::Procedure>(), it->second);
  }
  void ReplayDdl(const std::string& sql) override { FAIL() << "unexpected DDL " << sql; }

 private:
  std::map<std::string, const engine::Procedure*> by_identity_;
};

std::string Hex(uint64_t h) { return fmt::format("{:016x}", h); }

// Replays `dir`'s log on a fresh load of the workload with `workers` workers.
uint64_t ReplayOnFreshLoad(const bench::RunOptions& run, const std::filesystem::path& dir, int workers,
                           engine::ReplayStats* stats = nullptr) {
  std::unique_ptr<bench::Workload> w = bench::MakeWorkload(run.workload, run.workload_options);
  engine::Database db;
  w->Setup(db, {});
  WorkloadHost host(*w);
  engine::EngineOptions options = run.engine;
  options.workers = workers;
  engine::LogScan scan = engine::LogScan::Scan(dir / "log");
  EXPECT_FALSE(scan.cut().has_value());
  {
    engine::Engine engine(db, options);
    engine::ReplayStats s = ReplayLog(scan, 0, engine, db, host);
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
    engine::ReplayStats stats;
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

}  // namespace
}  // namespace caracal
