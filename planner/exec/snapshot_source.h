// SnapshotSource: the last committed epoch as a RowSource, held for the whole query, so
// that an ad-hoc query reads one consistent state however many epochs commit meanwhile.
// Its random() values come from an unseeded stream (SnapshotRoutines).
#pragma once

#include "engine/storage/database.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/row_source.h"

namespace caracal::planner {

class SnapshotSource final : public RowSource {
 public:
  explicit SnapshotSource(engine::Database& db) : db_(db), snapshot_(db) { routines = &snapshot_routines_; }
  const engine::Schema& schema(engine::TableId table) override { return db_.schema(table); }
  const engine::RowValue* Read(engine::TableId table, const engine::Key& key) override { return snapshot_.Read(table, key); }
  void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi, const RowVisitor& visit) override {
    snapshot_.Scan(table, lo, hi, visit);
  }
  void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi, const RowVisitor& visit) override {
    snapshot_.ScanIndex(table, index, lo, hi, visit);
  }

 private:
  engine::Database& db_;
  engine::Snapshot snapshot_;
  SnapshotRoutines snapshot_routines_;
};

}  // namespace caracal::planner
