#include "engine/storage/table.h"

#include "engine/types/errors.h"

#include <algorithm>
#include <cstring>

namespace caracal::engine {

Table::Table(TableId id, Schema schema, std::vector<IndexSchema> indexes)
    : id_(id), schema_(std::move(schema)), index_schemas_(std::move(indexes)) {
  for (size_t i = 0; i < index_schemas_.size(); ++i) {
    secondary_.push_back(std::make_unique<SecondaryIndex>());
    unknown_spans_.push_back(std::make_unique<UnknownSpans>());
  }
  primary_ = std::make_unique<PrimaryIndex>();
  point_ = std::make_unique<PointIndex>();
}

Row* Table::FindOrCreate(const Key& key) {
  const uint64_t hash = key.Hash();
  auto key_of = [](const Row* r) -> const Key& { return r->key; };
  if (Row* row = point_->Find(key, hash, key_of)) return row;
  // The hash index's shard lock makes one creator win; the skip list owns the row.
  return point_->FindOrInsert(key, hash, key_of, [&] {
    auto [pos, inserted] = primary_->emplace(key, std::make_unique<Row>(key));
    return pos->second.get();
  });
}

void Table::ForEach(const Key& lo, const Key& hi, const std::function<bool(const Key&, Row&)>& visit) const {
  for (auto it = primary_->lower_bound(lo); it != primary_->end(); ++it) {
    if (!hi.empty() && !(it->first < hi)) break;
    if (!visit(it->first, *it->second)) break;
  }
}

void Table::FreeGraveyard(uint32_t before_epoch) {
  std::erase_if(graveyard_, [&](const auto& entry) { return entry.first < before_epoch; });
}

std::optional<Key> Table::IndexKey(int index, const RowValue& row) const {
  Key key;
  for (int c : index_schemas_[index].columns) {
    if (row.IsNull(c)) return std::nullopt;
    key.AppendValue(row.Get(schema_, c), schema_.column(c));
  }
  return key;
}

Key Table::IndexEntryKey(const Key& index_key, const Key& primary_key) {
  Key entry(index_key);
  entry.AppendBytes(primary_key.data(), primary_key.size());
  return entry;
}

void Table::AddIndexEntry(int index, const Key& index_key, const Key& primary_key) {
  secondary_[index]->emplace(IndexEntryKey(index_key, primary_key), static_cast<uint32_t>(index_key.size()));
}

bool Table::HasIndexEntry(int index, const Key& index_key, const Key& primary_key) const {
  return secondary_[index]->contains(IndexEntryKey(index_key, primary_key));
}

void Table::AddUnknownIndexSpan(int index, uint32_t epoch, const Key& lo, const Key& hi) {
  UnknownSpans& u = *unknown_spans_[index];
  SpinGuard guard(u.lock);
  if (u.epoch != epoch) {
    u.spans.clear();
    u.epoch = epoch;
  }
  u.spans.push_back({lo, hi});
}

const std::vector<Table::KeySpanRef>* Table::UnknownIndexSpans(int index, uint32_t epoch) const {
  const UnknownSpans& u = *unknown_spans_[index];
  return u.epoch == epoch && !u.spans.empty() ? &u.spans : nullptr;
}

void Table::AddMissingIndexEntries(const Key& primary_key, const RowValue& row) {
  for (int i = 0; i < num_indexes(); ++i)
    if (std::optional<Key> ik = IndexKey(i, row)) {
      Key entry = IndexEntryKey(*ik, primary_key);
      if (!secondary_[i]->contains(entry)) secondary_[i]->emplace(std::move(entry), static_cast<uint32_t>(ik->size()));
    }
}

static Key SuffixAfter(const Key& entry, uint32_t prefix_len) {
  Key pk;
  pk.AppendBytes(entry.data() + prefix_len, entry.size() - prefix_len);
  return pk;
}

void Table::ForEachIndexEntry(int index, const Key& lo, const Key& hi,
                              const std::function<bool(std::string_view, const Key&)>& visit) const {
  const SecondaryIndex& idx = *secondary_[index];
  for (auto it = idx.lower_bound(lo); it != idx.end(); ++it) {
    // Compare only the index-key part with `hi`: entries are (index key ‖ primary key).
    std::string_view index_part = it->first.view().substr(0, it->second);
    if (!hi.empty() && index_part >= hi.view()) break;
    if (!visit(index_part, SuffixAfter(it->first, it->second))) break;
  }
}

void Table::AddIndex(IndexSchema index) {
  index_schemas_.push_back(std::move(index));
  secondary_.push_back(std::make_unique<SecondaryIndex>());
  unknown_spans_.push_back(std::make_unique<UnknownSpans>());
  const int i = num_indexes() - 1;
  for (auto& [key, row] : *primary_) {
    const RowValue* latest = row->NewestSettledBefore(UINT64_MAX);
    if (latest == nullptr) continue;
    if (std::optional<Key> ik = IndexKey(i, *latest)) AddIndexEntry(i, *ik, key);
  }
}

void Table::DropIndex(int index) {
  index_schemas_.erase(index_schemas_.begin() + index);
  secondary_.erase(secondary_.begin() + index);
  unknown_spans_.erase(unknown_spans_.begin() + index);
}

bool Table::WantsCompaction() const {
  size_t dead = dead_estimate_.load(std::memory_order_relaxed);
  return dead >= 4096 && dead * 4 >= primary_->size();
}

size_t Table::Compact(SerialId horizon, uint32_t current_epoch) {
  auto primary = std::make_unique<PrimaryIndex>();
  auto point = std::make_unique<PointIndex>();
  size_t dropped = 0;
  for (auto& [key, row] : *primary_) {
    if (row->IsDead(horizon)) {
      ++dropped;
      graveyard_.emplace_back(current_epoch, std::move(row));
      continue;
    }
    Row* r = row.get();
    primary->emplace(key, std::move(row));
    point->FindOrInsert(key, key.Hash(), [](const Row* x) -> const Key& { return x->key; }, [r] { return r; });
  }
  primary_ = std::move(primary);
  point_ = std::move(point);
  dead_estimate_.store(0, std::memory_order_relaxed);
  return dropped;
}

namespace {
size_t EntryCount(const std::vector<std::unique_ptr<Table::SecondaryIndex>>& indexes) {
  size_t n = 0;
  for (const auto& index : indexes) n += index->size();
  return n;
}
}  // namespace

bool Table::WantsIndexRebuild() const {
  if (secondary_.empty()) return false;
  const size_t entries = EntryCount(secondary_);
  const size_t needed = std::max(entries_after_rebuild_, primary_->size() * secondary_.size());
  return entries >= 4096 && entries > 2 * needed;
}

size_t Table::RebuildIndexes() {
  const size_t before = EntryCount(secondary_);
  for (auto& index : secondary_) index = std::make_unique<SecondaryIndex>();
  for (auto& [key, row] : *primary_) {
    for (uint32_t v = 0; v < row->size(); ++v) {
      const uintptr_t value = row->entry(v).value.load(std::memory_order_acquire);
      if (!version::IsData(value)) continue;
      const RowValue& data = *reinterpret_cast<const RowValue*>(value);
      for (int i = 0; i < num_indexes(); ++i)
        if (std::optional<Key> ik = IndexKey(i, data)) AddIndexEntry(i, *ik, key);
    }
  }
  entries_after_rebuild_ = EntryCount(secondary_);
  return before - entries_after_rebuild_;
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

}  // namespace caracal::engine
