// Randomized determinism: for each workload and seed, the final state (StateHash) of the
// epoch engine equals the serial reference executor's, for every worker count and epoch
// size.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "bench/runner.h"

namespace caracal::bench {
namespace {

struct Case {
  std::string workload;
  uint64_t txns;
  std::vector<uint64_t> seeds;
};

// A workload's own consistency check (TPC-C) failed.
bool Failed(const nlohmann::json& report) {
  return report.contains("consistency") && report["consistency"] != "ok";
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.workload; }

class DeterminismTest : public ::testing::TestWithParam<Case> {};

TEST_P(DeterminismTest, EngineMatchesSerialReference) {
  const Case& c = GetParam();
  for (uint64_t seed : c.seeds) {
    RunOptions base;
    base.workload = c.workload;
    base.workload_options.keys = 20'000;
    base.workload_options.warehouses = 2;
    base.workload_options.seed = seed;
    base.txns = c.txns;
    RunOptions ref = base;
    ref.reference = true;
    const RunResult expected = RunWorkload(ref);
    ASSERT_FALSE(Failed(expected.report)) << expected.report.dump();
    for (int workers : {1, 2, 4}) {
      for (uint32_t epoch : {1u, 7u, 1000u}) {
        if (epoch == 1 && c.txns > 3000) continue;  // one-transaction epochs are slow to run in bulk
        RunOptions o = base;
        o.engine.workers = workers;
        o.engine.epoch_max_txns = epoch;
        o.engine.epoch_interval_ms = 1000;
        const RunResult got = RunWorkload(o);
        EXPECT_EQ(fmt::format("{:016x}", got.state_hash), fmt::format("{:016x}", expected.state_hash))
            << c.workload << " seed " << seed << " workers " << workers << " epoch " << epoch;
        EXPECT_EQ(got.report["aborts"], expected.report["aborts"]) << c.workload << " seed " << seed;
        EXPECT_FALSE(Failed(got.report)) << got.report.dump();
      }
    }
  }
}

// Every combination of the contention switches, on the contended workloads: the state
// must not depend on them either.
struct Switches {
  bool batch_append;
  bool minor_gc;
  uint32_t gc_k;
  uint32_t row_buffers;
  bool split;
  uint32_t split_threshold;
};

TEST(DeterminismSwitchesTest, ContendedWorkloadsUnderEverySwitchCombination) {
  // The paper's ablation (none / batch append / both) and the threshold sweep {1, 3,
  // 512, huge}, with the collectors in several settings.
  const std::vector<Switches> combos = {
      {false, false, 0, 16384, false, 512}, {true, false, 0, 16384, false, 512},
      {true, true, 8, 16384, true, 512},    {false, true, 1, 16384, true, 1},
      {true, true, 0, 4, true, 3},  // a tiny row-buffer pool: exhaustion falls back to waiting
      {true, false, 3, 16384, true, 1u << 30}, {true, true, 8, 16384, true, 1},
  };
  for (const std::string workload : {"ycsb-contention", "ycsb-contention-skew", "tpcc-1wh"}) {
    RunOptions base;
    base.workload = workload;
    base.workload_options.keys = 20'000;
    base.workload_options.seed = 21;
    base.txns = 3000;
    RunOptions ref = base;
    ref.reference = true;
    const uint64_t expected = RunWorkload(ref).state_hash;
    for (const Switches& sw : combos) {
      for (int workers : {1, 2, 4}) {
        RunOptions o = base;
        o.engine.workers = workers;
        o.engine.epoch_max_txns = 500;
        o.engine.batch_append = sw.batch_append;
        o.engine.minor_gc = sw.minor_gc;
        o.engine.gc_k = sw.gc_k;
        o.engine.row_buffers = sw.row_buffers;
        o.engine.split_on_demand = sw.split;
        o.engine.split_threshold = sw.split_threshold;
        const RunResult got = RunWorkload(o);
        EXPECT_EQ(got.state_hash, expected)
            << workload << " workers " << workers << " batch_append " << sw.batch_append << " minor_gc "
            << sw.minor_gc << " gc_k " << sw.gc_k << " row_buffers " << sw.row_buffers << " split " << sw.split
            << " threshold " << sw.split_threshold;
        EXPECT_FALSE(Failed(got.report)) << got.report.dump();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Workloads, DeterminismTest,
                         ::testing::Values(Case{"ycsb-uniform", 3000, {1, 2, 3}}, Case{"ycsb-skew", 3000, {4, 5}},
                                           Case{"ycsb-contention", 3000, {6, 7, 8}},
                                           Case{"ycsb-contention-skew", 3000, {9, 10}},
                                           Case{"tpcc", 4000, {11, 12}}, Case{"tpcc-1wh", 4000, {13, 14}}),
                         [](const auto& info) {
                           std::string n = info.param.workload;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace caracal::bench
