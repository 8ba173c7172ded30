#include "engine/epoch_txn.h"

namespace caracal {

namespace {
constexpr size_t kLinearSearchLimit = 24;
}

CacheEntry* EpochTxn::Find(const Table* table, const Key& key, uint64_t hash) {
  if (cache.size() <= kLinearSearchLimit) {
    for (CacheEntry& e : cache)
      if (e.hash == hash && e.table == table && e.key == key) return &e;
    return nullptr;
  }
  if (by_hash_.size() != cache.size()) {
    by_hash_.clear();
    for (uint32_t i = 0; i < cache.size(); ++i) by_hash_.emplace(cache[i].hash, i);
  }
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    CacheEntry& e = cache[it->second];
    if (e.table == table && e.key == key) return &e;
  }
  return nullptr;
}

CacheEntry& EpochTxn::Add(Table* table, const Key& key, uint64_t hash) {
  CacheEntry& e = cache.emplace_back();
  e.table = table;
  e.key = key;
  e.hash = hash;
  if (!by_hash_.empty()) by_hash_.emplace(hash, static_cast<uint32_t>(cache.size() - 1));
  return e;
}

void EpochTxn::Fail(std::string sqlstate, std::string message, ErrorFields fields) {
  state = State::kAborted;
  result.status = TxnResult::Status::kAborted;
  result.sqlstate = std::move(sqlstate);
  result.message = std::move(message);
  result.error_fields = std::move(fields);
}

}  // namespace caracal
