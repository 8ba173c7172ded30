// ProcedureInterpreter::Call: a user function called inside an expression runs in a nested
// interpreter over the caller's transaction. See README.md, "Calls between procedures".
#include <fmt/format.h>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/interpreter/sequence_names.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

namespace {

using planner::Datum;
using planner::SqlError;

// PostgreSQL's max_stack_depth stops runaway recursion; calls here cannot recurse (a
// function binds the functions it calls as they were), but replacing functions can
// chain them deeply.
constexpr int kMaxCallDepth = 100;

[[noreturn]] void NoTransaction(const char* what) {
  throw SqlError("XX000", fmt::format("internal error: a function called during initialization {}", what));
}

// The caller's transaction as the called function sees it: the same reads, writes,
// savepoints and sequence draws (forwarded), but its rows go to the caller (the
// interpreter's call_results_), it neither publishes nor sets a row count, and it has
// nothing declared of its own. Without a transaction (a function the init program
// calls, which touches no table) every table access is an internal error.
class NestedExecContext final : public engine::ExecContext {
 public:
  explicit NestedExecContext(engine::ExecContext* caller) : caller_(caller) {}

  const engine::TxnInput& input() const override { return input_; }
  engine::Table& table(engine::TableId id) override { return Caller("used a table").table(id); }
  uint64_t serial_id() const override { return caller_ ? caller_->serial_id() : 0; }
  uint32_t block_part() const override { return caller_ ? caller_->block_part() : 0; }
  const engine::RowValue* Read(engine::TableId table, const engine::Key& key) override {
    return Caller("read a row").Read(table, key);
  }
  void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi,
            const std::function<bool(const engine::Key&, const engine::RowValue&)>& visit) override {
    Caller("read a row").Scan(table, lo, hi, visit);
  }
  void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi,
                 const std::function<bool(const engine::Key&, const engine::RowValue&)>& visit) override {
    Caller("read a row").ScanIndex(table, index, lo, hi, visit);
  }
  const std::vector<engine::Key>& RangeRows(int range_id) override { return Caller("read a range").RangeRows(range_id); }
  bool Insert(engine::TableId table, const engine::Key& key, engine::RowValuePtr value) override {
    return Caller("wrote a row").Insert(table, key, std::move(value));
  }
  void Upsert(engine::TableId table, const engine::Key& key, engine::RowValuePtr value) override {
    Caller("wrote a row").Upsert(table, key, std::move(value));
  }
  bool Update(engine::TableId table, const engine::Key& key, engine::RowValuePtr value) override {
    return Caller("wrote a row").Update(table, key, std::move(value));
  }
  bool Delete(engine::TableId table, const engine::Key& key) override { return Caller("wrote a row").Delete(table, key); }
  engine::RowUpdateFuture ApplyRowUpdate(engine::TableId table, const engine::Key& key, engine::RowUpdateCallback callback,
                                         int weight) override {
    return Caller("wrote a row").ApplyRowUpdate(table, key, std::move(callback), weight);
  }
  int64_t Savepoint() override { return caller_ ? caller_->Savepoint() : 0; }
  void RollbackToSavepoint(int64_t mark) override {
    if (caller_) caller_->RollbackToSavepoint(mark);
  }
  void ReleaseSavepoint(int64_t mark) override {
    if (caller_) caller_->ReleaseSavepoint(mark);
  }
  void Publish() override {}
  void Abort(std::string sqlstate, std::string message, engine::ErrorFields) override {
    throw SqlError(std::move(sqlstate), message);
  }
  void Retry() override { Caller("retried").Retry(); }
  const std::vector<engine::Value>& scratch() const override { return no_scratch_; }
  std::any& attempt_state() override { return attempt_state_; }
  engine::WorkerScratch& worker_scratch() override {
    return caller_ ? caller_->worker_scratch() : own_scratch_;
  }
  int64_t NextVal(std::string_view sequence) override { return Caller("drew a sequence value").NextVal(sequence); }
  // During initialization a notice is dropped: the body raises it again when it runs.
  void Notice(std::string message) override {
    if (caller_) caller_->Notice(std::move(message));
  }
  void Emit(std::vector<engine::Value>) override {}
  void SetRowCount(int64_t) override {}

 private:
  engine::ExecContext& Caller(const char* what) const {
    if (caller_ == nullptr) NoTransaction(what);
    return *caller_;
  }

  engine::ExecContext* caller_;
  engine::TxnInput input_;
  std::vector<engine::Value> no_scratch_;
  std::any attempt_state_;
  engine::WorkerScratch own_scratch_;
};

}  // namespace

