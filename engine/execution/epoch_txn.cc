#include "engine/execution/epoch_txn.h"

namespace caracal::engine {

namespace {
// Up to this many entries a scan of the contiguous hashes beats a hash table lookup.
constexpr size_t kLinearSearchLimit = 64;
}

CacheEntry* EpochTxn::Find(const Table* table, const Key& key, uint64_t hash) {
  // The filter's bit comes from the hash's top bits: the low ones also pick buckets.
  const unsigned bit = static_cast<unsigned>(hash >> 56);
  if ((hash_bits_[bit >> 6] >> (bit & 63) & 1) == 0) return nullptr;
  const size_t n = hashes_.size();
  if (n <= kLinearSearchLimit) {
    const uint64_t* hashes = hashes_.data();
    auto probe = [&](size_t i) -> CacheEntry* {
      if (hashes[i] != hash) return nullptr;
      CacheEntry* e = entries_[i];
      if (e->table != table || !(e->key == key)) return nullptr;
      next_probe_ = i + 1;
      return e;
    };
    const size_t start = next_probe_ < n ? next_probe_ : 0;
    for (size_t i = start; i < n; ++i)
      if (CacheEntry* e = probe(i)) return e;
    for (size_t i = 0; i < start; ++i)
      if (CacheEntry* e = probe(i)) return e;
    return nullptr;
  }
  if (by_hash_.size() != n) {
    by_hash_.clear();
    for (uint32_t i = 0; i < n; ++i) by_hash_.emplace(hashes_[i], i);
  }
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    CacheEntry* e = entries_[it->second];
    if (e->table == table && e->key == key) return e;
  }
  return nullptr;
}

CacheEntry& EpochTxn::Add(Table* table, const Key& key, uint64_t hash) {
  CacheEntry& e = cache.emplace_back();
  e.table = table;
  e.key = key;
  e.hash = hash;
  hashes_.push_back(hash);
  entries_.push_back(&e);
  const unsigned bit = static_cast<unsigned>(hash >> 56);
  hash_bits_[bit >> 6] |= uint64_t{1} << (bit & 63);
  if (!by_hash_.empty()) by_hash_.emplace(hash, static_cast<uint32_t>(hashes_.size() - 1));
  return e;
}

void EpochTxn::Fail(std::string sqlstate, std::string message, ErrorFields fields) {
  state = State::kAborted;
  result.status = TxnResult::Status::kAborted;
  result.sqlstate = std::move(sqlstate);
  result.message = std::move(message);
  result.error_fields = std::move(fields);
}

}  // namespace caracal::engine
