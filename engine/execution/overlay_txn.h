// Overlay transactions: one transaction run alone and to completion over a single-version
// view of the rows (an OverlayBase), its writes kept in its own overlay until the caller
// decides what becomes of them. Two users:
//   - the ReferenceExecutor (the oracle), whose base is its own store and which applies
//     the overlay when the transaction commits;
//   - snapshot tries of transaction blocks (snapshot_try.h), whose base is the engine's
//     last committed epoch and which drop the overlay.
// Both check the write set a procedure declared exactly as the epoch engine does, so a
// procedure that misdeclares fails the same way everywhere.
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/procedure/executor.h"
#include "engine/procedure/procedure.h"
#include "engine/types/serial_id.h"

namespace caracal::engine {

// What an overlay transaction reads when it has not written the row itself.
class OverlayBase {
 public:
  virtual ~OverlayBase() = default;
  virtual Table& table(TableId id) = 0;
  virtual const RowValue* Read(TableId table, const Key& key) = 0;
  // As ExecContext::Scan and ScanIndex, over the base alone. ScanIndex is called only
  // for an index the table has.
  virtual void Scan(TableId table, const Key& lo, const Key& hi,
                    const std::function<bool(const Key&, const RowValue&)>& visit) = 0;
  virtual void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                         const std::function<bool(const Key& primary_key, const RowValue&)>& visit) = 0;
  // nextval() drawn as a solo transaction runs.
  virtual int64_t NextVal(std::string_view sequence) = 0;
  // The procedure found its reconnaissance stale (ExecContext::Retry).
  virtual void Retry(const Procedure& procedure) = 0;
  virtual WorkerScratch& worker_scratch() = 0;
};

// Thrown by an OverlayBase for what it cannot do (a snapshot cannot draw a sequence
// value): RunInOverlay lets it through instead of failing the transaction with it.
class OverlayUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OverlayTableKeyHash {
  size_t operator()(const std::pair<TableId, Key>& p) const { return p.second.Hash() * 31 + p.first; }
};

// One transaction's declarations and writes.
struct OverlayTxn {
  const TxnRequest* request = nullptr;
  std::unordered_map<std::pair<TableId, Key>, WriteKind, OverlayTableKeyHash> declared;
  std::vector<std::vector<Key>> ranges;
  struct Range {
    TableId table;
    Key lo, hi;
  };
  std::vector<Range> range_bounds;
  std::vector<bool> ranges_complete;  // own inserts merged into ranges[i] (on first use)
  std::vector<std::shared_ptr<const RowValue>> replaced;  // own values a later own write replaced
  struct Write {
    std::shared_ptr<const RowValue> value;  // null: deleted
  };
  std::map<std::pair<TableId, Key>, Write> writes;  // ordered: applied deterministically
  // Open savepoints' records, newest last: a row's write before the one that followed
  // (absent: the row had no own write yet).
  struct Undo {
    std::pair<TableId, Key> row;
    std::optional<Write> before;
  };
  std::vector<Undo> undo;
  int open_savepoints = 0;
  std::vector<Value> scratch;
  std::any attempt_state;
  bool published = false;
  bool aborted = false;
  TxnResult result;

  // Ends the transaction with an error (an exception out of the procedure).
  void Fail(const std::string& sqlstate, const std::string& message);
};

// Runs the request's Declare, then its Execute, at serial id `sid` over `base` (its
// Sequence has run). An exception out of the procedure fails the transaction (and only
// it), as in the epoch engine; OverlayUnsupported propagates.
void RunInOverlay(OverlayBase& base, OverlayTxn& txn, SerialId sid);

}  // namespace caracal::engine
