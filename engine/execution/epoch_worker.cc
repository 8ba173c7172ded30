#include "engine/execution/epoch_worker.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "engine/storage/committed_reads.h"
#include "engine/types/errors.h"
#include "engine/execution/lottery.h"
#include "engine/procedure/procedure.h"

#include <algorithm>
#include <unordered_map>

namespace caracal {

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string DescribeKey(const Table& table, const Key& key) {
  try {
    std::vector<Value> values = DecodeKey(table.schema(), table.schema().primary_key(), key);
    std::string out = "(";
    for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].ToText();
    return out + ")";
  } catch (const EngineError&) {
    return "0x" + key.ToHex();
  }
}

class DeclareContextImpl final : public DeclareContext {
 public:
  DeclareContextImpl(Database& db, EpochTxn& txn, EpochWorker& worker, uint32_t epoch)
      : db_(db), txn_(txn), worker_(worker), epoch_(epoch) {}

  const TxnInput& input() const override { return txn_.request.input; }
  Table& table(TableId id) override { return db_.table(id); }

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

class ExecContextImpl final : public ExecContext {
 public:
  ExecContextImpl(Database& db, EpochTxn& txn, WorkerScratch& scratch) : db_(db), txn_(txn), worker_scratch_(scratch) {}

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
    CacheEntry& e = Declared(table_id, key, "insert into");
    if (!e.creates) throw Undeclared(e, "insert into", "as an update or delete only");
    if (Current(e) != nullptr) return false;
    SetValue(e, std::move(value), false);
    return true;
  }

  void Upsert(TableId table_id, const Key& key, RowValuePtr value) override {
    CacheEntry& e = Declared(table_id, key, "upsert into");
    if (!e.creates) throw Undeclared(e, "upsert into", "as an update or delete only");
    SetValue(e, std::move(value), false);
  }

  bool Update(TableId table_id, const Key& key, RowValuePtr value) override {
    CacheEntry& e = Declared(table_id, key, "update");
    if (!e.has_version || Current(e) == nullptr) return false;
    SetValue(e, std::move(value), false);
    return true;
  }

  bool Delete(TableId table_id, const Key& key) override {
    CacheEntry& e = Declared(table_id, key, "delete from");
    if (!e.has_version || Current(e) == nullptr) return false;
    SetValue(e, nullptr, true);
    return true;
  }

