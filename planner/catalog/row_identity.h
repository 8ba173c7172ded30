// The hidden row identity of a table declared without a primary key (TableInfo::
// HasRowIdentity), the part PostgreSQL's ctid plays: the engine addresses every row by a
// key, so such a table's engine schema has two int8 columns after the table's own, and
// they are its engine primary key. They are never shown (SELECT *, \d, COPY and the
// catalog list the table's own columns only).
//
// An identity must be known when a transaction declares its writes, the same in Declare
// and Execute, and unique: the `ordinal`-th row that statement `statement` of block part
// `part` (engine::ExecContext::block_part(), 0 outside a transaction block) inserts in the
// transaction at `serial_id` is (serial_id, part << 48 | statement << 32 | ordinal). Declare counts the
// rows it declares per statement as Execute counts the rows it inserts, and declares at
// least as many (an undecided IF declares its branch), so each row Execute inserts was
// declared. A bulk load (COPY, INSERT ... SELECT between epochs) takes the load's serial
// position, after every transaction of the committed epoch, and numbers its rows on from
// any earlier load's at that position. Key order is insertion order, as a heap's is
// before any UPDATE. Identities depend on serial positions, so two runs with different
// epoch sizes give the same rows different identities: like ctid, not part of the state
// a query can see.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/storage/database.h"
#include "engine/types/key.h"
#include "engine/types/types.h"

namespace caracal::planner {

struct TableInfo;

inline constexpr int kRowIdentityColumns = 2;

struct RowIdentity {
  int64_t xact = 0;  // the inserting transaction's serial id
  int64_t item = 0;  // statement << 32 | ordinal
};

// A block has at most kMaxBlockPart + 1 parts, a procedure kMaxIdentityStatement statements
// (the last number is its nested calls').
inline constexpr uint32_t kMaxBlockPart = 0x7fff;
inline constexpr uint32_t kMaxIdentityStatement = 0xffff;
RowIdentity RowIdentityOf(uint64_t serial_id, uint32_t part, uint32_t statement, uint32_t ordinal);
engine::Key RowIdentityKey(const RowIdentity& id);
// The engine columns that hold it, after the table's own.
std::vector<engine::Column> RowIdentityColumns();

// Identities for one bulk load into `table` (which has them), in row order.
class LoadRowIdentities {
 public:
  LoadRowIdentities(engine::Database& db, const TableInfo& table);
  RowIdentity Next() { return RowIdentity{xact_, next_item_++}; }

 private:
  int64_t xact_ = 0;
  int64_t next_item_ = 0;
};

}  // namespace caracal::planner
