// Helpers for engine tests: a small key-value schema and procedures made of lambdas.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/procedure/executor.h"
#include "engine/types/key.h"
#include "engine/procedure/procedure.h"
#include "engine/types/row_value.h"
#include "engine/storage/store.h"
#include "engine/storage/table.h"

namespace caracal::engine::testing {

// kv(k bigint primary key, v bigint)
inline TableId CreateKv(Store& store, const std::string& name = "kv") {
  return store.CreateTable(Schema(name, {{"k", ColumnType::kBigInt, 0, 0, true}, {"v", ColumnType::kBigInt}}, {0}));
}

inline Key K(int64_t k) {
  Key key;
  key.AppendInt(k, ColumnType::kBigInt);
  return key;
}

inline RowValuePtr KvRow(const Store& store, TableId t, int64_t k, int64_t v) {
  return RowBuilder(store.schema(t)).SetInt(0, k).SetInt(1, v).Build();
}

class LambdaProcedure final : public Procedure {
 public:
  using DeclareFn = std::function<void(DeclareContext&)>;
  using ExecuteFn = std::function<void(ExecContext&)>;
  LambdaProcedure(std::string name, DeclareFn declare, ExecuteFn execute)
      : name_(std::move(name)), declare_(std::move(declare)), execute_(std::move(execute)) {}
  const std::string& name() const override { return name_; }
  void Declare(DeclareContext& ctx) const override { declare_(ctx); }
  void Execute(ExecContext& ctx) const override { execute_(ctx); }
  bool needs_epoch_head() const override { return epoch_head_; }
  bool needs_solo_epoch() const override { return solo_; }
  LambdaProcedure& set_epoch_head(bool on) {
    epoch_head_ = on;
    return *this;
  }
  LambdaProcedure& set_solo(bool on) {
    solo_ = on;
    return *this;
  }

 private:
  bool epoch_head_ = false;
  bool solo_ = false;
  std::string name_;
  DeclareFn declare_;
  ExecuteFn execute_;
};

// Submits `proc` with `args`, storing the result into `*out` when it completes.
inline void SubmitTo(Executor& ex, const Procedure& proc, std::vector<Value> args, TxnResult* out) {
  TxnRequest r;
  r.procedure = &proc;
  r.input.args = std::move(args);
  r.on_done = [out](TxnResult&& res) {
    if (out) *out = std::move(res);
  };
  ex.Submit(std::move(r));
}

// The committed value of kv row k, or nullopt.
inline std::optional<int64_t> CommittedV(const Store& store, TableId t, int64_t k) {
  std::optional<int64_t> out;
  store.ForEachCommittedRow(t, [&](const Key& key, const RowValue& row) {
    if (row.GetInt(0) == k) out = row.GetInt(1);
  });
  return out;
}

}  // namespace caracal::engine::testing
