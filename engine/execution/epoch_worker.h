// EpochWorker: one engine thread. For each epoch it initializes (insert step, append
// step), executes and garbage-collects the transactions assigned to it, meeting the
// other workers at a barrier between phases.
#pragma once

#include <barrier>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/storage/database.h"
#include "engine/execution/engine_options.h"
#include "engine/execution/epoch_txn.h"
#include "engine/execution/lock_wait_histogram.h"
#include "engine/storage/row_buffer_pool.h"

namespace caracal::engine {

struct WrittenRow {
  Table* table;
  Row* row;
  uint32_t epoch;  // when it was written
};

struct SplitCandidate {
  EpochTxn* txn;
  CacheEntry* entry;
};

// One item of a core's execution queue: a transaction or a split piece.
struct QueueItem {
  SerialId sid;
  EpochTxn* txn;  // the transaction, or the piece's transaction
  Piece* piece;   // nullptr: run the transaction itself
};

// What all workers share during one epoch.
struct EpochJob {
  uint32_t epoch = 0;
  std::span<std::unique_ptr<EpochTxn>> txns;
  // Run by worker 0 once every transaction has executed, before collection starts: the
  // epoch is committed there and the collection horizon chosen (after the commit, so a
  // snapshot opened meanwhile pins either this epoch or one the horizon accounts for).
  std::function<SerialId()> on_executed;
  SerialId gc_horizon = 0;
  // What initialization's minor collection may drop: nothing any reader still needs.
  SerialId init_horizon = 0;
  std::barrier<>* barrier = nullptr;
  // Split-on-demand: each worker's ApplyRowUpdate candidates, then (worker 0 plans) the
  // pieces and every core's queue in serial order. Empty queues: plain round-robin.
  std::vector<std::vector<SplitCandidate>> candidates;
  std::deque<Piece> pieces;
  std::vector<std::vector<QueueItem>> queues;
  uint64_t split_rows = 0;
  // Filled by worker 0: nanoseconds at the end of each phase.
  int64_t t_start = 0, t_init = 0, t_exec = 0, t_gc = 0;
};

class EpochWorker {
 public:
  EpochWorker(Database& db, const EngineOptions& options, RowBufferPool& pool, int id, int num_workers)
      : db_(db), options_(options), pool_(pool), id_(id), num_workers_(num_workers),
        gc_ring_(options.gc_k + 1) {}

  void RunEpoch(EpochJob& job);

  // Appends this transaction's pending version to `row` during initialization: directly
  // under the row lock if it is free, else (batch append) into this core's row buffer.
  // With `only_if_exists`, appends only if the row's first version precedes `sid` (the
  // paper's Figure 2 rule) and returns whether it did.
  bool Append(Table& table, Row& row, SerialId sid, bool only_if_exists);
  // The same during the execution phase of a solo epoch (EpochTxn::solo), for a write
  // its transaction declares as it makes it: always under the row lock (the row buffers
  // are flushed by then), which also keeps snapshot readers out.
  bool AppendDuringSoloExecution(Table& table, Row& row, SerialId sid, bool only_if_exists);

  // Counters of the last RunEpoch.
  uint64_t freed_versions() const { return freed_versions_; }
  uint64_t batch_appended() const { return batch_appended_; }
  LockWaitHistogram& lock_waits() { return lock_waits_; }
  // What procedures keep on this worker between transactions.
  WorkerScratch& scratch() { return scratch_; }

 private:
  void InsertStep(EpochTxn& txn);
  void AppendStep(EpochTxn& txn);
  void ExecuteStep(EpochTxn& txn);
  void PrefetchRows(const EpochTxn& txn);
  void Settle(EpochTxn& txn);
  void InsertLocked(Row& row, SerialId sid);
  void CollectCandidates(EpochJob& job);
  void PlanPieces(EpochJob& job);
  // Runs one transaction's pieces queued together, each once the transaction posts it.
  void RunPieces(std::span<const QueueItem> pieces);
  void RunPostedPiece(Piece& piece);
  void MinorCollect(Row& row);
  void MajorCollect(SerialId horizon);

  Database& db_;
  const EngineOptions& options_;
  RowBufferPool& pool_;
  const int id_;
  const int num_workers_;
  uint32_t epoch_ = 0;
  SerialId init_horizon_ = 0;
  std::vector<WrittenRow> written_rows_;  // rows given a version this epoch
  // written_rows_ of the last gc_k + 1 epochs: the major collector visits a row gc_k
  // epochs after it was written, if nothing wrote it since; a row it could not finish
  // (an open snapshot still needs its old versions) is visited again gc_k epochs later.
  std::vector<std::vector<WrittenRow>> gc_ring_;
  uint64_t freed_versions_ = 0;
  uint64_t batch_appended_ = 0;
  LockWaitHistogram lock_waits_;
  WorkerScratch scratch_;
};

}  // namespace caracal::engine
