#include "planner/catalog/row_identity.h"

#include <cassert>

#include "engine/storage/table.h"
#include "engine/types/serial_id.h"
#include "planner/catalog/catalog.h"

namespace caracal::planner {

RowIdentity RowIdentityOf(uint64_t serial_id, uint32_t part, uint32_t statement, uint32_t ordinal) {
  assert(part <= kMaxBlockPart && statement <= kMaxIdentityStatement);
  return RowIdentity{static_cast<int64_t>(serial_id),
                     static_cast<int64_t>((static_cast<uint64_t>(part) << 48) | (static_cast<uint64_t>(statement) << 32) | ordinal)};
}

engine::Key RowIdentityKey(const RowIdentity& id) {
  engine::Key key;
  key.AppendInt(id.xact, engine::ColumnType::kBigInt);
  key.AppendInt(id.item, engine::ColumnType::kBigInt);
  return key;
}

std::vector<engine::Column> RowIdentityColumns() {
  engine::Column xact{.name = "$row_xact", .type = engine::ColumnType::kBigInt, .not_null = true};
  engine::Column item{.name = "$row_item", .type = engine::ColumnType::kBigInt, .not_null = true};
  return {xact, item};
}

LoadRowIdentities::LoadRowIdentities(engine::Database& db, const TableInfo& table) {
  xact_ = static_cast<int64_t>(engine::MakeSerialId(db.committed_epoch(), engine::kLoadSequence));
  engine::Key lo;
  lo.AppendInt(xact_, engine::ColumnType::kBigInt);
  // Every key the table ever held at this position, deleted rows' too: none is reused.
  db.table(table.id).ForEach(lo, lo.PrefixSuccessor(), [&](const engine::Key& key, engine::Row&) {
    const engine::Schema& schema = db.table(table.id).schema();
    next_item_ = engine::DecodeKey(schema, schema.primary_key(), key)[1].as_int() + 1;
    return true;
  });
}

}  // namespace caracal::planner
