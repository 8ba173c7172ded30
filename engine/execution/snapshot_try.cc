#include "engine/execution/snapshot_try.h"

#include "engine/execution/overlay_txn.h"
#include "engine/procedure/executor.h"
#include "engine/types/errors.h"

namespace caracal::engine {

namespace {

class SnapshotBase final : public OverlayBase {
 public:
  SnapshotBase(Database& db, WorkerScratch& scratch) : db_(db), snapshot_(db), scratch_(scratch) {}
  uint32_t epoch() const { return snapshot_.epoch(); }

  Table& table(TableId id) override { return db_.table(id); }
  const RowValue* Read(TableId table, const Key& key) override { return snapshot_.Read(table, key); }
  void Scan(TableId table, const Key& lo, const Key& hi,
            const std::function<bool(const Key&, const RowValue&)>& visit) override {
    snapshot_.Scan(table, lo, hi, visit);
  }
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi,
                 const std::function<bool(const Key&, const RowValue&)>& visit) override {
    snapshot_.ScanIndex(table, index, lo, hi, visit);
  }
  int64_t NextVal(std::string_view) override { throw OverlayUnsupported("a snapshot try cannot draw sequence values"); }
  void Retry(const Procedure&) override { throw OverlayUnsupported("a snapshot try cannot retry"); }
  WorkerScratch& worker_scratch() override { return scratch_; }

 private:
  Database& db_;
  Snapshot snapshot_;
  WorkerScratch& scratch_;
};

// Sequencing without the sequences: a draw sends the transaction to the engine.
class NoSequences final : public SequenceContext {
 public:
  int64_t NextVal(std::string_view) override { throw OverlayUnsupported("a snapshot try cannot draw sequence values"); }
  int64_t CurrVal(std::string_view) override { throw OverlayUnsupported("a snapshot try cannot read sequences"); }
};

}  // namespace

std::optional<TxnResult> RunOnSnapshot(Database& db, const Procedure& procedure, TxnInput input, WorkerScratch& scratch) {
  TxnRequest request{&procedure, std::move(input), nullptr};
  OverlayTxn txn;
  txn.request = &request;
  try {
    NoSequences sequences;
    procedure.Sequence(sequences, request.input);
  } catch (const OverlayUnsupported&) {
    return std::nullopt;
  } catch (const EngineError& e) {
    txn.Fail(e.sqlstate(), e.what());
  } catch (const std::exception& e) {
    txn.Fail("XX000", e.what());
  }
  try {
    SnapshotBase base(db, scratch);
    // The first serial id after the snapshot: where the transaction would run if it
    // were the next one.
    const SerialId sid = MakeSerialId(base.epoch() + 1, 1);
    if (!txn.aborted) RunInOverlay(base, txn, sid);
    txn.result.serial_id = sid;
  } catch (const OverlayUnsupported&) {
    return std::nullopt;
  }
  return std::move(txn.result);
}

}  // namespace caracal::engine
