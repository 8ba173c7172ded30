// Engine: the deterministic epoch engine (paper §3.2, §4). Transactions submitted to it
// are batched into epochs and given serial ids in submission order; each epoch runs
//
//   sequencing (driver thread, serial)  ->  insert step  -> barrier ->  append step
//   -> barrier ->  execution phase  -> barrier ->  major GC  ->  results, in serial order
//
// on `workers` threads, transaction i of the epoch on worker i mod workers. The outcome is
// that of running the transactions one by one in serial-id order; there are no
// concurrency-control aborts. See engine/README.md.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/storage/database.h"
#include "engine/execution/engine_options.h"
#include "engine/procedure/executor.h"
#include "engine/storage/sequences.h"

namespace caracal::engine {

struct EpochTxn;
class LogWriter;
class WorkerPool;

// A transaction read back from the input log, for Engine::ReplayEpoch.
struct ReplayTxn {
  const Procedure* procedure = nullptr;  // may be null when `failed`
  TxnInput input;                         // arguments and the sequence values drawn
  uint32_t attempts = 1;
  bool failed = false;                    // failed at sequencing: occupies its serial id only
};

class Engine : public Executor {
 public:
  // Throws std::invalid_argument on invalid options (workers < 1, epoch_max_txns < 1).
  Engine(Database& db, EngineOptions options);
  ~Engine() override;  // drains, then stops the threads
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  void Submit(TxnRequest request) override;
  void Drain() override;

  // Runs `fn` while no epoch is running (DDL, bulk loads): epochs wait until it returns.
  void RunExclusive(const std::function<void()>& fn);

  // Input logging (paper §3.6). Once a log is attached, every epoch's inputs are
  // appended to it as one kEpoch record right after sequencing, while the workers
  // execute the epoch; with synchronous commit (the default) the epoch's results are
  // delivered only once that record is durable, from the log's thread, and Drain()
  // waits for that too. Without it results go out when the epoch commits, before the
  // record is durable: a crash can lose acknowledged transactions. A procedure without
  // a log_identity() fails (0A000) on an engine with a log. Attach and detach while no
  // transaction is in flight; the log must outlive the engine or be detached first.
  void AttachLog(LogWriter* log);
  void set_synchronous_commit(bool on) { synchronous_commit_.store(on, std::memory_order_relaxed); }
  bool synchronous_commit() const { return synchronous_commit_.load(std::memory_order_relaxed); }

  // Recovery: runs one logged epoch on all workers, exactly as logged (serial id
  // (epoch, i + 1) for transaction i, the logged sequence values; `sequences` are the
  // sequence states after its sequencing), and returns once it has committed. Results
  // are dropped; a transaction that asks to retry is dropped too, since the log holds
  // its next attempt in a later epoch. `epoch` must follow the committed epoch.
  void ReplayEpoch(uint32_t epoch, const std::vector<SequenceState>& sequences, std::vector<ReplayTxn> txns);

  EngineStats stats() const;
  const EngineOptions& options() const { return options_; }
  Database& database() { return db_; }

 private:
  using Clock = std::chrono::steady_clock;

  void DriverLoop();
  // Runs one epoch: the next one, or the logged `replay_epoch` (0: not a replay).
  void RunEpoch(std::vector<std::unique_ptr<EpochTxn>>& txns, uint32_t replay_epoch = 0);
  // Appends the epoch's kEpoch record to the log; returns its LSN.
  uint64_t LogEpoch(uint32_t epoch, std::vector<SequenceState> sequences,
                    const std::vector<std::unique_ptr<EpochTxn>>& txns, const std::vector<bool>& failed);
  void Sequence(EpochTxn& txn);
  uint64_t CompactTables(SerialId horizon, uint32_t epoch);

  Database& db_;
  const EngineOptions options_;

  std::mutex mutex_;
  std::condition_variable intake_cv_;
  std::condition_variable drained_cv_;
  std::deque<TxnRequest> intake_;
  std::deque<std::unique_ptr<EpochTxn>> retry_;  // re-run at the head of the next epoch
  Clock::time_point first_arrival_;
  // Adaptive start: the next epoch starts once this many transactions wait.
  uint32_t start_at_ = 1;
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  int drain_waiters_ = 0;
  bool stopping_ = false;

  mutable std::mutex epoch_mutex_;  // held while an epoch runs; RunExclusive takes it too
  LogWriter* log_ = nullptr;       // changed under epoch_mutex_
  std::atomic<bool> synchronous_commit_{true};

  mutable std::mutex stats_mutex_;
  EngineStats stats_;

  std::unique_ptr<WorkerPool> pool_;
  std::thread driver_;
};

}  // namespace caracal::engine
