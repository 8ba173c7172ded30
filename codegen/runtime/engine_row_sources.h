// RowSources over the engine's procedure contexts: a transaction's reads at its serial
// position (Execute), and the last committed state during initialization
// (reconnaissance in Declare).
#pragma once

#include "engine/procedure/procedure.h"
#include "engine/storage/table.h"
#include "planner/plan/row_source.h"

namespace caracal::codegen {

class ExecRowSource final : public planner::RowSource {
 public:
  explicit ExecRowSource(engine::ExecContext& ctx) : ctx_(ctx) {}
  const engine::Schema& schema(engine::TableId table) override { return ctx_.table(table).schema(); }
  const engine::RowValue* Read(engine::TableId table, const engine::Key& key) override { return ctx_.Read(table, key); }
  void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    ctx_.Scan(table, lo, hi, visit);
  }
  void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanIndex(table, index, lo, hi, visit);
  }

 private:
  engine::ExecContext& ctx_;
};

class CommittedRowSource final : public planner::RowSource {
 public:
  explicit CommittedRowSource(engine::DeclareContext& ctx) : ctx_(ctx) {}
  const engine::Schema& schema(engine::TableId table) override { return ctx_.table(table).schema(); }
  const engine::RowValue* Read(engine::TableId table, const engine::Key& key) override { return ctx_.ReadCommitted(table, key); }
  void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanCommitted(table, lo, hi, visit);
  }
  void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanIndexCommitted(table, index, lo, hi, visit);
  }

 private:
  engine::DeclareContext& ctx_;
};

}  // namespace caracal::codegen
