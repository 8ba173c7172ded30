#include "bench/runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>
#include <semaphore>
#include <stdexcept>

#include "engine/durability/checkpoint.h"
#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/durability/log_replay.h"
#include "engine/log/log_writer.h"
#include "engine/execution/reference_executor.h"

namespace caracal::bench {

namespace {

using Clock = std::chrono::steady_clock;

double Percentile(std::vector<float>& v, double p) {
  if (v.empty()) return 0;
  size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return v[i];
}

double ResidentMb() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

ProgressFn MakeProgress(bool enabled, const std::string& what) {
  if (!enabled || !isatty(STDERR_FILENO)) return {};
  auto start = std::make_shared<Clock::time_point>(Clock::now());
  return [start, what](uint64_t done, uint64_t total) {
    double s = std::chrono::duration<double>(Clock::now() - *start).count();
    std::fprintf(stderr, "\rloading %s: %llu/%llu rows (%.0f rows/s)%s", what.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                 s > 0 ? static_cast<double>(done) / s : 0.0, done >= total ? "\n" : "");
  };
}

// Submits the workload's stream with at most `window` transactions in flight, so that
// latency measures the epoch pipeline rather than an unbounded queue.
struct Driver {
  engine::Executor& executor;
  Workload& workload;
  std::mt19937_64 rng;
  std::vector<float> latencies_ms;  // written only from the executor's result thread
  uint64_t committed = 0, aborted = 0;
  std::function<void(engine::TxnRequest&)> rewrite;  // --procedures sql: the SQL twin's procedure

  engine::TxnRequest Next() {
    engine::TxnRequest r = workload.Next(rng);
    if (rewrite) rewrite(r);
    return r;
  }

  // A fixed count is generated before the clock starts, like the paper's static trace:
  // on two cores a generator running alongside the workers would take a third of the
  // machine. A duration generates as it goes.
  std::vector<engine::TxnRequest> Pregenerate(uint64_t txns) {
    std::vector<engine::TxnRequest> trace;
    trace.reserve(txns);
    for (uint64_t n = 0; n < txns; ++n) trace.push_back(Next());
    return trace;
  }

  void Run(std::vector<engine::TxnRequest> trace, double seconds, std::ptrdiff_t window) {
    std::counting_semaphore<> slots(window);
    const bool fixed = !trace.empty();
    const auto start = Clock::now();
    const auto until = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    for (uint64_t n = 0; !fixed || n < trace.size(); ++n) {
      if (!fixed && (n & 63) == 0 && Clock::now() >= until) break;
      engine::TxnRequest req = fixed ? std::move(trace[n]) : Next();
      slots.acquire();
      req.on_done = [this, &slots, t0 = Clock::now()](engine::TxnResult&& r) {
        latencies_ms.push_back(std::chrono::duration<float, std::milli>(Clock::now() - t0).count());
        if (r.status == engine::TxnResult::Status::kCommitted)
          ++committed;
        else
          ++aborted;
        slots.release();
      };
      executor.Submit(std::move(req));
    }
    executor.Drain();
  }
};

// Resolves the log's procedure identities to the workload's native procedures.
class NativeProcedures final : public engine::ReplayHost {
 public:
  explicit NativeProcedures(const Workload& workload) {
    for (const engine::Procedure* p : workload.procedures()) by_identity_.emplace(std::string(p->log_identity()), p);
  }
  std::shared_ptr<const engine::Procedure> Resolve(std::string_view identity) override {
    auto it = by_identity_.find(std::string(identity));
    if (it == by_identity_.end()) return nullptr;
    return std::shared_ptr<const engine::Procedure>(std::shared_ptr<const engine::Procedure>(), it->second);  // not owned
  }
  void ReplayDdl(const std::string& sql) override {
    throw std::runtime_error("caracal-bench logs no DDL, yet the log holds: " + sql);
  }

