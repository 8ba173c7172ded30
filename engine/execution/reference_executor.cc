#include "engine/execution/reference_executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "engine/types/errors.h"
#include "engine/storage/table.h"

namespace caracal::engine {

TableId ReferenceExecutor::CreateTable(Schema schema, std::vector<IndexSchema> indexes) {
  if (FindTable(schema.table_name()))
    throw EngineError("42P07", fmt::format("relation \"{}\" already exists", schema.table_name()));
  auto t = std::make_unique<RefTable>();
  TableId id = static_cast<TableId>(tables_.size());
  t->facade = std::make_unique<Table>(id, schema, indexes);
  t->schema = std::move(schema);
  t->indexes = std::move(indexes);
  t->index_entries.resize(t->indexes.size());
  tables_.push_back(std::move(t));
  return id;
}

std::optional<TableId> ReferenceExecutor::FindTable(std::string_view name) const {
  for (size_t i = 0; i < tables_.size(); ++i)
    if (!tables_[i]->dropped && tables_[i]->schema.table_name() == name) return static_cast<TableId>(i);
  return std::nullopt;
}

void ReferenceExecutor::DropTable(TableId table) {
  RefTable& t = *tables_[table];
  t.dropped = true;
  t.rows.clear();
  for (auto& entries : t.index_entries) entries.clear();
}

void ReferenceExecutor::PutRow(RefTable& t, const Key& key, std::shared_ptr<const RowValue> value) {
  auto it = t.rows.find(key);
  if (it != t.rows.end()) {
    for (size_t i = 0; i < t.indexes.size(); ++i)
      if (auto ik = t.facade->IndexKey(static_cast<int>(i), *it->second)) t.index_entries[i].erase({*ik, key});
    if (value)
      it->second = value;
    else
      t.rows.erase(it);
  } else if (value) {
    t.rows.emplace(key, value);
  }
  if (value)
    for (size_t i = 0; i < t.indexes.size(); ++i)
      if (auto ik = t.facade->IndexKey(static_cast<int>(i), *value)) t.index_entries[i].insert({*ik, key});
}

void ReferenceExecutor::LoadRow(TableId table, RowValuePtr row) {
  std::lock_guard lock(load_mutex_);
  RefTable& t = *tables_[table];
  Key key;
  for (int c : t.schema.primary_key()) key.AppendValue(row->Get(t.schema, c), t.schema.column(c));
  if (t.rows.contains(key))
    throw EngineError("23505", fmt::format("duplicate key value violates unique constraint \"{}_pkey\"",
                                           t.schema.table_name()));
  PutRow(t, key, std::shared_ptr<const RowValue>(row.release(), RowValue::Deleter()));
}

void ReferenceExecutor::ForEachCommittedRow(TableId table,
                                            const std::function<void(const Key&, const RowValue&)>& visit) const {
  for (const auto& [k, v] : tables_[table]->rows) visit(k, *v);
}

namespace {

struct TableKeyHash {
  size_t operator()(const std::pair<TableId, Key>& p) const { return p.second.Hash() * 31 + p.first; }
};

// What one transaction declared, and its writes, held until it commits.
struct RefTxn {
  const TxnRequest* request = nullptr;
  std::unordered_map<std::pair<TableId, Key>, WriteKind, TableKeyHash> declared;
  std::vector<std::vector<Key>> ranges;
  struct Range {
    TableId table;
    Key lo, hi;
  };
  std::vector<Range> range_bounds;
  std::vector<bool> ranges_complete;  // own inserts merged into ranges[i] (on first use)
  std::vector<std::shared_ptr<const RowValue>> replaced;  // own values a later own write replaced
  struct Write {
    std::shared_ptr<const RowValue> value;  // null: deleted
  };
  std::map<std::pair<TableId, Key>, Write> writes;  // ordered: applied deterministically
  // Open savepoints' records, newest last: a row's write before the one that followed
  // (absent: the row had no own write yet).
  struct Undo {
    std::pair<TableId, Key> row;
    std::optional<Write> before;
  };
  std::vector<Undo> undo;
  int open_savepoints = 0;
  std::vector<Value> scratch;
  std::any attempt_state;
  bool published = false;
  bool aborted = false;
  TxnResult result;
};

}  // namespace

class RefDeclareContext final : public DeclareContext {
 public:
  RefDeclareContext(ReferenceExecutor& ex, RefTxn& txn, SerialId sid) : ex_(ex), txn_(txn), sid_(sid) {}
  const TxnInput& input() const override { return txn_.request->input; }
  uint64_t serial_id() const override { return sid_; }
  Table& table(TableId id) override { return *ex_.tables_[id]->facade; }

