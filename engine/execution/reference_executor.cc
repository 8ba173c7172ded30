#include "engine/execution/reference_executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "engine/execution/overlay_txn.h"
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

// The reference executor's store as an overlay transaction's base.
class RefBase final : public OverlayBase {
 public:
  explicit RefBase(ReferenceExecutor& ex) : ex_(ex) {}
  Table& table(TableId id) override { return *ex_.tables_[id]->facade; }
  const RowValue* Read(TableId table, const Key& key) override {
    auto& map = ex_.tables_[table]->rows;
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second.get();
  }
  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    auto& map = ex_.tables_[table]->rows;
    for (auto it = map.lower_bound(lo); it != map.end() && (hi.empty() || it->first < hi); ++it)
      if (!visit(it->first, *it->second)) return;
  }
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    auto& t = *ex_.tables_[table];
    for (auto it = t.index_entries[index].lower_bound({lo, Key()}); it != t.index_entries[index].end(); ++it) {
      if (!hi.empty() && !(it->first < hi)) break;
      auto row = t.rows.find(it->second);
      if (row == t.rows.end()) continue;
      std::optional<Key> current = t.facade->IndexKey(index, *row->second);
      if (!current || !(*current == it->first)) continue;
      if (!visit(it->second, *row->second)) return;
    }
  }
  int64_t NextVal(std::string_view sequence) override { return ex_.sequences_.NextVal(sequence); }
  void Retry(const Procedure& procedure) override {
    throw ApiMisuse(fmt::format("procedure {}: Retry() although the state it read is current (the serial "
                                "executor's reconnaissance cannot be stale)",
                                procedure.name()));
  }
  WorkerScratch& worker_scratch() override { return ex_.scratch_; }

 private:
  ReferenceExecutor& ex_;
};

void ReferenceExecutor::Submit(TxnRequest request) {
  OverlayTxn txn;
  txn.request = &request;
  const SerialId sid = next_sequence_++;
  RefBase base(*this);
  try {
    request.procedure->Sequence(sequences_, request.input);
  } catch (const EngineError& e) {
    txn.Fail(e.sqlstate(), e.what());
  } catch (const std::exception& e) {
    txn.Fail("XX000", e.what());
  }
  if (!txn.aborted) RunInOverlay(base, txn, sid);
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
