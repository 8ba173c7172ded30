#include "engine/execution/overlay_txn.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "engine/storage/table.h"
#include "engine/types/errors.h"

namespace caracal::engine {

void OverlayTxn::Fail(const std::string& sqlstate, const std::string& message) {
  aborted = true;
  result.status = TxnResult::Status::kAborted;
  result.sqlstate = sqlstate;
  result.message = message;
}

namespace {

ApiMisuse NoSuchIndex(OverlayBase& base, const OverlayTxn& txn, TableId table, int index) {
  return ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn.request->procedure->name(),
                               base.table(table).name(), index));
}

class OverlayDeclareContext final : public DeclareContext {
 public:
  OverlayDeclareContext(OverlayBase& base, OverlayTxn& txn, SerialId sid) : base_(base), txn_(txn), sid_(sid) {}
  const TxnInput& input() const override { return txn_.request->input; }
  uint64_t serial_id() const override { return sid_; }
  Table& table(TableId id) override { return base_.table(id); }

  void DeclareWrite(TableId table, const Key& key, WriteKind kind) override {
    auto [it, inserted] = txn_.declared.emplace(std::pair{table, key}, kind);
    if (inserted) return;
    if (kind == WriteKind::kInsert && it->second == WriteKind::kInsert)
      throw ApiMisuse(fmt::format("procedure {}: key {} of table \"{}\" inserted twice in one transaction",
                                  txn_.request->procedure->name(), "0x" + key.ToHex(), base_.table(table).name()));
    if (kind == WriteKind::kInsert || kind == WriteKind::kUpsert) it->second = kind;
  }

  bool DeclareInsertOnce(TableId table, const Key& key) override {
    auto it = txn_.declared.find(std::pair{table, key});
    if (it != txn_.declared.end() && it->second == WriteKind::kInsert) return false;
    DeclareWrite(table, key, WriteKind::kInsert);
    return true;
  }

  int DeclareRange(TableId table, const Key& lo, const Key& hi, RangeKind kind) override {
    std::vector<Key>& rows = txn_.ranges.emplace_back();
    txn_.range_bounds.push_back({table, lo, hi});
    txn_.ranges_complete.push_back(false);
    base_.Scan(table, lo, hi, [&](const Key& key, const RowValue&) {
      rows.push_back(key);
      txn_.declared.emplace(std::pair{table, key}, kind == RangeKind::kDelete ? WriteKind::kDelete : WriteKind::kUpdate);
      return true;
    });
    return static_cast<int>(txn_.ranges.size() - 1);
  }

  void DeclareRowUpdate(TableId table, const Key& key, int) override { DeclareWrite(table, key, WriteKind::kUpdate); }
  void DeclareIndexEntry(TableId, int, const Key&, const Key&) override {}
  void DeclareIndexUnknown(TableId, int, const Key&, const Key&) override {}  // scans look at the overlay anyway
  void Prefetch(TableId, const Key&) override {}

  // Run alone: the base is the state at this transaction's position.
  const RowValue* ReadCommitted(TableId table, const Key& key) override { return base_.Read(table, key); }
  void ScanCommitted(TableId table, const Key& lo, const Key& hi,
                     const std::function<bool(const Key&, const RowValue&)>& visit) override {
    base_.Scan(table, lo, hi, visit);
  }
  void ScanIndexCommitted(TableId table, int index, const Key& lo, const Key& hi,
                          const std::function<bool(const Key&, const RowValue&)>& visit) override {
    if (index < 0 || index >= base_.table(table).num_indexes()) throw NoSuchIndex(base_, txn_, table, index);
    base_.ScanIndex(table, index, lo, hi, visit);
  }

  std::vector<Value>& scratch() override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return base_.worker_scratch(); }

 private:
  OverlayBase& base_;
  OverlayTxn& txn_;
  SerialId sid_;
};

class OverlayExecContext final : public ExecContext {
 public:
  OverlayExecContext(OverlayBase& base, OverlayTxn& txn, SerialId sid) : base_(base), txn_(txn), sid_(sid) {}
  const TxnInput& input() const override { return txn_.request->input; }
  Table& table(TableId id) override { return base_.table(id); }
  uint64_t serial_id() const override { return sid_; }

