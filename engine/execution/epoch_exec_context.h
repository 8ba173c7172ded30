// EpochExecContext: what a procedure's Execute sees during an epoch's execution phase.
// Reads binary-search a row's sorted version array for the newest version before the
// transaction's serial id (VisibleBefore), waiting while it is pending; writes fill the
// pending versions initialization created (or publish them at once, as the procedure
// says), and the rest of the API (range reads, ApplyRowUpdate, abort) works on the
// transaction's cache. Defined here in full, so that EpochWorker's execution step, which
// constructs it, compiles it as before.
#pragma once

#include <fmt/format.h>

#include <string>
#include <thread>

#include "engine/execution/epoch_txn.h"
#include "engine/execution/epoch_worker.h"
#include "engine/procedure/procedure.h"
#include "engine/procedure/worker_scratch.h"
#include "engine/storage/committed_reads.h"
#include "engine/storage/database.h"
#include "engine/storage/row.h"
#include "engine/storage/spin_lock.h"
#include "engine/storage/table.h"
#include "engine/types/errors.h"

namespace caracal::engine {

// The newest settled version of `row` before `sid`, waiting while it is pending; nullptr
// if the row does not exist at that point. For the execution phase only.
inline const RowValue* VisibleBefore(const Row& row, SerialId sid) {
  for (int64_t i = row.FindBefore(sid); i >= 0; --i) {
    uintptr_t v = row.entry(static_cast<uint32_t>(i)).value.load(std::memory_order_acquire);
    for (int spins = 0; v == version::kPending; ++spins) {
      // The writer has a smaller serial id, so it is running or queued ahead of us on
      // some worker and cannot be waiting for us: spin, then yield (workers may
      // outnumber cores).
      if (spins < 256)
        CpuRelax();
      else
        std::this_thread::yield();
      v = row.entry(static_cast<uint32_t>(i)).value.load(std::memory_order_acquire);
    }
    if (v == version::kIgnore) continue;
    if (v == version::kTombstone) return nullptr;
    return reinterpret_cast<const RowValue*>(v);
  }
  return nullptr;
}

class EpochExecContext final : public ExecContext {
 public:
  EpochExecContext(Database& db, EpochTxn& txn, EpochWorker& worker) : db_(db), txn_(txn), worker_(worker) {}

  const TxnInput& input() const override { return txn_.request.input; }
  Table& table(TableId id) override { return db_.table(id); }
  uint64_t serial_id() const override { return txn_.sid; }

  const RowValue* Read(TableId table_id, const Key& key) override {
    Table& t = db_.table(table_id);
    CacheEntry* e = txn_.Find(&t, key, key.Hash());
    if (e != nullptr) {
      // A row declared or prefetched but absent during the append step cannot appear
      // later in the epoch: every insert happens in the insert step.
      return Current(*e);
    }
    Row* row = t.Find(key);
    return row ? VisibleBefore(*row, txn_.sid) : nullptr;
  }

  void Scan(TableId table_id, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    Table& t = db_.table(table_id);
    if (const RangeDecl* r = RangeScannedBefore(t, lo, hi)) {
      for (Row* row : r->candidates) {
        const RowValue* v = ReadRow(t, row->key, *row);
        if (v != nullptr && !visit(row->key, *v)) return;
      }
      return;
    }
    t.ForEach(lo, hi, [&](const Key& k, Row& row) {
      const RowValue* v = ReadRow(t, k, row);
      return v == nullptr || visit(k, *v);
    });
  }