void ProcedureInterpreter::Nest(const Nesting& nesting) {
  call_depth_ = nesting.depth;
  nested_in_serial_ = nesting.in_serial;
  nested_identity_rows_ = nesting.rows;
  call_results_ = nesting.results;
}

planner::RandomDraws& ProcedureInterpreter::Draws() const {
  if (!draws_) {
    const int seed = ir_.random_seed_variable;
    const Datum* value = seed >= 0 && static_cast<size_t>(seed) < frame_.vars.size() ? &frame_.vars[seed] : nullptr;
    draws_.emplace(value != nullptr && !value->is_null() ? static_cast<uint64_t>(value->i) : 0);
  }
  return *draws_;
}

Datum ProcedureInterpreter::Call(const planner::Expr& call, std::span<const Datum> args) const {
  const planner::ProcedureIr& callee = *call.routine;
  if (callee.strict)
    for (const Datum& a : args)
      if (a.is_null()) return Datum::Null();  // STRICT: the body does not run
  if (call_depth_ + 1 >= kMaxCallDepth)
    throw SqlError("54001", "stack depth limit exceeded")
        .WithHint(fmt::format("Calls nest more than {} deep.", kMaxCallDepth));
  Frame frame;
  frame.vars.resize(callee.variables.size());
  for (size_t i = 0; i < args.size() && i < frame.vars.size(); ++i) frame.vars[i] = args[i];
  if (callee.found_variable >= 0) frame.var(callee.found_variable) = Datum::Bool(false);
  if (callee.row_count_variable >= 0) frame.var(callee.row_count_variable) = Datum::Int(0);
  // now() is the transaction's (the analysis gave the caller a now() slot for it).
  if (callee.now_variable >= 0 && ir_.now_variable >= 0) frame.var(callee.now_variable) = frame_.vars[ir_.now_variable];
  NestedExecContext transaction(exec_);
  // The values the callee would have drawn at sequencing, drawn as it starts (a caller of a
  // function that draws is serial, so this is its serial position, as in PostgreSQL).
  planner::EvalContext over_frame;
  over_frame.variables = frame.vars;
  for (const planner::SequenceCall& draw : callee.sequence_calls)
    frame.var(draw.variable) = Datum::Int(transaction.NextVal(SequenceEngineName(draw, over_frame, catalog_)));
  std::vector<std::vector<Datum>> results;
  ProcedureInterpreter runner(callee, catalog_, transaction, frame);
  if (callee.random_seed_variable >= 0) runner.draws_ = Draws().Child(call.site);
  uint32_t* rows = nested() ? nested_identity_rows_ : &own_nested_identity_rows_;
  runner.Nest(Nesting{call_depth_ + 1, serial(), rows, &results});
  try {
    runner.Run();
  } catch (SqlError& e) {
    e.LeaveCall();
    throw;
  }
  if (results.empty() || results[0].empty()) return Datum::Null();
  // CALL of a procedure with OUT / INOUT parameters: their row (the binder assigns each).
  if (callee.kind == planner::ProcedureIr::Kind::kProcedure && !callee.out_variables.empty())
    return Datum::Array(std::move(results[0]));
  return std::move(results[0][0]);
}

}  // namespace caracal::codegen
