// Table: a schema, the concurrent ordered primary index from key to Row, and the
// non-unique ordered secondary indexes.
//
// The primary index is a TBB concurrent skip list (ordered: scans, and the owner of the
// rows) paired with a PointIndex hash table (point lookups, which dominate). Both take
// concurrent lookups, scans and inserts at any time; rows leave it only between epochs (Database::Collect), when no
// worker runs and no snapshot reader holds the structure lock.
//
// A secondary index maps (index columns ‖ primary key) to the primary key. Entries are
// added when a writer declares them during initialization, so that execution-time index
// scans see every entry that any transaction of the epoch may need; an entry may be stale
// (its row no longer has those values), so scans recheck the row version they read.
#pragma once

#include <tbb/concurrent_map.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/types/key.h"
#include "engine/storage/point_index.h"
#include "engine/storage/spin_lock.h"
#include "engine/storage/row.h"
#include "engine/types/types.h"

namespace caracal::engine {

using TableId = uint32_t;

class Table {
 public:
  using PrimaryIndex = tbb::concurrent_map<Key, std::unique_ptr<Row>, KeyLess>;
  using SecondaryIndex = tbb::concurrent_map<Key, uint32_t, KeyLess>;  // value: index-key length

  Table(TableId id, Schema schema, std::vector<IndexSchema> indexes);

  TableId id() const { return id_; }
  const Schema& schema() const { return schema_; }
  const std::string& name() const { return schema_.table_name(); }
  // ALTER TABLE ... RENAME TO, between epochs (the input log's load records name tables).
  void Rename(std::string name) { schema_.set_table_name(std::move(name)); }
  const std::vector<IndexSchema>& index_schemas() const { return index_schemas_; }
  int num_indexes() const { return static_cast<int>(index_schemas_.size()); }

  Row* Find(const Key& key) const { return Find(key, key.Hash()); }
  Row* Find(const Key& key, uint64_t hash) const {
    return point_->Find(key, hash, [](const Row* r) -> const Key& { return r->key; });
  }
  // The row for `key`, created empty if absent. Safe to call concurrently.
  Row* FindOrCreate(const Key& key);
  // Visits rows with lo <= key < hi (hi empty: unbounded) in key order. Concurrent
  // inserts may or may not be seen; callers that need determinism scan only after the
  // insert step. The visitor returns false to stop.
  void ForEach(const Key& lo, const Key& hi, const std::function<bool(const Key&, Row&)>& visit) const;
  size_t ApproximateRows() const { return primary_->size(); }

  // Secondary indexes. A row with NULL in an indexed column has no entry (no equality or
  // range predicate matches NULL); IndexKey then returns nullopt.
  std::optional<Key> IndexKey(int index, const RowValue& row) const;
  // A secondary index's entry for a row: index key ‖ primary key (the index's order).
  static Key IndexEntryKey(const Key& index_key, const Key& primary_key);
  void AddIndexEntry(int index, const Key& index_key, const Key& primary_key);
  bool HasIndexEntry(int index, const Key& index_key, const Key& primary_key) const;
  // Adds the entries of `row` (at `primary_key`) that the secondary indexes lack. Safe to
  // call concurrently.
  void AddMissingIndexEntries(const Key& primary_key, const RowValue& row);
  // Primary-key spans [lo, hi) whose rows' entries in index `index` the writes of epoch
  // `epoch` may add without having declared them (DeclareIndexUnknown): added during the
  // epoch's initialization phase (safe concurrently), read during its execution phase.
  struct KeySpanRef {
    Key lo, hi;
  };
  void AddUnknownIndexSpan(int index, uint32_t epoch, const Key& lo, const Key& hi);
  // The spans of `epoch`, or null when it has none.
  const std::vector<KeySpanRef>* UnknownIndexSpans(int index, uint32_t epoch) const;
  // Visits the entries whose index key lies in [lo, hi) (hi empty: unbounded), in
  // index order, as (encoded index key, primary key).
  void ForEachIndexEntry(int index, const Key& lo, const Key& hi,
                         const std::function<bool(std::string_view index_key, const Key& primary_key)>& visit) const;

  // Between epochs only (no worker, no snapshot reader): adds a secondary index, filled
  // from every row's newest settled version; or drops one (later indexes shift down).
  void AddIndex(IndexSchema index);
  void DropIndex(int index);

  // Dead rows (nothing visible any more) stay in the indexes, where a later insert of the
  // same key reuses them, until enough accumulate to pay for rebuilding the indexes
  // without them (TBB's skip-list erase is linear in the list's length, so rows are
  // never erased one by one).
  void NoteDeadRow() { dead_estimate_.fetch_add(1, std::memory_order_relaxed); }
  bool WantsCompaction() const;
  // Between epochs only, with no snapshot reader open: rebuilds both primary indexes
  // without the rows dead at `horizon`. Returns how many rows were dropped. The dropped
  // rows are kept (the major collector may still hold pointers to them for up to gc_k
  // epochs) until FreeGraveyard releases those dropped before `epoch`.
  size_t Compact(SerialId horizon, uint32_t current_epoch);
  // Secondary-index entries whose key no version of the row has any more (an update
  // moved the row to another index key, a delete or its compaction removed it) are
  // skipped by every reader and never erased one by one. Once the indexes hold more than
  // twice the entries they had after their last rebuild (and than the rows could need)
  // WantsIndexRebuild says so; RebuildIndexes, between epochs only with no snapshot reader
  // open, makes them again from every data version the rows still keep (all a reader can
  // see). Returns how many entries went.
  bool WantsIndexRebuild() const;
  size_t RebuildIndexes();
  void FreeGraveyard(uint32_t before_epoch);
  // Between epochs only: frees what concurrent index growth had to keep alive.
  void ReleaseRetired() { point_->ReleaseRetired(); }

 private:
  TableId id_;
  Schema schema_;
  std::vector<IndexSchema> index_schemas_;
  std::unique_ptr<PrimaryIndex> primary_;
  std::unique_ptr<PointIndex> point_;
  std::atomic<size_t> dead_estimate_{0};
  std::vector<std::pair<uint32_t, std::unique_ptr<Row>>> graveyard_;
  std::vector<std::unique_ptr<SecondaryIndex>> secondary_;
  size_t entries_after_rebuild_ = 0;  // secondary-index entries right after RebuildIndexes
  // Per secondary index: the spans of the last epoch that declared any.
  struct UnknownSpans {
    SpinLock lock;
    uint32_t epoch = UINT32_MAX;  // none yet
    std::vector<KeySpanRef> spans;
  };
  std::vector<std::unique_ptr<UnknownSpans>> unknown_spans_;
};

// The primary key of `key` as text for error messages, "(1, 'a')"; its bytes in hex when
// it does not decode.
std::string DescribeKey(const Table& table, const Key& key);

}  // namespace caracal::engine
