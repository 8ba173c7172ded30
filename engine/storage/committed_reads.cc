#include "engine/storage/committed_reads.h"

#include <fmt/format.h>

#include "engine/types/errors.h"
#include "engine/storage/table.h"

namespace caracal::engine {

const RowValue* CommittedReads::Read(TableId table, const Key& key) const {
  Row* row = db_.table(table).Find(key);
  return row ? Database::ReadSettled(*row, before_) : nullptr;
}

void CommittedReads::Scan(TableId table, const Key& lo, const Key& hi,
                          const std::function<bool(const Key&, const RowValue&)>& visit) const {
  db_.table(table).ForEach(lo, hi, [&](const Key& k, Row& row) {
    const RowValue* v = Database::ReadSettled(row, before_);
    return v == nullptr || visit(k, *v);
  });
}

void CommittedReads::ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                               const std::function<bool(const Key&, const RowValue&)>& visit,
                               std::string_view procedure) const {
  Table& t = db_.table(table);
  if (index < 0 || index >= t.num_indexes())
    throw ApiMisuse(fmt::format("procedure {}: table \"{}\" has no index #{}", procedure, t.name(), index));
  t.ForEachIndexEntry(index, lo, hi, [&](std::string_view index_key, const Key& pk) {
    Row* row = t.Find(pk);
    const RowValue* v = row ? Database::ReadSettled(*row, before_) : nullptr;
    if (v == nullptr) return true;
    // Entries may be stale (an update moved the row to another index key): recheck.
    std::optional<Key> current = t.IndexKey(index, *v);
    if (!current || current->view() != index_key) return true;
    return visit(pk, *v);
  });
}

}  // namespace caracal::engine