  void DeclareWrite(TableId table, const Key& key, WriteKind kind) override {
    auto [it, inserted] = txn_.declared.emplace(std::pair{table, key}, kind);
    if (inserted) return;
    if (kind == WriteKind::kInsert && it->second == WriteKind::kInsert)
      throw ApiMisuse(fmt::format("procedure {}: key {} of table \"{}\" inserted twice in one transaction",
                                  txn_.request->procedure->name(), "0x" + key.ToHex(),
                                  ex_.tables_[table]->schema.table_name()));
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
    auto& map = ex_.tables_[table]->rows;
    for (auto it = map.lower_bound(lo); it != map.end() && (hi.empty() || it->first < hi); ++it) {
      rows.push_back(it->first);
      txn_.declared.emplace(std::pair{table, it->first},
                            kind == RangeKind::kDelete ? WriteKind::kDelete : WriteKind::kUpdate);
    }
    return static_cast<int>(txn_.ranges.size() - 1);
  }

  void DeclareRowUpdate(TableId table, const Key& key, int) override { DeclareWrite(table, key, WriteKind::kUpdate); }
  void DeclareIndexEntry(TableId, int, const Key&, const Key&) override {}
  void DeclareIndexUnknown(TableId, int, const Key&, const Key&) override {}  // entries follow the committed writes
  void Prefetch(TableId, const Key&) override {}

  const RowValue* ReadCommitted(TableId table, const Key& key) override {
    auto& map = ex_.tables_[table]->rows;
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second.get();
  }

  // Serial execution: the committed state is the state at this transaction's position.
  void ScanCommitted(TableId table, const Key& lo, const Key& hi,
                     const std::function<bool(const Key&, const RowValue&)>& visit) override {
    auto& map = ex_.tables_[table]->rows;
    for (auto it = map.lower_bound(lo); it != map.end() && (hi.empty() || it->first < hi); ++it)
      if (!visit(it->first, *it->second)) return;
  }

  void ScanIndexCommitted(TableId table, int index, const Key& lo, const Key& hi,
                          const std::function<bool(const Key&, const RowValue&)>& visit) override {
    auto& t = *ex_.tables_[table];
    if (index < 0 || index >= static_cast<int>(t.indexes.size()))
      throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn_.request->procedure->name(),
                                  t.schema.table_name(), index));
    for (auto it = t.index_entries[index].lower_bound({lo, Key()}); it != t.index_entries[index].end(); ++it) {
      if (!hi.empty() && !(it->first < hi)) break;
      auto row = t.rows.find(it->second);
      if (row == t.rows.end()) continue;
      std::optional<Key> current = t.facade->IndexKey(index, *row->second);
      if (!current || !(*current == it->first)) continue;
      if (!visit(it->second, *row->second)) return;
    }
  }

  std::vector<Value>& scratch() override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return ex_.scratch_; }

 private:
  ReferenceExecutor& ex_;
  RefTxn& txn_;
  SerialId sid_;
};

class RefExecContext final : public ExecContext {
 public:
  RefExecContext(ReferenceExecutor& ex, RefTxn& txn, SerialId sid) : ex_(ex), txn_(txn), sid_(sid) {}
  const TxnInput& input() const override { return txn_.request->input; }
  Table& table(TableId id) override { return *ex_.tables_[id]->facade; }
  uint64_t serial_id() const override { return sid_; }

