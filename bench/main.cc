// caracal-bench: runs a workload with native or SQL procedures and prints one JSON line.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "bench/runner.h"
#include "bench/sql/sql_twin.h"

int main(int argc, char** argv) {
  caracal::bench::RunOptions o;
  CLI::App app{"caracal-bench: the paper's YCSB and TPC-C workloads on the Caracal engine"};
  app.add_option("workload", o.workload,
                 "ycsb-uniform | ycsb-skew | ycsb-contention | ycsb-contention-skew | tpcc | tpcc-1wh")
      ->required();
  app.add_option("--keys", o.workload_options.keys, "YCSB rows")->capture_default_str();
  app.add_option("--warehouses", o.workload_options.warehouses, "TPC-C warehouses (default: workers)");
  app.add_option("--seed", o.workload_options.seed, "random seed of the load and the transaction stream")
      ->capture_default_str();
  app.add_option("--tpcc-mix", o.workload_options.tpcc_mix,
                 "tpcc: percent of new_order payment order_status delivery stock_level (e.g. 0,100,0,0,0)")
      ->delimiter(',')
      ->expected(5)
      ->capture_default_str();
  auto* txns = app.add_option("--txns", o.txns, "run exactly this many transactions");
  app.add_option("--seconds", o.seconds, "run for this long (when --txns is not given)")->excludes(txns);
  app.add_option("--workers", o.engine.workers, "worker threads")->capture_default_str()->check(CLI::Range(1, 1024));
  app.add_option("--epoch-txns", o.engine.epoch_max_txns, "transactions per epoch at most")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100'000'000u));
  app.add_option("--epoch-interval-ms", o.engine.epoch_interval_ms, "an epoch closes after this long")
      ->capture_default_str();
  app.add_option("--procedures", o.procedures,
                 "native (hand-written C++), sql (sql/<workload>/ compiled) or sql-set (tpcc: sql with the set-based "
                 "NewOrder and Stock-Level of sql/tpcc/procedures_set_based.sql)")
      ->capture_default_str()
      ->check(CLI::IsMember({"native", "sql", "sql-set"}));
  std::string sql_dir = CARACAL_SQL_DIR;
  app.add_option("--sql-dir", sql_dir, "the project's sql/ folder (--procedures sql)")->capture_default_str();
  app.add_flag("--reference", o.reference, "run on the single-threaded serial reference executor");
  bool no_gc = false, no_batch = false, no_minor = false;
  app.add_flag("--no-gc", no_gc, "disable garbage collection");
  app.add_flag("--no-minor-gc", no_minor, "disable the minor collector (initialization-time trimming)");
  app.add_option("--gc-k", o.engine.gc_k, "major GC collects rows not written in the last K epochs")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  app.add_flag("--no-batch-append", no_batch, "wait for contended row locks instead of batch-appending");
  bool no_split = false;
  app.add_flag("--no-split", no_split, "run every ApplyRowUpdate inline (no split-on-demand)");
  app.add_option("--split-threshold", o.engine.split_threshold,
                 "pending versions that make a row contended (split-on-demand)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 30));
  app.add_option("--row-buffers", o.engine.row_buffers, "batch-append row buffers per core")->capture_default_str();
  app.add_option("--window", o.window,
                 "transactions in flight at most (default: 2 epochs' worth)");
  app.add_option("--log", o.log_dir, "log transaction inputs into this new directory (DIR/log), fsync per epoch");
  bool async_commit = false;
  app.add_flag("--no-synchronous-commit", async_commit,
               "with --log: deliver results before the epoch's log is durable (a crash can lose them)");
  app.add_flag("--checkpoint", o.checkpoint, "with --log: write one checkpoint (DIR/checkpoint) while the run goes on");
  app.add_flag("--recover", o.recover,
               "with --log: afterwards recover DIR into a fresh database, time it and check its state hash");
  CLI11_PARSE(app, argc, argv);
  o.synchronous_commit = !async_commit;
  if (app.count("--warehouses") == 0) o.workload_options.warehouses = o.engine.workers;
  if (o.txns == 0 && o.seconds <= 0) o.seconds = 10;
  o.engine.gc = !no_gc;
  o.engine.minor_gc = !no_minor;
  o.engine.batch_append = !no_batch;
  o.engine.split_on_demand = !no_split;
  o.progress = true;
  o.sql_twin = [&sql_dir](const caracal::bench::RunOptions& options) {
    return caracal::bench::MakeSqlTwin(options, sql_dir);
  };
  try {
    caracal::bench::RunResult r = caracal::bench::RunWorkload(o);
    std::cout << r.report.dump() << std::endl;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "caracal-bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
