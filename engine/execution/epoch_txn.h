// EpochTxn: the engine's state for one transaction inside one epoch: its serial id, its
// row cache (every row it declared, found once during initialization and reused during
// execution, paper §4.3), its resolved ranges and its result.
#pragma once

#include <any>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/types/errors.h"
#include "engine/procedure/executor.h"
#include "engine/storage/row.h"
#include "engine/types/serial_id.h"
#include "engine/storage/table.h"

namespace caracal::engine {

struct CacheEntry {
  Table* table = nullptr;
  Key key;
  uint64_t hash = 0;
  Row* row = nullptr;
  WriteKind kind = WriteKind::kUpdate;
  bool declared_write = false;  // false: a prefetch only
  bool creates = false;         // declared as insert or upsert: the row is created in the insert step
  bool needs_append = false;    // a version is still to be appended in the append step
  bool has_version = false;     // this transaction owns a version (pending until settled)
  int64_t version_index = -1;   // position of that version, resolved at execution
  int row_update_weight = 0;    // > 0: declared for ApplyRowUpdate (a split candidate)
  struct Piece* piece = nullptr;  // set when split-on-demand placed it on another core
  // This transaction's own write: held back until Publish(), or stored.
  bool written = false;
  bool stored = false;
  bool tombstone = false;
  RowValuePtr staged;
  const RowValue* own_value = nullptr;
};

// A split ApplyRowUpdate: placed in a core's queue at the end of initialization; the
// transaction posts its callback (or cancels) when it gets there.
struct Piece {
  enum : int { kWaiting = 0, kPosted = 1, kCancelled = 2 };
  struct EpochTxn* txn = nullptr;
  CacheEntry* entry = nullptr;
  std::atomic<int> posted{kWaiting};
  RowUpdateCallback callback;  // written before `posted` becomes kPosted
  PieceState state;
};

struct RangeDecl {
  Table* table = nullptr;
  Key lo, hi;
  RangeKind kind = RangeKind::kUpdate;
  std::vector<Row*> candidates;   // resolved in the append step: versions appended to these
  std::vector<Key> rows;          // those that exist at the transaction's position
  bool filtered = false;          // `rows` computed (on first use, during execution)
};

struct EpochTxn {
  enum class State : uint8_t { kRunning, kAborted, kRetry };

  TxnRequest request;
  SerialId sid = 0;
  uint32_t attempts = 0;
  bool sequenced = false;
  State state = State::kRunning;
  bool published = false;
  bool maintains_indexes = false;  // DeclareIndexUnknown: its writes add their index entries
  // Alone in its epoch (Procedure::needs_solo_epoch): it may write rows it did not
  // declare, and draw sequence values as it runs.
  bool solo = false;
  TxnResult result;
  std::deque<CacheEntry> cache;  // a deque: entries keep their address as it grows
  std::vector<RangeDecl> ranges;
  std::vector<Value> scratch;  // from Declare to Execute
  std::any attempt_state;      // from Declare to Execute
  std::vector<RowValuePtr> replaced;  // own values overwritten by a later own write
  // While a savepoint is open, each write first records what its row's own write was
  // (ExecContext::Savepoint); a rollback restores those records, newest first.
  struct UndoRecord {
    CacheEntry* entry = nullptr;
    bool written = false;
    bool tombstone = false;
    RowValuePtr staged;
    const RowValue* own_value = nullptr;
  };
  std::vector<UndoRecord> undo;
  int open_savepoints = 0;

  CacheEntry* Find(const Table* table, const Key& key, uint64_t hash);
  CacheEntry& Add(Table* table, const Key& key, uint64_t hash);
  void Fail(std::string sqlstate, std::string message, ErrorFields fields = {});
  // Runs one step of the procedure; an exception fails the transaction (and only it).
  template <typename Step>
  void Guard(Step&& step) {
    try {
      step();
    } catch (const DetailedError& e) {
      Fail(e.sqlstate(), e.what(), {e.detail(), e.hint(), e.context()});
    } catch (const EngineError& e) {
      Fail(e.sqlstate(), e.what());
    } catch (const std::exception& e) {
      Fail("XX000", e.what());
    }
  }

 private:
  // The cache's key hashes and entries in insertion order, contiguous: a linear search
  // reads 8 bytes per entry instead of one deque node (a cache line or more) per entry.
  std::vector<uint64_t> hashes_;
  std::vector<CacheEntry*> entries_;
  // Execution looks rows up mostly in the order they were declared: a search starts
  // after the last hit. And a declaration mostly looks up a row not yet cached: a bit
  // per hash value modulo 256, set for every entry, rules most of those out at once.
  size_t next_probe_ = 0;
  uint64_t hash_bits_[4] = {0, 0, 0, 0};
  // Built once the cache is large enough that even that search would dominate.
  std::unordered_multimap<uint64_t, uint32_t> by_hash_;
};

}  // namespace caracal::engine