 private:
  std::map<std::string, const engine::Procedure*> by_identity_;
};

// --recover: rebuilds the run's final state in a fresh database from `dir` alone (plus
// the workload's deterministic load when there is no checkpoint) and reports the times.
void Recover(const RunOptions& options, const engine::Database& original, Workload& original_workload,
             uint64_t expected_hash, nlohmann::json& j) {
  const std::filesystem::path dir = options.log_dir;
  const auto start = Clock::now();
  auto db = std::make_unique<engine::Database>();
  std::unique_ptr<Workload> fresh;
  const Workload* procedures = &original_workload;
  uint64_t after_lsn = 0;
  double restore_ms = 0;
  if (std::optional<std::filesystem::path> ckpt = engine::LatestCheckpoint(dir / "checkpoint")) {
    // The schema a SQL catalog would rebuild from the checkpoint's DDL: here, the same
    // tables in the same order, so table ids (which the native procedures hold) match.
    for (engine::TableId t = 0; t < original.num_tables(); ++t)
      db->CreateTable(original.schema(t), original.table(t).index_schemas());
    engine::CheckpointReader reader(*ckpt);
    for (const engine::SequenceState& s : reader.meta().sequences) {
      db->sequences().Create(s.name, s.next, s.increment);
      db->sequences().Restore(s);
    }
    db->set_committed_epoch(reader.meta().epoch);
    reader.LoadRows(*db, options.engine.workers);
    db->set_committed_epoch(reader.meta().epoch + 1);
    after_lsn = reader.meta().lsn;
  } else {
    fresh = MakeWorkload(options.workload, options.workload_options);
    fresh->Setup(*db, {});
    procedures = fresh.get();
  }
  restore_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  engine::LogScan scan = engine::LogScan::Scan(dir / "log");
  NativeProcedures host(*procedures);
  engine::ReplayStats replay;
  {
    engine::Engine engine(*db, options.engine);
    replay = ReplayLog(scan, after_lsn, engine, *db, host);
  }
  const uint64_t hash = StateHash(*db);
  j["recovery_restore_ms"] = restore_ms;
  j["recovery_replay_ms"] = replay.ms;
  j["recovery_replayed_epochs"] = replay.epochs;
  j["recovery_replayed_txns"] = replay.txns;
  j["recovery_replay_s_per_million_txns"] = replay.txns ? replay.ms / 1e3 / static_cast<double>(replay.txns) * 1e6 : 0.0;
  j["recovery_log_bytes"] = scan.bytes();
  j["recovered_state_hash"] = fmt::format("{:016x}", hash);
  if (hash != expected_hash)
    throw std::runtime_error(fmt::format("recovery reached state hash {:016x}, the run ended at {:016x}", hash,
                                         expected_hash));
}

}  // namespace

RunResult RunWorkload(const RunOptions& options) {
  const bool sql = options.procedures == "sql" || options.procedures == "sql-set";
  if (!sql && options.procedures != "native")
    throw std::invalid_argument("--procedures " + options.procedures + ": expected native, sql or sql-set");
  if (sql && (options.reference || !options.sql_twin))
    throw std::invalid_argument("--procedures sql runs on the engine only (compare its state_hash with --reference)");
  if (options.txns == 0 && options.seconds <= 0) throw std::invalid_argument("give --txns or --seconds");
  const bool logged = !options.log_dir.empty();
  if (logged && (sql || options.reference))
    throw std::invalid_argument("--log runs native procedures on the engine only");
  if ((options.checkpoint || options.recover) && !logged)
    throw std::invalid_argument("--checkpoint and --recover need --log DIR");
  std::unique_ptr<Workload> workload = MakeWorkload(options.workload, options.workload_options);
  if (!workload) throw std::invalid_argument("unknown workload: " + options.workload);

  std::unique_ptr<engine::Database> db;
  std::unique_ptr<engine::ReferenceExecutor> reference;
  std::unique_ptr<SqlTwin> twin;
  engine::Store* store;
  if (sql) {
    twin = options.sql_twin(options);
    store = &twin->database();
  } else if (options.reference) {
    reference = std::make_unique<engine::ReferenceExecutor>();
    store = reference.get();
  } else {
    db = std::make_unique<engine::Database>();
    store = db.get();
  }
  const auto load_start = Clock::now();
  workload->Setup(*store, MakeProgress(options.progress, options.workload));
  const double load_s = std::chrono::duration<double>(Clock::now() - load_start).count();

  std::unique_ptr<engine::LogWriter> log;
  if (logged) {
    const std::filesystem::path dir = options.log_dir;
    if (std::filesystem::exists(dir / "log") || std::filesystem::exists(dir / "checkpoint"))
      throw std::invalid_argument("--log " + options.log_dir + ": the directory already holds a log; give a new one");
    log = std::make_unique<engine::LogWriter>(engine::LogWriterOptions{dir / "log"}, 1, std::vector<engine::SegmentFile>{});
  }
  std::unique_ptr<engine::Engine> engine;
  engine::Executor* executor = reference.get();
  if (twin) {
    executor = &twin->engine();
  } else if (!options.reference) {
    engine = std::make_unique<engine::Engine>(*db, options.engine);
    engine->set_synchronous_commit(options.synchronous_commit);
    if (log) engine->AttachLog(log.get());
    executor = engine.get();
  }
  Driver driver{*executor, *workload, std::mt19937_64(options.workload_options.seed ^ 0x5eed5eedULL), {}, 0, 0, {}};
  // Two epochs in flight keep the pipeline full: one runs while the next fills.
  const std::ptrdiff_t window =
      options.reference ? 1
      : options.window > 0
          ? static_cast<std::ptrdiff_t>(options.window)
          : std::max<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(2 * options.engine.epoch_max_txns), 1);
  if (twin) driver.rewrite = [&twin](engine::TxnRequest& r) { r.procedure = &twin->ProcedureFor(*r.procedure); };
  std::vector<engine::TxnRequest> trace = driver.Pregenerate(options.txns);
  const auto start = Clock::now();
  // --checkpoint: written on its own thread while the run goes on.
  std::optional<engine::CheckpointInfo> checkpoint;
  std::exception_ptr checkpoint_error;
  std::thread checkpointer;
  if (options.checkpoint)
    checkpointer = std::thread([&] {
      try {
        engine::RunningCheckpoint running(*engine, [&](engine::CheckpointMeta& meta) { meta.lsn = log->last_lsn(); });
        log->WaitDurable(running.meta().lsn);  // never a checkpoint ahead of the log
        checkpoint = running.Write(std::filesystem::path(options.log_dir) / "checkpoint");
        log->DiscardThrough(running.meta().lsn);
      } catch (...) {
        checkpoint_error = std::current_exception();
      }
    });
  driver.Run(std::move(trace), options.seconds, window);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (checkpointer.joinable()) checkpointer.join();
  if (checkpoint_error) std::rethrow_exception(checkpoint_error);

