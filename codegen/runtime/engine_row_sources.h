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
  explicit ExecRowSource(ExecContext& ctx) : ctx_(ctx) {}
  const Schema& schema(TableId table) override { return ctx_.table(table).schema(); }
  const RowValue* Read(TableId table, const Key& key) override { return ctx_.Read(table, key); }
  void Scan(TableId table, const Key& lo, const Key& hi, const planner::RowVisitor& visit) override {
    ctx_.Scan(table, lo, hi, visit);
  }
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanIndex(table, index, lo, hi, visit);
  }

 private:
  ExecContext& ctx_;
};

class CommittedRowSource final : public planner::RowSource {
 public:
  explicit CommittedRowSource(DeclareContext& ctx) : ctx_(ctx) {}
  const Schema& schema(TableId table) override { return ctx_.table(table).schema(); }
  const RowValue* Read(TableId table, const Key& key) override { return ctx_.ReadCommitted(table, key); }
  void Scan(TableId table, const Key& lo, const Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanCommitted(table, lo, hi, visit);
  }
  void ScanIndex(TableId table, int index, const Key& lo, const Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanIndexCommitted(table, index, lo, hi, visit);
  }

 private:
  DeclareContext& ctx_;
};

}  // namespace caracal::codegen
