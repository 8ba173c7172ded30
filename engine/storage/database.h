// Database: the multi-version store the epoch Engine runs on. It owns the tables, the
// sequences, the committed-epoch counter and the registry of snapshot readers that
// bounds garbage collection.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <vector>

#include "engine/types/serial_id.h"
#include "engine/storage/store.h"
#include "engine/storage/table.h"

namespace caracal::engine {

class Database : public Store {
 public:
  Database() = default;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  TableId CreateTable(Schema schema, std::vector<IndexSchema> indexes = {}) override;
  std::optional<TableId> FindTable(std::string_view name) const override;
  void DropTable(TableId table) override;
  // CREATE INDEX / DROP INDEX on a table that may hold rows; only between epochs.
  void AddIndex(TableId table, IndexSchema index);
  void DropIndex(TableId table, int index);
  // ALTER TABLE that changes a table's layout or key, only between epochs: `fresh` (a
  // Table with the same id, filled by Table-level LoadRow below) takes the table's place
  // and the table it replaces is handed back - to put back if the DDL fails after all, or
  // to Retire(). Its rows are not reported to the load observer: the DDL statement's log
  // record rebuilds them on replay.
  std::unique_ptr<Table> SwapTable(TableId table, std::unique_ptr<Table> fresh);
  // ALTER TABLE ... RENAME TO, only between epochs.
  void RenameTable(TableId table, std::string name);
  // Frees `table` once no worker or snapshot reader can hold pointers into it.
  void Retire(std::unique_ptr<Table> table);
  // Stores `row` in `table` (not necessarily installed yet) as LoadRow does, unobserved.
  void LoadRowInto(Table& table, RowValuePtr row);
  bool IsDropped(TableId table) const override { return dropped_[table]; }
  const Schema& schema(TableId table) const override { return tables_[table]->schema(); }
  size_t num_tables() const override { return tables_.size(); }
  Sequences& sequences() override { return sequences_; }
  void LoadRow(TableId table, RowValuePtr row) override;
  void ForEachCommittedRow(TableId table,
                           const std::function<void(const Key&, const RowValue&)>& visit) const override;

  // Called with every row LoadRow has stored, from the thread that loaded it (the input
  // log records bulk loads through it). Set or cleared while no load runs.
  using LoadObserver = std::function<void(TableId, const RowValue&)>;
  void set_load_observer(LoadObserver observer) { load_observer_ = std::move(observer); }

  // Frees tables dropped while an epoch before `epoch` was the committed one (the engine
  // calls it once no worker can still hold pointers into them).
  void FreeRetiredTables(uint32_t epoch);

  Table& table(TableId id) { return *tables_[id]; }
  const Table& table(TableId id) const { return *tables_[id]; }

  // The last epoch whose transactions have all committed (0: none yet).
  uint32_t committed_epoch() const { return committed_epoch_.load(std::memory_order_acquire); }
  void set_committed_epoch(uint32_t e) { committed_epoch_.store(e, std::memory_order_release); }

  // Snapshot readers pin the epoch they read; collection keeps what they may need.
  // Returns the pinned epoch (the committed epoch at the time of the call).
  uint32_t PinSnapshot();
  void UnpinSnapshot(uint32_t epoch);
  // Versions older than this are invisible to every pinned reader and to every later
  // epoch, once superseded: min over pinned epochs e of (e+1, 0), and (current, 0).
  SerialId CollectionHorizon(uint32_t current_epoch) const;

  // Held shared by snapshot readers, exclusively while dead rows leave the indexes.
  std::shared_mutex& structure_mutex() const { return structure_mutex_; }

  // The newest settled version of `row` with serial id < before (nullptr if the row does
  // not exist then). Takes the row lock: safe while an initialization phase runs.
  static const RowValue* ReadSettled(Row& row, SerialId before);

 private:
  std::vector<std::unique_ptr<Table>> tables_;
  std::vector<bool> dropped_;
  std::vector<std::pair<uint32_t, std::unique_ptr<Table>>> retired_tables_;
  Sequences sequences_;
  LoadObserver load_observer_;
  std::atomic<uint32_t> committed_epoch_{0};
  mutable std::mutex pins_mutex_;
  std::multiset<uint32_t> pins_;
  mutable std::shared_mutex structure_mutex_;
};

// A consistent read-only view of the last committed epoch, valid while the object lives,
// however many epochs commit meanwhile.
class Snapshot {
 public:
  explicit Snapshot(Database& db);
  ~Snapshot();
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  uint32_t epoch() const { return epoch_; }
  const RowValue* Read(TableId table, const Key& key) const;
  // Rows with lo <= key < hi (hi empty: unbounded), in key order; visitor returns false to stop.
  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) const;
  // Rows whose secondary index `index` key lies in [lo, hi), in index order. An index
  // holds an entry for the key of every version a row keeps (added in the epoch that
  // writes the version; a rebuild drops only entries no kept version has), so rechecking
  // each entry against the row's value in this snapshot yields exactly the snapshot's
  // rows. Throws ApiMisuse for an unknown index.
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key& primary_key, const RowValue&)>& visit) const;

 private:
  Database& db_;
  uint32_t epoch_;
  std::shared_lock<std::shared_mutex> structure_lock_;
};

}  // namespace caracal::engine
