// Log replay: recovery's second half. After the newest checkpoint is loaded, every log
// record after it is applied again in LSN order: epochs run through the engine on all
// workers exactly as logged (Engine::ReplayEpoch), DDL statements go back to the SQL
// layer (the engine knows no SQL), loads go to Database::LoadRow. Determinism makes the
// result the state the original run had reached.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/log/log_reader.h"

namespace caracal::engine {

// What replay needs from the layers above the engine.
class ReplayHost {
 public:
  virtual ~ReplayHost() = default;
  // The procedure that `identity` (Procedure::log_identity) names at this point of the
  // log, or nullptr if there is none. It must stay valid while the host lives.
  virtual std::shared_ptr<const Procedure> Resolve(std::string_view identity) = 0;
  // Runs a logged DDL statement again. Throws if it fails.
  virtual void ReplayDdl(const std::string& sql) = 0;
};

struct ReplayStats {
  uint64_t records = 0;
  uint64_t epochs = 0;
  uint64_t txns = 0;
  uint64_t ddl = 0;
  uint64_t loads = 0;
  uint64_t rows_loaded = 0;
  uint64_t last_lsn = 0;
  double ms = 0;
};

// Replays every record of `scan` with LSN > `after_lsn`. Throws LogFormatError if a
// record cannot be applied (an unknown procedure, a table that does not exist, a
// malformed payload) and whatever ReplayDdl throws.
ReplayStats ReplayLog(const LogScan& scan, uint64_t after_lsn, Engine& engine, Database& db, ReplayHost& host);

}  // namespace caracal::engine
