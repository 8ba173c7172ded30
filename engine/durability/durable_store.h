// DurableStore: what makes a session's database durable (`caracal DATADIR`).
//
// It owns the data directory:
//
//   DATADIR/CARACAL_DATADIR   marker (format version); a non-empty directory without it
//                             is not taken over
//   DATADIR/LOCK              flock()ed while a process has the directory open
//   DATADIR/log/              the input log (engine/log/log_segment.h, log_record.h)
//   DATADIR/checkpoint/       the newest checkpoint (engine/durability/checkpoint.h)
//
// Opening recovers: the newest checkpoint's catalog DDL is run again through the session
// (ReplayHost::ReplayDdl), its sequences and rows loaded, then every log record after it
// replayed (epochs through the engine on all workers, DDL through the session, loads
// into the tables); a torn or damaged tail is cut at the last whole unit and reported.
// Then the log is attached to the engine, so every epoch is logged from then on, and a
// background thread takes checkpoints (every checkpoint_interval_s, or once the log
// since the last one reaches checkpoint_log_bytes), deleting the log segments the new
// checkpoint covers.
//
// Changes that happen outside transactions are logged by the session through this
// object, while it holds LockChanges() (so a checkpoint never starts between a change
// and its record): DDL after it succeeded (LogDdl), bulk loads while they run
// (BeginLoad / EndLoad: Database::LoadRow's observer records every row loaded).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "engine/durability/checkpoint.h"
#include "engine/execution/engine.h"
#include "engine/log/log_reader.h"
#include "engine/log/log_record.h"
#include "engine/durability/log_replay.h"
#include "engine/log/log_writer.h"

namespace caracal::engine {

struct DurabilityOptions {
  std::filesystem::path data_dir;
  // Off: results are released when their epoch commits, before its log record is
  // durable. Faster, but a crash can lose transactions a client saw committed (never
  // half of one: recovery still stops at a whole epoch).
  bool synchronous_commit = true;
  // A checkpoint starts this often (if anything was logged since the last one)...
  double checkpoint_interval_s = 300;
  // ...or once the log since the last one holds this many bytes (0: no size trigger).
  uint64_t checkpoint_log_bytes = 256ull << 20;
  uint64_t segment_bytes = 64ull << 20;
};

// What opening the data directory found and did.
struct RecoveryReport {
  bool created = false;                 // a new data directory
  std::optional<CheckpointMeta> checkpoint;  // the one loaded (its DDL list is dropped)
  uint64_t checkpoint_rows = 0;
  double checkpoint_ms = 0;
  ReplayStats replay;
  std::optional<LogCut> cut;            // the torn tail removed, if any
  double total_ms = 0;
  // One line for a log: what was loaded and replayed, and what was cut.
  std::string Describe() const;
};

class DurableStore {
 public:
  // Opens or creates `options.data_dir` and recovers into `engine`'s database, running
  // DDL and resolving procedures through `host`, then attaches the log to the engine.
  // Throws std::runtime_error (LogFormatError, std::system_error) if the directory
  // cannot be used or recovered; nothing is then attached.
  DurableStore(DurabilityOptions options, Engine& engine, ReplayHost& host);
  // Stops the checkpointer and detaches the log; the engine must have no transaction in
  // flight (the session drains it first).
  ~DurableStore();
  DurableStore(const DurableStore&) = delete;
  DurableStore& operator=(const DurableStore&) = delete;

  std::unique_lock<std::mutex> LockChanges() { return std::unique_lock(changes_mutex_); }
  // Logs a DDL statement that has run (caller holds LockChanges); with synchronous
  // commit, returns once it is durable.
  void LogDdl(std::string_view sql);
  // Around a bulk load (caller holds LockChanges): rows loaded in between are logged,
  // in records of about 1 MB, and EndLoad closes the unit (and waits, as LogDdl).
  void BeginLoad();
  void EndLoad();

  // CHECKPOINT: takes one now and returns once it is installed.
  CheckpointInfo Checkpoint();

  // The session replaces its engine when an engine setting changes: DetachEngine()
  // before the old one is destroyed (drained: nothing in flight), AttachEngine() with the
  // new one, over the same database. Checkpoints wait meanwhile.
  void DetachEngine();
  void AttachEngine(Engine& engine);

  // On the session's thread, like the engine swap.
  void set_synchronous_commit(bool on);
  bool synchronous_commit() const { return synchronous_commit_.load(); }
  void set_checkpoint_interval_s(double s);
  void set_checkpoint_log_bytes(uint64_t bytes);

  const RecoveryReport& recovery() const { return recovery_; }
  const std::filesystem::path& data_dir() const { return options_.data_dir; }
  // Log and checkpoint figures, as (name, value) rows for SHOW / a stats view.
  std::vector<std::pair<std::string, std::string>> Stats() const;

 private:
  class RecordingHost;
  void OpenDirectory();
  void Recover(ReplayHost& host);
  void OnLoad(TableId table, const RowValue& row);
  // Hands the rows gathered so far to the log; `reset`: the next row starts a new record.
  void FlushLoadLocked(bool reset);
  void CheckpointLoop();
  void WaitIfSynchronous(uint64_t lsn);

  DurabilityOptions options_;
  // Changed by the session's thread under checkpoint_mutex_ (DetachEngine / AttachEngine).
  Engine* engine_;
  Database& db_;
  std::atomic<bool> synchronous_commit_;
  RecoveryReport recovery_;
  int lock_fd_ = -1;

  std::mutex changes_mutex_;
  std::vector<std::string> ddl_;  // the catalog as the DDL that built it (changes_mutex_)
  std::unique_ptr<LogWriter> log_;

  // The load in progress (load_mutex_: LoadRow may run on several threads).
  std::mutex load_mutex_;
  bool loading_ = false;
  std::optional<LoadRowsBuilder> load_;
  std::string load_table_;
  uint64_t load_rows_ = 0;

  // Checkpoints: one at a time (checkpoint_mutex_), by the background thread or CHECKPOINT.
  std::mutex checkpoint_mutex_;
  mutable std::mutex state_mutex_;  // guards what follows
  std::condition_variable wake_;
  bool stopping_ = false;
  double interval_s_;
  uint64_t log_bytes_trigger_;
  std::optional<CheckpointInfo> last_checkpoint_;
  std::chrono::steady_clock::time_point last_checkpoint_time_;
  uint64_t checkpoint_lsn_ = 0;  // the LSN the newest checkpoint holds up to
  uint64_t checkpoints_ = 0;
  std::string last_checkpoint_error_;
  std::thread checkpointer_;
};

}  // namespace caracal::engine
