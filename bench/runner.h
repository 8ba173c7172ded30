// Runs one workload on the epoch engine or the serial reference executor and measures
// it. caracal-bench is a command line around this; the determinism tests call it too.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "bench/workload.h"
#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/execution/engine_options.h"

namespace caracal::bench {

struct RunOptions;

// The SQL twin of a workload (--procedures sql): a database that already holds the
// workload's sql/ schema and compiled procedures, the engine running them, and for each
// native procedure its SQL counterpart of the same name and arguments.
class SqlTwin {
 public:
  virtual ~SqlTwin() = default;
  virtual engine::Database& database() = 0;
  virtual engine::Engine& engine() = 0;
  virtual const engine::Procedure& ProcedureFor(const engine::Procedure& native) = 0;
  virtual double compile_ms() const = 0;
};
using SqlTwinFactory = std::function<std::unique_ptr<SqlTwin>(const RunOptions&)>;

struct RunOptions {
  std::string workload;
  WorkloadOptions workload_options;
  uint64_t txns = 0;     // a fixed count (comparable across runs)...
  double seconds = 0;    // ...or a duration, when txns is 0
  engine::EngineOptions engine;
  bool reference = false;  // the serial reference executor instead of the engine
  std::string procedures = "native";  // or "sql" (needs sql_twin)
  SqlTwinFactory sql_twin;
  bool progress = false;   // print load progress on stderr
  // Transactions in flight at most (0: two epochs' worth). With synchronous logging a
  // result comes back one fsync later: small epochs need a larger window to stay full.
  uint64_t window = 0;
  // Durability (native procedures on the engine only). `log_dir` set: the input log is
  // on, in log_dir/log, with `synchronous_commit`. `checkpoint`: one checkpoint into
  // log_dir/checkpoint, written while the run goes on. `recover`: afterwards, recover
  // log_dir into a fresh database (the checkpoint and the log after it, or the load and
  // the whole log) and check that it reaches the run's state hash.
  std::string log_dir;
  bool synchronous_commit = true;
  bool checkpoint = false;
  bool recover = false;
};

struct RunResult {
  nlohmann::json report;  // the benchmark's JSON line
  uint64_t state_hash = 0;
};

// Throws std::invalid_argument for an unknown workload or bad options.
RunResult RunWorkload(const RunOptions& options);

}  // namespace caracal::bench