  void ScanIndex(TableId table_id, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    Table& t = db_.table(table_id);
    if (index < 0 || index >= t.num_indexes())
      throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn_.request.procedure->name(),
                                  t.name(), index));
    if (const auto* spans = t.UnknownIndexSpans(index, EpochOf(txn_.sid)))
      return ScanIndexWithUnknownSpans(t, index, lo, hi, *spans, visit);
    t.ForEachIndexEntry(index, lo, hi, [&](std::string_view index_key, const Key& pk) {
      Row* row = t.Find(pk);
      if (row == nullptr) return true;
      const RowValue* v = ReadRow(t, pk, *row);
      // The entry may be stale: only a row whose visible version carries exactly these
      // index values belongs to the scan (and is visited once).
      if (v == nullptr) return true;
      std::optional<Key> current = t.IndexKey(index, *v);
      if (!current || current->view() != index_key) return true;
      return visit(pk, *v);
    });
  }

  // ScanIndex when writes of this epoch may add entries they did not declare: the
  // index's entries, and the rows of those writes' spans, each row once, kept when its
  // value at our position has its key in [lo, hi), in index order. The spans are fixed
  // before execution, so the result does not depend on whether a writer has run yet.
  void ScanIndexWithUnknownSpans(Table& t, int index, const Key& lo, const Key& hi,
                                 const std::vector<Table::KeySpanRef>& spans,
                                 const std::function<bool(const Key&, const RowValue&)>& visit) {
    struct Hit {
      Key entry;  // index key ‖ primary key: the index's own order
      const Key* key;
      const RowValue* value;
    };
    std::vector<Hit> hits;
    auto consider = [&](const Key& k, Row& row) {
      const RowValue* v = ReadRow(t, k, row);
      if (v == nullptr) return;
      std::optional<Key> ik = t.IndexKey(index, *v);
      // The bounds as ForEachIndexEntry applies them: lo to the entry, hi to the index key.
      if (!ik || (!hi.empty() && ik->view() >= hi.view())) return;
      Key entry = Table::IndexEntryKey(*ik, k);
      if (entry.view() < lo.view()) return;
      hits.push_back({std::move(entry), &k, v});
    };
    t.ForEachIndexEntry(index, lo, hi, [&](std::string_view, const Key& pk) {
      if (Row* row = t.Find(pk)) consider(row->key, *row);
      return true;
    });
    for (const Table::KeySpanRef& span : spans) {
      if (IsPointSpan(span.lo, span.hi)) {
        if (Row* row = t.Find(span.lo)) consider(row->key, *row);
        continue;
      }
      t.ForEach(span.lo, span.hi, [&](const Key& k, Row& row) {
        consider(k, row);
        return true;
      });
    }
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.entry.view() < b.entry.view(); });
    hits.erase(std::unique(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.entry.view() == b.entry.view(); }),
               hits.end());
    for (const Hit& h : hits)
      if (!visit(*h.key, *h.value)) return;
  }

  const std::vector<Key>& RangeRows(int range_id) override {
    if (range_id < 0 || range_id >= static_cast<int>(txn_.ranges.size()))
      throw ApiMisuse(fmt::format("procedure {}: no range #{} was declared", txn_.request.procedure->name(), range_id));
    RangeDecl& r = txn_.ranges[range_id];
    if (!r.filtered) {
      // The append step kept every key whose first version precedes us; of those, the
      // range holds the rows that exist at our position, before our own writes.
      r.filtered = true;
      for (Row* row : r.candidates)
        if (VisibleBefore(*row, txn_.sid) != nullptr) r.rows.push_back(row->key);
      // And the keys this transaction creates in the range: a statement after its own
      // INSERT sees that row (the caller's Read says whether it exists by then). Every
      // insert was declared before execution began, so this list is complete.
      const size_t existing = r.rows.size();
      ForEachOwnCreate(*r.table, r.lo, r.hi, [&](const Key& key) { r.rows.push_back(key); });
      if (r.rows.size() != existing) {
        std::sort(r.rows.begin(), r.rows.end());
        r.rows.erase(std::unique(r.rows.begin(), r.rows.end()), r.rows.end());
      }
    }
    return r.rows;
  }

  bool Insert(TableId table_id, const Key& key, RowValuePtr value) override {
    CacheEntry& e = Declared(table_id, key, "insert into", WriteKind::kInsert);
    if (!e.creates) throw Undeclared(e, "insert into", "as an update or delete only");
    if (Current(e) != nullptr) return false;
    SetValue(e, std::move(value), false);
    return true;
  }

  void Upsert(TableId table_id, const Key& key, RowValuePtr value) override {
    CacheEntry& e = Declared(table_id, key, "upsert into", WriteKind::kUpsert);
    if (!e.creates) throw Undeclared(e, "upsert into", "as an update or delete only");
    SetValue(e, std::move(value), false);
  }

  bool Update(TableId table_id, const Key& key, RowValuePtr value) override {
    CacheEntry& e = Declared(table_id, key, "update", WriteKind::kUpdate);
    if (!e.has_version || Current(e) == nullptr) return false;
    SetValue(e, std::move(value), false);
    return true;
  }

  bool Delete(TableId table_id, const Key& key) override {
    CacheEntry& e = Declared(table_id, key, "delete from", WriteKind::kDelete);
    if (!e.has_version || Current(e) == nullptr) return false;
    SetValue(e, nullptr, true);
    return true;
  }

  RowUpdateFuture ApplyRowUpdate(TableId table_id, const Key& key, RowUpdateCallback callback, int weight) override {
    CacheEntry& e = Declared(table_id, key, "update", WriteKind::kUpdate);
    if (e.piece != nullptr && txn_.published && !e.written) {
      // Split: the piece, queued on another core at our serial position, runs it.
      Piece& p = *e.piece;
      p.callback = std::move(callback);
      e.written = true;
      e.stored = true;  // the piece settles the version
      p.posted.store(Piece::kPosted, std::memory_order_release);
      return RowUpdateFuture(&p.state);
    }
    if (!e.has_version) return RowUpdateFuture(false);
    const RowValue* old = Current(e);
    if (old == nullptr) return RowUpdateFuture(false);
    RowValuePtr updated = callback(*old);
    if (!updated) return RowUpdateFuture(false);
    SetValue(e, std::move(updated), false);
    return RowUpdateFuture(true);
  }

  int64_t Savepoint() override {
    if (txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: Savepoint() after Publish()", txn_.request.procedure->name()));
    ++txn_.open_savepoints;
    return static_cast<int64_t>(txn_.undo.size());
  }

  void RollbackToSavepoint(int64_t mark) override {
    CheckSavepoint(mark, "RollbackToSavepoint");
    for (size_t i = txn_.undo.size(); i-- > static_cast<size_t>(mark);) {
      EpochTxn::UndoRecord& r = txn_.undo[i];
      CacheEntry& e = *r.entry;
      if (e.staged) txn_.replaced.push_back(std::move(e.staged));  // Read() may have handed it out
      e.written = r.written;
      e.tombstone = r.tombstone;
      e.staged = std::move(r.staged);
      e.own_value = r.own_value;
    }
    txn_.undo.resize(static_cast<size_t>(mark));
    CloseSavepoint();
  }

  void ReleaseSavepoint(int64_t mark) override {
    CheckSavepoint(mark, "ReleaseSavepoint");
    CloseSavepoint();  // the records stay for an enclosing savepoint
  }

  void Publish() override {
    if (txn_.state != EpochTxn::State::kRunning)
      throw ApiMisuse(fmt::format("procedure {}: Publish() after Abort() or Retry()", txn_.request.procedure->name()));
    if (txn_.published) return;
    txn_.published = true;
    for (CacheEntry& e : txn_.cache)
      if (e.written && !e.stored) Store(e);
  }

  void Abort(std::string sqlstate, std::string message, ErrorFields fields) override {
    if (txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: Abort() after Publish() (\"{}\")", txn_.request.procedure->name(),
                                  message));
    txn_.Fail(std::move(sqlstate), std::move(message), std::move(fields));
  }

  void Retry() override {
    if (txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: Retry() after Publish()", txn_.request.procedure->name()));
    txn_.state = EpochTxn::State::kRetry;
  }

  const std::vector<Value>& scratch() const override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return worker_.scratch(); }

  int64_t NextVal(std::string_view sequence) override {
    if (!txn_.solo)
      throw ApiMisuse(fmt::format("procedure {}: NextVal() during execution outside a solo epoch",
                                  txn_.request.procedure->name()));
    // Alone in its epoch, after every earlier transaction's draws at sequencing: the
    // value a serial execution in submission order draws here.
    const int64_t v = db_.sequences().NextVal(sequence);
    txn_.result.drawn.push_back({std::string(sequence), v, db_.sequences().draws()});
    return v;
  }
  void Notice(std::string message) override { txn_.result.notices.push_back(std::move(message)); }
  void Emit(std::vector<Value> row) override { txn_.result.rows.push_back(std::move(row)); }
  void SetRowCount(int64_t rows) override { txn_.result.row_count = rows; }

 private:
  // Reads a row reached by a scan: this transaction's own write if it has one.
  const RowValue* ReadRow(Table& t, const Key& k, Row& row) {
    if (!txn_.cache.empty() && row.FindExact(txn_.sid) >= 0) {
      CacheEntry* e = txn_.Find(&t, k, k.Hash());
      if (e != nullptr && e->written) return e->tombstone ? nullptr : e->own_value;
    }
    return VisibleBefore(row, txn_.sid);
  }

  void CheckSavepoint(int64_t mark, const char* what) const {
    if (txn_.open_savepoints <= 0 || mark < 0 || static_cast<size_t>(mark) > txn_.undo.size())
      throw ApiMisuse(fmt::format("procedure {}: {}({}) without that savepoint", txn_.request.procedure->name(), what, mark));
  }
  void CloseSavepoint() {
    if (--txn_.open_savepoints > 0) return;
    for (EpochTxn::UndoRecord& r : txn_.undo)
      if (r.staged) txn_.replaced.push_back(std::move(r.staged));
    txn_.undo.clear();
  }

  ApiMisuse Undeclared(const CacheEntry& e, const char* verb, const char* how) {
    return ApiMisuse(fmt::format("procedure {}: {} \"{}\" at key {}, which was declared {}",
                                 txn_.request.procedure->name(), verb, e.table->name(), DescribeKey(*e.table, e.key),
                                 how));
  }

  CacheEntry& Declared(TableId table_id, const Key& key, const char* verb, WriteKind kind) {
    Table& t = db_.table(table_id);
    CacheEntry* e = txn_.Find(&t, key, key.Hash());
    if (txn_.solo) return DeclaredNow(t, key, e, kind);
    if (e == nullptr && InDeclaredRange(t, key)) {
      // A key of a declared range with no row at our position: declared, but there is
      // nothing to write, whether or not a dead row object is still in the index.
      e = &txn_.Add(&t, key, key.Hash());
      e->declared_write = true;
    }
    if (e == nullptr || !e->declared_write)
      throw ApiMisuse(fmt::format("procedure {}: {} \"{}\" at key {}, which was not declared in its write set",
                                  txn_.request.procedure->name(), verb, t.name(), DescribeKey(t, key)));
    return *e;
  }

  // A solo transaction's write, declared as it is made: the row gets this transaction's
  // pending version now, as the insert or append step would have given it. Nothing
  // else runs in the epoch, so no reader can have passed the row's array already.
  CacheEntry& DeclaredNow(Table& t, const Key& key, CacheEntry* e, WriteKind kind) {
    if (e == nullptr) e = &txn_.Add(&t, key, key.Hash());
    e->declared_write = true;
    const bool creates = kind == WriteKind::kInsert || kind == WriteKind::kUpsert;
    if (creates) {
      e->creates = true;
      e->kind = kind;
    }
    e->needs_append = false;
    if (e->has_version) return *e;
    if (creates)
      e->row = t.FindOrCreate(key);
    else if (e->row == nullptr)
      e->row = t.Find(key);
    if (e->row != nullptr && worker_.AppendDuringSoloExecution(t, *e->row, txn_.sid, !creates)) e->has_version = true;
    return *e;
  }

  // A declared range of exactly [lo, hi) in which this transaction creates no row: the
  // append step already walked it, and its candidates (in key order) are every row of it
  // that existed before us - the rest of the index's rows there are later transactions'
  // inserts, invisible here. A scan of it reads those rows instead of searching the
  // index again (a SELECT sum(...) before a range UPDATE of the same rows). Our own
  // inserts are not candidates (their first version is ours), hence the condition.
  const RangeDecl* RangeScannedBefore(const Table& t, const Key& lo, const Key& hi) const {
    const RangeDecl* found = nullptr;
    for (const RangeDecl& r : txn_.ranges)
      if (r.table == &t && r.lo == lo && r.hi == hi) {
        found = &r;
        break;
      }
    if (found == nullptr) return nullptr;
    bool own = false;
    ForEachOwnCreate(t, lo, hi, [&](const Key&) { own = true; });
    return own ? nullptr : found;
  }

  // Calls fn(key) for each key this transaction declared as an insert or upsert in
  // [lo, hi) of `t` (hi empty: unbounded).
  template <typename F>
  void ForEachOwnCreate(const Table& t, const Key& lo, const Key& hi, F&& fn) const {
    for (const CacheEntry& e : txn_.cache)
      if (e.creates && e.table == &t && !(e.key < lo) && (hi.empty() || e.key < hi)) fn(e.key);
  }

  bool InDeclaredRange(const Table& t, const Key& key) const {
    for (const RangeDecl& r : txn_.ranges)
      if (r.table == &t && !(key < r.lo) && (r.hi.empty() || key < r.hi)) return true;
    return false;
  }

  // The row's value as this transaction sees it before its own write.
  const RowValue* Current(CacheEntry& e) {
    if (e.piece != nullptr && e.piece->posted.load(std::memory_order_acquire) == Piece::kPosted) {
      RowUpdateFuture(&e.piece->state).Wait();  // our own update, running as a piece
      return VisibleBefore(*e.row, txn_.sid + 1);
    }
    if (e.written) return e.tombstone ? nullptr : e.own_value;
    return e.row ? VisibleBefore(*e.row, txn_.sid) : nullptr;
  }

  void SetValue(CacheEntry& e, RowValuePtr value, bool tombstone) {
    if (!e.has_version)
      throw ApiMisuse(fmt::format("procedure {}: write of \"{}\" at key {} that does not exist at this point",
                                  txn_.request.procedure->name(), e.table->name(), DescribeKey(*e.table, e.key)));
    if (e.stored)
      throw ApiMisuse(fmt::format("procedure {}: \"{}\" at key {} written again after Publish(); readers may "
                                  "already have seen the first write",
                                  txn_.request.procedure->name(), e.table->name(), DescribeKey(*e.table, e.key)));
    if (txn_.open_savepoints > 0)  // what a rollback to the open savepoint restores (the value moves there)
      txn_.undo.push_back({&e, e.written, e.tombstone, std::move(e.staged), e.own_value});
    e.written = true;
    e.tombstone = tombstone;
    if (value && txn_.maintains_indexes && e.table->num_indexes() > 0) e.table->AddMissingIndexEntries(e.key, *value);
    // Read() may have handed out the previous own value: keep it until the end.
    if (e.staged) txn_.replaced.push_back(std::move(e.staged));
    e.staged = std::move(value);
    e.own_value = e.staged.get();
    if (txn_.published) Store(e);
  }

  void Store(CacheEntry& e) {
    if (e.version_index < 0) e.version_index = e.row->FindExact(txn_.sid);
    uintptr_t v = e.tombstone ? version::kTombstone : reinterpret_cast<uintptr_t>(e.staged.release());
    e.row->entry(static_cast<uint32_t>(e.version_index)).value.store(v, std::memory_order_release);
    e.stored = true;
  }

  Database& db_;
  EpochTxn& txn_;
  EpochWorker& worker_;
};

}  // namespace caracal::engine
