// EpochDeclareContext: what a procedure's Declare sees during an epoch's initialization
// phase. Declared writes get their pending versions (insert step: new rows; append step:
// existing rows and resolved ranges, batch-appended when the row lock is contended) and
// are recorded in the transaction's cache for the execution phase. Defined here in full,
// so that EpochWorker's steps, which construct it, compile it as before.
#pragma once

#include <fmt/format.h>

#include <string>

#include "engine/execution/epoch_txn.h"
#include "engine/execution/epoch_worker.h"
#include "engine/procedure/procedure.h"
#include "engine/storage/committed_reads.h"
#include "engine/storage/database.h"
#include "engine/storage/table.h"
#include "engine/types/errors.h"

namespace caracal::engine {

class EpochDeclareContext final : public DeclareContext {
 public:
  EpochDeclareContext(Database& db, EpochTxn& txn, EpochWorker& worker, uint32_t epoch)
      : db_(db), txn_(txn), worker_(worker), epoch_(epoch) {}

  const TxnInput& input() const override { return txn_.request.input; }
  Table& table(TableId id) override { return db_.table(id); }
  uint64_t serial_id() const override { return txn_.sid; }

  void DeclareWrite(TableId table_id, const Key& key, WriteKind kind) override {
    Table& t = db_.table(table_id);
    uint64_t hash = key.Hash();
    DeclareWriteAt(t, key, hash, txn_.Find(&t, key, hash), kind);
  }

  bool DeclareInsertOnce(TableId table_id, const Key& key) override {
    Table& t = db_.table(table_id);
    uint64_t hash = key.Hash();
    CacheEntry* e = txn_.Find(&t, key, hash);
    if (e != nullptr && e->declared_write && e->kind == WriteKind::kInsert) return false;
    DeclareWriteAt(t, key, hash, e, WriteKind::kInsert);
    return true;
  }

  // DeclareWrite, given the transaction's cache entry for the row (null if none).
  void DeclareWriteAt(Table& t, const Key& key, uint64_t hash, CacheEntry* e, WriteKind kind) {
    const bool creates = kind == WriteKind::kInsert || kind == WriteKind::kUpsert;
    if (e != nullptr && e->declared_write) {
      if (kind == WriteKind::kInsert && e->kind == WriteKind::kInsert)
        throw ApiMisuse(fmt::format("procedure {}: key {} of table \"{}\" inserted twice in one transaction",
                                    txn_.request.procedure->name(), DescribeKey(t, key), t.name()));
      if (creates) e->kind = kind;
    } else {
      if (e == nullptr) e = &txn_.Add(&t, key, hash);
      e->declared_write = true;
      e->kind = kind;
    }
    if (e->has_version) return;
    if (creates) {
      e->creates = true;
      e->needs_append = false;
      e->row = t.FindOrCreate(key);
      worker_.Append(t, *e->row, txn_.sid, false);
      e->has_version = true;
    } else {
      e->needs_append = true;
    }
  }

  int DeclareRange(TableId table_id, const Key& lo, const Key& hi, RangeKind kind) override {
    RangeDecl& r = txn_.ranges.emplace_back();
    r.table = &db_.table(table_id);
    r.lo = lo;
    r.hi = hi;
    r.kind = kind;
    return static_cast<int>(txn_.ranges.size() - 1);
  }

  void DeclareIndexEntry(TableId table_id, int index, const Key& index_key, const Key& primary_key) override {
    Table& t = db_.table(table_id);
    if (index < 0 || index >= t.num_indexes())
      throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn_.request.procedure->name(),
                                  t.name(), index));
    t.AddIndexEntry(index, index_key, primary_key);
  }

  void DeclareIndexUnknown(TableId table_id, int index, const Key& lo, const Key& hi) override {
    Table& t = db_.table(table_id);
    if (index < 0 || index >= t.num_indexes())
      throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn_.request.procedure->name(),
                                  t.name(), index));
    t.AddUnknownIndexSpan(index, epoch_, lo, hi);
    txn_.maintains_indexes = true;
  }

  void DeclareRowUpdate(TableId table_id, const Key& key, int weight) override {
    DeclareWrite(table_id, key, WriteKind::kUpdate);
    Table& t = db_.table(table_id);
    CacheEntry* e = txn_.Find(&t, key, key.Hash());
    e->row_update_weight = std::max(e->row_update_weight, std::max(weight, 1));
  }

  void Prefetch(TableId table_id, const Key& key) override {
    Table& t = db_.table(table_id);
    uint64_t hash = key.Hash();
    if (txn_.Find(&t, key, hash) == nullptr) txn_.Add(&t, key, hash).needs_append = false;
  }

  const RowValue* ReadCommitted(TableId table_id, const Key& key) override { return committed().Read(table_id, key); }

  void ScanCommitted(TableId table_id, const Key& lo, const Key& hi,
                     const std::function<bool(const Key&, const RowValue&)>& visit) override {
    committed().Scan(table_id, lo, hi, visit);
  }

  void ScanIndexCommitted(TableId table_id, int index, const Key& lo, const Key& hi,
                          const std::function<bool(const Key&, const RowValue&)>& visit) override {
    committed().ScanIndex(table_id, index, lo, hi, visit, txn_.request.procedure->name());
  }

  CommittedReads committed() const { return CommittedReads(db_, MakeSerialId(epoch_, 0)); }

  std::vector<Value>& scratch() override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return worker_.scratch(); }

 private:
  Database& db_;
  EpochTxn& txn_;
  EpochWorker& worker_;
  uint32_t epoch_;
};

}  // namespace caracal::engine