  RowUpdateFuture ApplyRowUpdate(TableId table_id, const Key& key, RowUpdateCallback callback, int weight) override {
    CacheEntry& e = Declared(table_id, key, "update");
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
  WorkerScratch& worker_scratch() override { return worker_scratch_; }
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

  ApiMisuse Undeclared(const CacheEntry& e, const char* verb, const char* how) {
    return ApiMisuse(fmt::format("procedure {}: {} \"{}\" at key {}, which was declared {}",
                                 txn_.request.procedure->name(), verb, e.table->name(), DescribeKey(*e.table, e.key),
                                 how));
  }

  CacheEntry& Declared(TableId table_id, const Key& key, const char* verb) {
    Table& t = db_.table(table_id);
    CacheEntry* e = txn_.Find(&t, key, key.Hash());
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
  WorkerScratch& worker_scratch_;
};

}  // namespace

const RowValue* VisibleBefore(const Row& row, SerialId sid) {
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

// Execution touches rows that initialization found long ago and that are likely out of
// cache: start loading the next transaction's rows and their newest versions while the
// current one runs.
void EpochWorker::PrefetchRows(const EpochTxn& txn) {
  for (const CacheEntry& e : txn.cache) {
    if (e.row == nullptr) continue;
    __builtin_prefetch(e.row);
    // The array's shape is frozen during execution; the newest settled version is one
    // of the last two entries (the last may be this or another transaction's pending one).
    uint32_t n = e.row->size();
    for (uint32_t back = 1; back <= 2 && back <= n; ++back) {
      uintptr_t v = e.row->entry(n - back).value.load(std::memory_order_relaxed);
      if (version::IsData(v)) __builtin_prefetch(reinterpret_cast<const void*>(v));
    }
  }
}

bool EpochWorker::Append(Table& table, Row& row, SerialId sid, bool only_if_exists) {
  // The first version only changes under the lock, and during the append step only in
  // ways that keep the answer (minor collection keeps a version older than the epoch).
  if (only_if_exists && !(row.first_sid() < sid)) return false;
  row.last_write_epoch.store(epoch_, std::memory_order_relaxed);
  written_rows_.push_back({&table, &row, epoch_});
  uint32_t index = row.buffer_index.load(std::memory_order_acquire);
  if (index == Row::kNoBuffer) {
    if (row.lock().TryLock()) {
      lock_waits_.Add(0);
      InsertLocked(row, sid);
      row.lock().Unlock();
      return true;
    }
    if (options_.batch_append) index = pool_.BufferOf(row);
    if (index == Row::kNoBuffer) {  // batch append off, or the pool is exhausted: wait
      const int64_t start = NowNs();
      row.lock().Lock();
      lock_waits_.Add(static_cast<uint64_t>(NowNs() - start));
      InsertLocked(row, sid);
      row.lock().Unlock();
      return true;
    }
  }
  while (!pool_.Add(id_, index, sid)) pool_.FlushOne(id_, index, [this](Row& r) { MinorCollect(r); });
  ++batch_appended_;
  return true;
}

void EpochWorker::InsertLocked(Row& row, SerialId sid) {
  MinorCollect(row);
  row.InsertVersion(sid, version::kPending);
}

// The minor collector (§3.5): initialization holds the row's lock and has the row in
// cache anyway, so it trims what no reader can need any more.
void EpochWorker::MinorCollect(Row& row) {
  if (!options_.gc || !options_.minor_gc) return;
  if (row.size() >= 2 && row.entry(1).sid < init_horizon_) freed_versions_ += row.Collect(init_horizon_);
}

void EpochWorker::InsertStep(EpochTxn& txn) {
  if (txn.state != EpochTxn::State::kRunning) return;  // its Sequence step failed
  DeclareContextImpl ctx(db_, txn, *this, epoch_);
  txn.Guard([&] { txn.request.procedure->Declare(ctx); });
}

void EpochWorker::AppendStep(EpochTxn& txn) {
  if (txn.state != EpochTxn::State::kRunning) return;
  for (CacheEntry& e : txn.cache) {
    if (!e.declared_write) {
      if (e.row == nullptr) e.row = e.table->Find(e.key);  // a prefetch
      continue;
    }
    if (!e.needs_append || e.has_version) continue;
    e.needs_append = false;
    e.row = e.table->Find(e.key);
    if (e.row != nullptr && Append(*e.table, *e.row, txn.sid, true)) e.has_version = true;
  }
  for (RangeDecl& r : txn.ranges) {
    r.table->ForEach(r.lo, r.hi, [&](const Key& k, Row& row) {
      uint64_t hash = k.Hash();
      CacheEntry* e = txn.Find(r.table, k, hash);
      if (e != nullptr && e->has_version) {
        if (row.first_sid() < txn.sid) r.candidates.push_back(&row);
        return true;
      }
      if (!Append(*r.table, row, txn.sid, true)) return true;
      if (e == nullptr) e = &txn.Add(r.table, k, hash);
      e->declared_write = true;
      e->kind = r.kind == RangeKind::kDelete ? WriteKind::kDelete : WriteKind::kUpdate;
      e->row = &row;
      e->has_version = true;
      r.candidates.push_back(&row);
      return true;
    });
  }
}

void EpochWorker::ExecuteStep(EpochTxn& txn) {
  if (txn.state == EpochTxn::State::kRunning) {
    ExecContextImpl ctx(db_, txn, scratch_);
    txn.Guard([&] { txn.request.procedure->Execute(ctx); });
    if (txn.state == EpochTxn::State::kRunning) ctx.Publish();
  }
  Settle(txn);
}

// Every version this transaction owns ends settled: its write, or an ignore marker.
void EpochWorker::Settle(EpochTxn& txn) {
  for (CacheEntry& e : txn.cache) {
    if (e.piece != nullptr) {  // never posted: its core must not wait any longer
      int expected = Piece::kWaiting;
      e.piece->posted.compare_exchange_strong(expected, Piece::kCancelled, std::memory_order_acq_rel);
    }
    if (!e.has_version || e.stored) continue;
    if (e.version_index < 0) e.version_index = e.row->FindExact(txn.sid);
    e.row->entry(static_cast<uint32_t>(e.version_index)).value.store(version::kIgnore, std::memory_order_release);
    e.staged.reset();
  }
}

void EpochWorker::CollectCandidates(EpochJob& job) {
  std::vector<SplitCandidate>& mine = job.candidates[id_];
  const size_t n = job.txns.size();
  for (size_t i = id_; i < n; i += num_workers_) {
    EpochTxn& txn = *job.txns[i];
    if (txn.state != EpochTxn::State::kRunning) continue;
    for (CacheEntry& e : txn.cache) {
      // A row holding fewer versions than the threshold cannot have that many pending:
      // most candidates drop out here, in parallel, before worker 0's serial planning.
      if (e.row_update_weight > 0 && e.has_version && e.row->size() >= options_.split_threshold)
        mine.push_back({&txn, &e});
    }
  }
}

// Listing 1, on worker 0 while the others wait: the contention set is known now (every
// pending version of the epoch is in its array), so the whole schedule is fixed before
// execution starts. Each core's queue is in serial order, so execution cannot deadlock:
// an item waits only for versions of smaller serial ids, or (a piece) for its own
// transaction to post it, and a transaction never waits for a piece placed on its own
// core (those run inline). A transaction's pieces on one core run as a group, each as it
// is posted (RunPieces), because the transaction may wait for one before posting another.
void EpochWorker::PlanPieces(EpochJob& job) {
  const SerialId epoch_start = MakeSerialId(job.epoch, 0);
  std::unordered_map<const Row*, bool> contended;
  std::vector<SplitCandidate> chosen;
  std::vector<LotteryTicket> tickets;
  for (auto& list : job.candidates) {
    for (const SplitCandidate& c : list) {
      const Row* row = c.entry->row;
      auto [it, inserted] = contended.try_emplace(row, false);
      if (inserted) {
        const int64_t before = row->FindBefore(epoch_start);
        it->second = row->size() - static_cast<uint32_t>(before + 1) >= options_.split_threshold;
      }
      if (!it->second) continue;
      chosen.push_back(c);
      tickets.push_back({row, static_cast<uint32_t>(c.entry->row_update_weight), c.txn->sid});
    }
    list.clear();
  }
  if (chosen.empty()) return;
  const std::vector<int> cores = AssignPieces(tickets, num_workers_);
  std::vector<std::vector<QueueItem>> pieces_of(num_workers_);
  std::unordered_map<const Row*, bool> split_rows;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const int owner = static_cast<int>((SequenceOf(chosen[i].txn->sid) - 1) % num_workers_);
    if (cores[i] == owner) continue;  // its own core: inline is the same place, minus a wait
    Piece& p = job.pieces.emplace_back();
    p.txn = chosen[i].txn;
    p.entry = chosen[i].entry;
    chosen[i].entry->piece = &p;
    pieces_of[cores[i]].push_back({p.txn->sid, p.txn, &p});
    split_rows.emplace(chosen[i].entry->row, true);
  }
  job.split_rows = split_rows.size();
  if (job.pieces.empty()) return;
  job.queues.resize(num_workers_);
  const size_t n = job.txns.size();
  for (int c = 0; c < num_workers_; ++c) {
    std::vector<QueueItem>& pieces = pieces_of[c];
    std::sort(pieces.begin(), pieces.end(), [](const QueueItem& a, const QueueItem& b) { return a.sid < b.sid; });
    std::vector<QueueItem>& queue = job.queues[c];
    size_t p = 0;
    for (size_t i = c; i < n; i += num_workers_) {
      EpochTxn* txn = job.txns[i].get();
      // A transaction precedes its own pieces placed on this core (none: those run inline).
      while (p < pieces.size() && pieces[p].sid < txn->sid) queue.push_back(pieces[p++]);
      queue.push_back({txn->sid, txn, nullptr});
    }
    while (p < pieces.size()) queue.push_back(pieces[p++]);
  }
}

void EpochWorker::RunPieces(std::span<const QueueItem> pieces) {
  // Pieces of one transaction share a serial position, so the queue's order among them
  // is arbitrary, and the transaction may wait for one before it posts the next (SQL's
  // UPDATE ... RETURNING INTO). Waiting for them in queue order could deadlock; running
  // each as it is posted cannot, and their rows differ, so the order changes nothing.
  std::vector<bool> settled(pieces.size(), false);
  size_t left = pieces.size();
  for (int spins = 0; left > 0; ++spins) {
    bool progressed = false;
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (settled[i]) continue;
      const int posted = pieces[i].piece->posted.load(std::memory_order_acquire);
      if (posted == Piece::kWaiting) continue;
      // Cancelled: the transaction settles the version itself.
      if (posted == Piece::kPosted) RunPostedPiece(*pieces[i].piece);
      settled[i] = true;
      --left;
      progressed = true;
    }
    if (progressed) {
      spins = 0;
    } else if (spins < 256) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

void EpochWorker::RunPostedPiece(Piece& piece) {
  const CacheEntry& e = *piece.entry;
  const SerialId sid = piece.txn->sid;
  uintptr_t value = version::kIgnore;  // unchanged (or absent): readers skip to the previous
  bool applied = false;
  if (const RowValue* old = VisibleBefore(*e.row, sid)) {
    try {
      if (RowValuePtr updated = piece.callback(*old)) {
        if (piece.txn->maintains_indexes && e.table->num_indexes() > 0) e.table->AddMissingIndexEntries(e.key, *updated);
        value = reinterpret_cast<uintptr_t>(updated.release());
        applied = true;
      }
    } catch (const std::exception&) {
      applied = false;  // the transaction has published: the update is lost, not the epoch
    }
  }
  e.row->entry(static_cast<uint32_t>(e.row->FindExact(sid))).value.store(value, std::memory_order_release);
  piece.state.applied = applied;
  piece.state.done.store(true, std::memory_order_release);
}

void EpochWorker::MajorCollect(SerialId horizon) {
  const size_t ring = gc_ring_.size();
  std::vector<WrittenRow>& bucket = gc_ring_[epoch_ % ring];
  bucket.insert(bucket.end(), written_rows_.begin(), written_rows_.end());
  written_rows_.clear();
  if (epoch_ + 1 < ring) return;  // nothing is gc_k epochs old yet
  const uint32_t due_epoch = epoch_ + 1 - static_cast<uint32_t>(ring);
  std::vector<WrittenRow>& due = gc_ring_[due_epoch % ring];
  std::vector<WrittenRow> again;
  for (const WrittenRow& w : due) {
    // Rows written since are the minor collector's; another worker may hold this one.
    if (w.row->last_write_epoch.load(std::memory_order_relaxed) != w.epoch) continue;
    if (w.row->gc_epoch.exchange(epoch_, std::memory_order_relaxed) == epoch_) continue;
    SpinGuard guard(w.row->lock());
    freed_versions_ += w.row->Collect(horizon);
    if (w.row->IsDead(horizon))
      w.table->NoteDeadRow();
    else if (w.row->size() > 1 || (w.row->size() == 1 && w.row->entry(0).sid >= horizon))
      again.push_back(w);  // a pinned snapshot held it back
  }
  due.clear();  // with gc_k = 0 this is also the current epoch's bucket
  std::vector<WrittenRow>& current = gc_ring_[epoch_ % ring];
  current.insert(current.end(), again.begin(), again.end());
}

void EpochWorker::RunEpoch(EpochJob& job) {
  epoch_ = job.epoch;
  init_horizon_ = job.init_horizon;
  freed_versions_ = 0;
  batch_appended_ = 0;
  const size_t n = job.txns.size();
  auto minor = [this](Row& r) { MinorCollect(r); };
  for (size_t i = id_; i < n; i += num_workers_) InsertStep(*job.txns[i]);
  // Every version of the insert step must be in its array before any append-step check.
  pool_.FlushCore(id_, minor);
  job.barrier->arrive_and_wait();
  for (size_t i = id_; i < n; i += num_workers_) AppendStep(*job.txns[i]);
  pool_.FlushCore(id_, minor);
  job.barrier->arrive_and_wait();
  if (options_.split_on_demand) {
    // Version arrays are final now (no core appends any more): count pending versions.
    CollectCandidates(job);
    job.barrier->arrive_and_wait();
    if (id_ == 0) PlanPieces(job);
    job.barrier->arrive_and_wait();
  }
  if (id_ == 0) job.t_init = NowNs();
  if (!job.queues.empty()) {
    const std::vector<QueueItem>& queue = job.queues[id_];
    for (size_t i = 0; i < queue.size(); ++i) {
      if (queue[i].piece != nullptr) {
        size_t end = i + 1;
        while (end < queue.size() && queue[end].piece != nullptr && queue[end].txn == queue[i].txn) ++end;
        RunPieces(std::span<const QueueItem>(queue).subspan(i, end - i));
        i = end - 1;
        continue;
      }
      if (i + 1 < queue.size()) PrefetchRows(*queue[i + 1].txn);
      ExecuteStep(*queue[i].txn);
    }
  } else {
    for (size_t i = id_; i < n; i += num_workers_) {
      if (i + num_workers_ < n) PrefetchRows(*job.txns[i + num_workers_]);
      ExecuteStep(*job.txns[i]);
    }
  }
  job.barrier->arrive_and_wait();
  if (id_ == 0) {
    job.t_exec = NowNs();
    job.gc_horizon = job.on_executed();
    pool_.Reset();  // no core appends until the next epoch
  }
  job.barrier->arrive_and_wait();
  if (options_.gc)
    MajorCollect(job.gc_horizon);
  else
    written_rows_.clear();
}

}  // namespace caracal