  const RowValue* Read(TableId table, const Key& key) override {
    auto w = txn_.writes.find({table, key});
    if (w != txn_.writes.end()) return w->second.value.get();
    auto& map = ex_.tables_[table]->rows;
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second.get();
  }

  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    // Merge committed rows with this transaction's own writes, in key order.
    std::map<Key, const RowValue*, KeyLess> view;
    auto& map = ex_.tables_[table]->rows;
    for (auto it = map.lower_bound(lo); it != map.end() && (hi.empty() || it->first < hi); ++it)
      view.emplace(it->first, it->second.get());
    for (auto& [tk, w] : txn_.writes) {
      if (tk.first != table || tk.second < lo || (!hi.empty() && !(tk.second < hi))) continue;
      view[tk.second] = w.value.get();
    }
    for (auto& [k, v] : view)
      if (v != nullptr && !visit(k, *v)) return;
  }

  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    auto& t = *ex_.tables_[table];
    if (index < 0 || index >= static_cast<int>(t.indexes.size()))
      throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", txn_.request->procedure->name(),
                                  t.schema.table_name(), index));
    std::set<std::pair<Key, Key>> view;
    for (auto it = t.index_entries[index].lower_bound({lo, Key()}); it != t.index_entries[index].end(); ++it) {
      if (!hi.empty() && !(it->first < hi)) break;
      view.insert(*it);
    }
    for (auto& [tk, w] : txn_.writes) {
      if (tk.first != table) continue;
      auto committed = t.rows.find(tk.second);
      if (committed != t.rows.end())
        if (auto old_ik = t.facade->IndexKey(index, *committed->second)) view.erase({*old_ik, tk.second});
      if (!w.value) continue;
      std::optional<Key> ik = t.facade->IndexKey(index, *w.value);
      if (ik && !(*ik < lo) && (hi.empty() || *ik < hi)) view.insert({*ik, tk.second});
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
      const RefTxn::Range& b = txn_.range_bounds[range_id];
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
      RefTxn::Undo& u = txn_.undo[i];
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
  void Retry() override {
    throw ApiMisuse(fmt::format("procedure {}: Retry() although the state it read is current (the serial "
                                "executor's reconnaissance cannot be stale)",
                                txn_.request->procedure->name()));
  }
  const std::vector<Value>& scratch() const override { return txn_.scratch; }
  std::any& attempt_state() override { return txn_.attempt_state; }
  WorkerScratch& worker_scratch() override { return ex_.scratch_; }
  void Notice(std::string message) override { txn_.result.notices.push_back(std::move(message)); }
  void Emit(std::vector<Value> row) override { txn_.result.rows.push_back(std::move(row)); }
  void SetRowCount(int64_t rows) override { txn_.result.row_count = rows; }
  int64_t NextVal(std::string_view sequence) override {
    if (!txn_.request->procedure->needs_solo_epoch())
      throw ApiMisuse(fmt::format("procedure {}: NextVal() during execution outside a solo epoch",
                                  txn_.request->procedure->name()));
    return ex_.sequences_.NextVal(sequence);
  }

 private:
  ApiMisuse Misuse(TableId table, const Key& key, const char* verb, const char* how) {
    return ApiMisuse(fmt::format("procedure {}: {} \"{}\" at key 0x{}, which was declared {}",
                                 txn_.request->procedure->name(), verb, ex_.tables_[table]->schema.table_name(),
                                 key.ToHex(), how));
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
    RefTxn::Write& w = pos->second;
    if (txn_.open_savepoints > 0)
      txn_.undo.push_back({{table, key}, first_write ? std::nullopt : std::optional<RefTxn::Write>(w)});
    // As in the engine: once published, a row's write may already have been read.
    if (!first_write && txn_.published)
      throw ApiMisuse(fmt::format("procedure {}: \"{}\" at key 0x{} written again after Publish()",
                                  txn_.request->procedure->name(), ex_.tables_[table]->schema.table_name(),
                                  key.ToHex()));
    if (w.value) txn_.replaced.push_back(std::move(w.value));  // Read() may have handed it out
    w.value = value ? std::shared_ptr<const RowValue>(value.release(), RowValue::Deleter()) : nullptr;
  }

  ReferenceExecutor& ex_;
  RefTxn& txn_;
  SerialId sid_;
};

void ReferenceExecutor::Submit(TxnRequest request) {
  RefTxn txn;
  txn.request = &request;
  const SerialId sid = next_sequence_++;
  auto fail = [&](const std::string& sqlstate, const std::string& message) {
    txn.aborted = true;
    txn.result.status = TxnResult::Status::kAborted;
    txn.result.sqlstate = sqlstate;
    txn.result.message = message;
  };
  try {
    request.procedure->Sequence(sequences_, request.input);
    RefDeclareContext declare(*this, txn, sid);
    request.procedure->Declare(declare);
    RefExecContext exec(*this, txn, sid);
    request.procedure->Execute(exec);
  } catch (const EngineError& e) {
    fail(e.sqlstate(), e.what());
  } catch (const std::exception& e) {
    fail("XX000", e.what());
  }
  if (txn.aborted) {
    ++aborts_;
    // An error after Publish() cannot take back what the epoch engine already made
    // visible; mirror it so both executors stay comparable.
    if (txn.published)
      for (auto& [tk, w] : txn.writes) PutRow(*tables_[tk.first], tk.second, w.value);
  } else {
    for (auto& [tk, w] : txn.writes) PutRow(*tables_[tk.first], tk.second, w.value);
  }
  txn.result.serial_id = sid;
  if (request.on_done) request.on_done(std::move(txn.result));
}

}  // namespace caracal::engine
