// ReferenceExecutor: the oracle. A single-threaded, single-version store that runs each
// transaction to completion, one after another in submission order, with no epochs,
// versions or threads, over the same Procedure API as the epoch Engine. Every
// determinism test compares the Engine's final state with this one's.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "engine/procedure/executor.h"
#include "engine/storage/store.h"
#include "engine/procedure/worker_scratch.h"

namespace caracal::engine {

class ReferenceExecutor : public Store, public Executor {
 public:
  ReferenceExecutor() = default;

  // Store
  TableId CreateTable(Schema schema, std::vector<IndexSchema> indexes = {}) override;
  std::optional<TableId> FindTable(std::string_view name) const override;
  void DropTable(TableId table) override;
  bool IsDropped(TableId table) const override { return tables_[table]->dropped; }
  const Schema& schema(TableId table) const override { return tables_[table]->schema; }
  size_t num_tables() const override { return tables_.size(); }
  Sequences& sequences() override { return sequences_; }
  void LoadRow(TableId table, RowValuePtr row) override;
  void ForEachCommittedRow(TableId table,
                           const std::function<void(const Key&, const RowValue&)>& visit) const override;

  // Executor: Submit runs the transaction at once and calls on_done before returning.
  void Submit(TxnRequest request) override;
  void Drain() override {}

  uint64_t aborts() const { return aborts_; }

  // One table's rows and exact secondary indexes (index key, primary key).
  struct RefTable {
    Schema schema;
    std::vector<IndexSchema> indexes;
    std::map<Key, std::shared_ptr<const RowValue>, KeyLess> rows;
    std::vector<std::set<std::pair<Key, Key>>> index_entries;
    // A Table object only so procedures can call table(id).schema()/IndexKey().
    std::unique_ptr<class Table> facade;
    bool dropped = false;
  };

 private:
  friend class RefBase;
  void PutRow(RefTable& t, const Key& key, std::shared_ptr<const RowValue> value);

  std::vector<std::unique_ptr<RefTable>> tables_;
  Sequences sequences_;
  std::mutex load_mutex_;
  WorkerScratch scratch_;  // transactions run one at a time: one worker's scratch
  uint64_t aborts_ = 0;
  uint64_t next_sequence_ = 1;
};

}  // namespace caracal::engine
