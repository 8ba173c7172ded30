#include "engine/storage/database.h"

#include <fmt/format.h>

#include "engine/storage/committed_reads.h"
#include "engine/types/errors.h"

namespace caracal::engine {

TableId Database::CreateTable(Schema schema, std::vector<IndexSchema> indexes) {
  if (FindTable(schema.table_name()))
    throw EngineError("42P07", fmt::format("relation \"{}\" already exists", schema.table_name()));
  TableId id = static_cast<TableId>(tables_.size());
  std::unique_lock structure(structure_mutex_);  // snapshot readers index tables_
  tables_.push_back(std::make_unique<Table>(id, std::move(schema), std::move(indexes)));
  dropped_.push_back(false);
  return id;
}

std::optional<TableId> Database::FindTable(std::string_view name) const {
  for (const auto& t : tables_)
    if (!dropped_[t->id()] && t->name() == name) return t->id();
  return std::nullopt;
}

void Database::DropTable(TableId id) {
  // Snapshot readers may be scanning it: wait for them, then free the rows but keep an
  // empty table under the id, so ids stay stable.
  std::unique_lock structure(structure_mutex_);
  dropped_[id] = true;
  auto fresh = std::make_unique<Table>(id, tables_[id]->schema(), tables_[id]->index_schemas());
  retired_tables_.emplace_back(committed_epoch(), std::move(tables_[id]));
  tables_[id] = std::move(fresh);
}

void Database::AddIndex(TableId id, IndexSchema index) {
  std::unique_lock structure(structure_mutex_);  // snapshot readers may scan the indexes
  tables_[id]->AddIndex(std::move(index));
}

void Database::DropIndex(TableId id, int index) {
  std::unique_lock structure(structure_mutex_);
  tables_[id]->DropIndex(index);
}

void Database::FreeRetiredTables(uint32_t epoch) {
  std::erase_if(retired_tables_, [&](const auto& entry) { return entry.first < epoch; });
}

std::unique_ptr<Table> Database::SwapTable(TableId id, std::unique_ptr<Table> fresh) {
  std::unique_lock structure(structure_mutex_);  // snapshot readers may be scanning it
  std::swap(tables_[id], fresh);
  return fresh;
}

void Database::RenameTable(TableId id, std::string name) {
  std::unique_lock structure(structure_mutex_);
  tables_[id]->Rename(std::move(name));
}

void Database::Retire(std::unique_ptr<Table> table) {
  std::unique_lock structure(structure_mutex_);
  retired_tables_.emplace_back(committed_epoch(), std::move(table));
}

void Database::LoadRow(TableId table_id, RowValuePtr value) {
  const RowValue* stored = value.get();
  LoadRowInto(table(table_id), std::move(value));
  // The version stays: only collection, between epochs, could free it.
  if (load_observer_) load_observer_(table_id, *stored);
}

void Database::LoadRowInto(Table& t, RowValuePtr value) {
  const Schema& s = t.schema();
  Key key;
  for (int c : s.primary_key()) key.AppendValue(value->Get(s, c), s.column(c));
  Row* row = t.FindOrCreate(key);
  {
    SpinGuard guard(row->lock());
    if (row->NewestSettledBefore(UINT64_MAX) != nullptr)
      throw EngineError("23505", fmt::format("duplicate key value violates unique constraint \"{}_pkey\"", s.table_name()));
    for (int i = 0; i < t.num_indexes(); ++i)
      if (std::optional<Key> ik = t.IndexKey(i, *value)) t.AddIndexEntry(i, *ik, key);
    // After every transaction of the committed epoch, visible to its snapshot.
    SerialId sid = MakeSerialId(committed_epoch(), kLoadSequence);
    uintptr_t raw = reinterpret_cast<uintptr_t>(value.release());
    if (!row->InsertVersion(sid, raw)) {
      // A tombstone at the same point: replace it.
      int64_t i = row->FindExact(sid);
      row->entry(i).value.store(raw, std::memory_order_release);
    }
  }
}

const RowValue* Database::ReadSettled(Row& row, SerialId before) {
  SpinGuard guard(row.lock());
  return row.NewestSettledBefore(before);
}

void Database::ForEachCommittedRow(TableId table_id,
                                   const std::function<void(const Key&, const RowValue&)>& visit) const {
  auto& self = const_cast<Database&>(*this);
  Snapshot snap(self);
  snap.Scan(table_id, Key(), Key(), [&](const Key& k, const RowValue& v) {
    visit(k, v);
    return true;
  });
}

uint32_t Database::PinSnapshot() {
  std::lock_guard lock(pins_mutex_);
  uint32_t e = committed_epoch();
  pins_.insert(e);
  return e;
}

void Database::UnpinSnapshot(uint32_t epoch) {
  std::lock_guard lock(pins_mutex_);
  auto it = pins_.find(epoch);
  if (it != pins_.end()) pins_.erase(it);
}

SerialId Database::CollectionHorizon(uint32_t current_epoch) const {
  std::lock_guard lock(pins_mutex_);
  uint32_t e = current_epoch;
  if (!pins_.empty() && *pins_.begin() + 1 < e) e = *pins_.begin() + 1;
  return MakeSerialId(e, 0);
}

Snapshot::Snapshot(Database& db)
    : db_(db), epoch_(db.PinSnapshot()), structure_lock_(db.structure_mutex()) {}

Snapshot::~Snapshot() { db_.UnpinSnapshot(epoch_); }

const RowValue* Snapshot::Read(TableId table, const Key& key) const {
  Row* row = db_.table(table).Find(key);
  return row ? Database::ReadSettled(*row, MakeSerialId(epoch_ + 1, 0)) : nullptr;
}

void Snapshot::Scan(TableId table, const Key& lo, const Key& hi,
                    const std::function<bool(const Key&, const RowValue&)>& visit) const {
  SerialId before = MakeSerialId(epoch_ + 1, 0);
  db_.table(table).ForEach(lo, hi, [&](const Key& k, Row& row) {
    const RowValue* v = Database::ReadSettled(row, before);
    return v == nullptr || visit(k, *v);
  });
}

void Snapshot::ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                         const std::function<bool(const Key&, const RowValue&)>& visit) const {
  CommittedReads(db_, MakeSerialId(epoch_ + 1, 0)).ScanIndex(table, index, lo, hi, visit, "SELECT");
}

}  // namespace caracal::engine
