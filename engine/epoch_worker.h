// EpochWorker: one engine thread. For each epoch it initializes (insert step, append
// step), executes and garbage-collects the transactions assigned to it, meeting the
// other workers at a barrier between phases.
#pragma once

#include <barrier>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/database.h"
#include "engine/epoch_txn.h"

namespace caracal {

struct WrittenRow {
  Table* table;
  Row* row;
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
  bool gc = true;
  std::barrier<>* barrier = nullptr;
  // Filled by worker 0: nanoseconds at the end of each phase.
  int64_t t_start = 0, t_init = 0, t_exec = 0, t_gc = 0;
};

class EpochWorker {
 public:
  EpochWorker(Database& db, int id, int num_workers) : db_(db), id_(id), num_workers_(num_workers) {}

  void RunEpoch(EpochJob& job);

  // Versions freed by the last RunEpoch's collection.
  uint64_t freed_versions() const { return freed_versions_; }

 private:
  void InsertStep(EpochTxn& txn);
  void AppendStep(EpochTxn& txn);
  void ExecuteStep(EpochTxn& txn);
  void PrefetchRows(const EpochTxn& txn);
  void Settle(EpochTxn& txn);
  void Collect(SerialId horizon);
  void NoteWritten(Table* table, Row* row);

  Database& db_;
  const int id_;
  const int num_workers_;
  uint32_t epoch_ = 0;
  std::vector<WrittenRow> written_rows_;  // rows given a version this epoch: to collect
  uint64_t freed_versions_ = 0;
};

// The newest settled version of `row` before `sid`, waiting while it is pending; nullptr
// if the row does not exist at that point. For the execution phase only.
const RowValue* VisibleBefore(const Row& row, SerialId sid);

}  // namespace caracal