  const RowValue* Read(TableId table, const Key& key) override {
    auto w = txn_.writes.find({table, key});
    if (w != txn_.writes.end()) return w->second.value.get();
    return base_.Read(table, key);
  }

  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    // The base's rows merged with this transaction's own writes, in key order; the own
    // writes are those made before the scan began (writes the visitor makes are not
    // visited).
    std::vector<std::pair<Key, std::shared_ptr<const RowValue>>> own;
    for (auto it = txn_.writes.lower_bound({table, lo}); it != txn_.writes.end() && it->first.first == table; ++it) {
      if (!hi.empty() && !(it->first.second < hi)) break;
      own.emplace_back(it->first.second, it->second.value);
    }
    size_t next = 0;
    bool stopped = false;
    auto emit_own_below = [&](const Key* bound) {  // own rows with key < *bound (all: null)
      for (; next < own.size() && (bound == nullptr || own[next].first < *bound); ++next)
        if (own[next].second && !visit(own[next].first, *own[next].second)) {
          stopped = true;
          return;
        }
    };
    base_.Scan(table, lo, hi, [&](const Key& key, const RowValue& value) {
      emit_own_below(&key);
      if (stopped) return false;
      if (next < own.size() && own[next].first == key) {
        const std::shared_ptr<const RowValue>& mine = own[next++].second;
        if (mine && !visit(key, *mine)) stopped = true;
        return !stopped;
      }
      if (!visit(key, value)) stopped = true;
      return !stopped;
    });
    if (!stopped) emit_own_below(nullptr);
  }

  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    Table& t = base_.table(table);
    if (index < 0 || index >= t.num_indexes()) throw NoSuchIndex(base_, txn_, table, index);
    std::set<std::pair<Key, Key>> view;  // (index key, primary key)
    base_.ScanIndex(table, index, lo, hi, [&](const Key& primary_key, const RowValue& row) {
      if (!txn_.writes.contains({table, primary_key}))
        if (std::optional<Key> ik = t.IndexKey(index, row)) view.insert({std::move(*ik), primary_key});
      return true;
    });
    for (auto it = txn_.writes.lower_bound({table, Key()}); it != txn_.writes.end() && it->first.first == table; ++it) {
      if (!it->second.value) continue;
      std::optional<Key> ik = t.IndexKey(index, *it->second.value);
      if (ik && !(*ik < lo) && (hi.empty() || *ik < hi)) view.insert({std::move(*ik), it->first.second});
    }
    for (auto& [ik, pk] : view) {
      const RowValue* v = Read(table, pk);
      if (v != nullptr && !visit(pk, *v)) return;
    }
  }

  const std::vector<Key>& RangeRows(int range_id) override {
    if (range_id < 0 || range_id >= static_cast<int>(txn_.ranges.size()))
      throw ApiMisuse(fmt::format("procedure {}: no range #{} was declared", txn_.request->procedure->name(), range_id));
    std::vector<Key>& rows = txn_.ranges[range_id];
    if (!txn_.ranges_complete[range_id]) {
      // The keys this transaction declared as inserts or upserts in the range, as the
      // epoch engine adds them (see ExecContext::RangeRows).
      txn_.ranges_complete[range_id] = true;
      const OverlayTxn::Range& b = txn_.range_bounds[range_id];
      const size_t existing = rows.size();
      for (const auto& [table_key, kind] : txn_.declared)
        if ((kind == WriteKind::kInsert || kind == WriteKind::kUpsert) && table_key.first == b.table &&
            !(table_key.second < b.lo) && (b.hi.empty() || table_key.second < b.hi))
          rows.push_back(table_key.second);
      if (rows.size() != existing) {
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      }
    }
    return rows;
  }

  bool Insert(TableId table, const Key& key, RowValuePtr value) override {
    WriteKind k = Declared(table, key, "insert into", WriteKind::kInsert);
    if (k != WriteKind::kInsert && k != WriteKind::kUpsert) throw Misuse(table, key, "insert into", "as an update or delete only");
    if (Read(table, key) != nullptr) return false;
    Put(table, key, std::move(value));
    return true;
  }
  void Upsert(TableId table, const Key& key, RowValuePtr value) override {
    WriteKind k = Declared(table, key, "upsert into", WriteKind::kUpsert);
    if (k != WriteKind::kInsert && k != WriteKind::kUpsert) throw Misuse(table, key, "upsert into", "as an update or delete only");
    Put(table, key, std::move(value));
  }
  bool Update(TableId table, const Key& key, RowValuePtr value) override {
    Declared(table, key, "update", WriteKind::kUpdate);
    if (Read(table, key) == nullptr) return false;
    Put(table, key, std::move(value));
    return true;
  }
  bool Delete(TableId table, const Key& key) override {
    Declared(table, key, "delete from", WriteKind::kDelete);
    if (Read(table, key) == nullptr) return false;
    Put(table, key, nullptr);
    return true;
  }
  RowUpdateFuture ApplyRowUpdate(TableId table, const Key& key, RowUpdateCallback callback, int) override {
    Declared(table, key, "update", WriteKind::kUpdate);
    const RowValue* old = Read(table, key);
    if (old == nullptr) return RowUpdateFuture(false);
    RowValuePtr updated = callback(*old);
    if (!updated) return RowUpdateFuture(false);
    Put(table, key, std::move(updated));
    return RowUpdateFuture(true);
  }

  int64_t Savepoint() override {
    if (txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: Savepoint() after Publish()", txn_.request->procedure->name()));
    ++txn_.open_savepoints;
    return static_cast<int64_t>(txn_.undo.size());
  }
  void RollbackToSavepoint(int64_t mark) override {
    CheckSavepoint(mark);
    for (size_t i = txn_.undo.size(); i-- > static_cast<size_t>(mark);) {
      OverlayTxn::Undo& u = txn_.undo[i];
      auto it = txn_.writes.find(u.row);
      if (it->second.value) txn_.replaced.push_back(it->second.value);  // Read() may have handed it out
      if (u.before)
        it->second = std::move(*u.before);
      else
        txn_.writes.erase(it);
    }
    txn_.undo.resize(static_cast<size_t>(mark));
    if (--txn_.open_savepoints == 0) txn_.undo.clear();
  }
  void ReleaseSavepoint(int64_t mark) override {
    CheckSavepoint(mark);
    if (--txn_.open_savepoints == 0) txn_.undo.clear();
  }

  void Publish() override {
    if (txn_.aborted)
      throw ApiMisuse(fmt::format("procedure {}: Publish() after Abort() or Retry()", txn_.request->procedure->name()));
    txn_.published = true;
  }
  void Abort(std::string sqlstate, std::string message, ErrorFields fields) override {
    if (txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: Abort() after Publish() (\"{}\")", txn_.request->procedure->name(),
                                  message));
    txn_.aborted = true;
    txn_.result.status = TxnResult::Status::kAborted;
    txn_.result.sqlstate = std::move(sqlstate);
    txn_.result.message = std::move(message);
    txn_.result.error_fields = std::move(fields);
  }
  void Retry() override { base_.Retry(*txn_.request->procedure); }
  const std::vector<Value>& scratch() const override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return base_.worker_scratch(); }
  void Notice(std::string message) override { txn_.result.notices.push_back(std::move(message)); }
  void Emit(std::vector<Value> row) override { txn_.result.rows.push_back(std::move(row)); }
  void SetRowCount(int64_t rows) override { txn_.result.row_count = rows; }
  int64_t NextVal(std::string_view sequence) override {
    if (!txn_.request->procedure->needs_solo_epoch())
      throw ApiMisuse(fmt::format("procedure {}: NextVal() during execution outside a solo epoch",
                                  txn_.request->procedure->name()));
    return base_.NextVal(sequence);
  }

 private:
  ApiMisuse Misuse(TableId table, const Key& key, const char* verb, const char* how) {
    return ApiMisuse(fmt::format("procedure {}: {} \"{}\" at key 0x{}, which was declared {}",
                                 txn_.request->procedure->name(), verb, base_.table(table).name(), key.ToHex(), how));
  }
  WriteKind Declared(TableId table, const Key& key, const char* verb, WriteKind kind) {
    auto it = txn_.declared.find({table, key});
    const bool creates = kind == WriteKind::kInsert || kind == WriteKind::kUpsert;
    // A solo transaction declares each write as it makes it (as in the epoch engine).
    if (txn_.request->procedure->needs_solo_epoch()) {
      if (it == txn_.declared.end()) it = txn_.declared.emplace(std::pair{table, key}, kind).first;
      if (creates) it->second = kind;
      return it->second;
    }
    if (it != txn_.declared.end()) return it->second;
    // Inside a declared range, a key with no row is declared too: there is just nothing
    // to update or delete (as in the epoch engine).
    for (const auto& r : txn_.range_bounds)
      if (r.table == table && !(key < r.lo) && (r.hi.empty() || key < r.hi)) return WriteKind::kUpdate;
    throw Misuse(table, key, verb, "nowhere: it is not in the write set");
  }
  void CheckSavepoint(int64_t mark) const {
    if (txn_.open_savepoints <= 0 || mark < 0 || static_cast<size_t>(mark) > txn_.undo.size())
      throw ApiMisuse(fmt::format("procedure {}: no savepoint {}", txn_.request->procedure->name(), mark));
  }
  void Put(TableId table, const Key& key, RowValuePtr value) {
    auto [pos, first_write] = txn_.writes.try_emplace({table, key});
    OverlayTxn::Write& w = pos->second;
    if (txn_.open_savepoints > 0)
      txn_.undo.push_back({{table, key}, first_write ? std::nullopt : std::optional<OverlayTxn::Write>(w)});
    // As in the engine: once published, a row's write may already have been read.
    if (!first_write && txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: \"{}\" at key 0x{} written again after Publish()",
                                  txn_.request->procedure->name(), base_.table(table).name(), key.ToHex()));
    if (w.value) txn_.replaced.push_back(std::move(w.value));  // Read() may have handed it out
    w.value = value ? std::shared_ptr<const RowValue>(value.release(), RowValue::Deleter()) : nullptr;
  }

  OverlayBase& base_;
  OverlayTxn& txn_;
  SerialId sid_;
};

}  // namespace

void RunInOverlay(OverlayBase& base, OverlayTxn& txn, SerialId sid) {
  try {
    OverlayDeclareContext declare(base, txn, sid);
    txn.request->procedure->Declare(declare);
    OverlayExecContext exec(base, txn, sid);
    txn.request->procedure->Execute(exec);
  } catch (const OverlayUnsupported&) {
    throw;
  } catch (const EngineError& e) {
    txn.Fail(e.sqlstate(), e.what());
  } catch (const std::exception& e) {
    txn.Fail("XX000", e.what());
  }
}

}  // namespace caracal::engine
