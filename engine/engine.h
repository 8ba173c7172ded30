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

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "engine/engine_options.h"
#include "engine/executor.h"

namespace caracal {

struct EpochTxn;
class WorkerPool;

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

  EngineStats stats() const;
  const EngineOptions& options() const { return options_; }
  Database& database() { return db_; }

 private:
  using Clock = std::chrono::steady_clock;

  void DriverLoop();
  void RunEpoch(std::vector<std::unique_ptr<EpochTxn>>& txns);
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
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  int drain_waiters_ = 0;
  bool stopping_ = false;

  mutable std::mutex epoch_mutex_;  // held while an epoch runs; RunExclusive takes it too
  uint32_t epoch_ = 0;

  mutable std::mutex stats_mutex_;
  EngineStats stats_;

  std::unique_ptr<WorkerPool> pool_;
  std::thread driver_;
};

}  // namespace caracal
