// Inlined: keys are short, and a call through the shared library costs more than
// hashing them.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstring>

#include "engine/storage/store.h"

namespace caracal::engine {

namespace {

class Hasher {
 public:
  Hasher() : state_(XXH3_createState()) { XXH3_64bits_reset(state_); }
  ~Hasher() { XXH3_freeState(state_); }
  void Bytes(const void* p, size_t n) { XXH3_64bits_update(state_, p, n); }
  void U64(uint64_t v) { Bytes(&v, sizeof v); }
  void Str(std::string_view s) {
    U64(s.size());
    Bytes(s.data(), s.size());
  }
  uint64_t Digest() { return XXH3_64bits_digest(state_); }

 private:
  XXH3_state_t* state_;
};

}  // namespace

uint64_t StateHash(const Store& store) {
  Hasher h;
  for (TableId t = 0; t < store.num_tables(); ++t) {
    if (store.IsDropped(t)) continue;
    const Schema& schema = store.schema(t);
    h.Str(schema.table_name());
    uint64_t rows = 0;
    store.ForEachCommittedRow(t, [&](const Key& key, const RowValue& row) {
      ++rows;
      h.Str(key.view());
      for (int c = 0; c < schema.num_columns(); ++c) {
        if (row.IsNull(c)) {
          h.U64(0xdeadbeefULL);
          continue;
        }
        if (IsVariableWidth(schema.column(c).type))
          h.Str(row.GetString(c));
        else
          h.U64(static_cast<uint64_t>(row.GetInt(c)));
      }
    });
    h.U64(rows);
  }
  return h.Digest();
}

}  // namespace caracal::engine