  engine::EngineStats stats = engine ? engine->stats() : twin ? twin->engine().stats() : engine::EngineStats{};
  engine.reset();  // stops the threads; the committed state stays in `db`
  const engine::LogStats log_stats = log ? log->stats() : engine::LogStats{};
  log.reset();

  RunResult result;
  result.state_hash = StateHash(*store);
  const uint64_t total = driver.committed + driver.aborted;
  const double epochs = stats.epochs ? static_cast<double>(stats.epochs) : 1.0;
  nlohmann::json& j = result.report;
  j["workload"] = options.workload;
  j["procedures"] = options.procedures;
  j["executor"] = options.reference ? "reference" : "engine";
  j["workers"] = options.reference ? 1 : options.engine.workers;
  j["epoch_txns"] = options.engine.epoch_max_txns;
  j["window"] = window;
  j["seed"] = options.workload_options.seed;
  if (options.workload.rfind("ycsb", 0) == 0)
    j["keys"] = options.workload_options.keys;
  else
    j["warehouses"] = options.workload == "tpcc-1wh" ? 1 : options.workload_options.warehouses;
  j["txns"] = total;
  j["seconds"] = seconds;
  j["txn_per_s"] = seconds > 0 ? static_cast<double>(total) / seconds : 0.0;
  j["epochs"] = stats.epochs;
  j["init_ms_per_epoch"] = stats.init_ms / epochs;
  j["exec_ms_per_epoch"] = stats.exec_ms / epochs;
  j["gc_ms_per_epoch"] = stats.gc_ms / epochs;
  j["p50_latency_ms"] = Percentile(driver.latencies_ms, 0.50);
  j["p99_latency_ms"] = Percentile(driver.latencies_ms, 0.99);
  j["aborts"] = driver.aborted;
  j["retries"] = stats.retries;
  j["gc_freed_versions"] = stats.gc_freed_versions;
  j["batch_append"] = options.engine.batch_append;
  j["gc_k"] = options.engine.gc_k;
  j["split_on_demand"] = options.engine.split_on_demand;
  j["split_threshold"] = options.engine.split_threshold;
  j["split_rows"] = stats.split_rows;
  j["split_pieces"] = stats.split_pieces;
  j["batch_appended_versions"] = stats.batch_appended_versions;
  j["lock_wait_p999_us"] = stats.lock_wait_p999_us;
  j["load_s"] = load_s;
  j["rss_mb"] = ResidentMb();
  j["state_hash"] = fmt::format("{:016x}", result.state_hash);
  if (twin) j["compile_ms"] = twin->compile_ms();
  j["log"] = logged;
  if (logged) {
    j["synchronous_commit"] = options.synchronous_commit;
    j["log_bytes"] = log_stats.bytes;
    j["log_bytes_per_txn"] = total ? static_cast<double>(log_stats.bytes) / static_cast<double>(total) : 0.0;
    j["log_syncs"] = log_stats.syncs;
    j["log_epochs_per_sync"] = log_stats.syncs ? static_cast<double>(log_stats.epochs) / static_cast<double>(log_stats.syncs) : 0.0;
    j["log_sync_ms_mean"] = log_stats.syncs ? log_stats.sync_ms / static_cast<double>(log_stats.syncs) : 0.0;
    j["log_sync_ms_max"] = log_stats.max_sync_ms;
  }
  if (checkpoint) {
    j["checkpoint_ms"] = checkpoint->ms;
    j["checkpoint_bytes"] = checkpoint->bytes;
    j["checkpoint_rows"] = checkpoint->rows;
    j["checkpoint_epoch"] = checkpoint->epoch;
  }
  if (options.recover) Recover(options, *db, *workload, result.state_hash, j);
  const nlohmann::json workload_report = workload->Report(*store);  // items() must not outlive it
  for (auto& [k, v] : workload_report.items()) j[k] = v;
  return result;
}

}  // namespace caracal::bench
