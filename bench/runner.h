// Runs one workload on the epoch engine or the serial reference executor and measures
// it. caracal-bench is a command line around this; the determinism tests call it too.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "bench/workload.h"
#include "engine/engine_options.h"

namespace caracal::bench {

struct RunOptions {
  std::string workload;
  WorkloadOptions workload_options;
  uint64_t txns = 0;     // a fixed count (comparable across runs)...
  double seconds = 0;    // ...or a duration, when txns is 0
  EngineOptions engine;
  bool reference = false;  // the serial reference executor instead of the engine
  std::string procedures = "native";
  bool progress = false;   // print load progress on stderr
};

struct RunResult {
  nlohmann::json report;  // the benchmark's JSON line
  uint64_t state_hash = 0;
};

// Throws std::invalid_argument for an unknown workload or bad options.
RunResult RunWorkload(const RunOptions& options);

}  // namespace caracal::bench
