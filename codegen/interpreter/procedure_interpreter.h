// ProcedureInterpreter: interprets a procedure's statements. In Execute it runs ProcedureIr::body at
// the transaction's serial position through the engine's ExecContext; in Declare it runs
// ProcedureIr::init (the same statement kinds plus kDeclare and kReconRead) through the
// DeclareContext. One runner per attempt.
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/runtime/foreign_key_checks.h"
#include "codegen/runtime/frame.h"
#include "engine/procedure/procedure.h"
#include "planner/catalog/catalog.h"
#include "planner/catalog/row_identity.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/procedure_ir.h"
#include "planner/plan/row_source.h"

namespace caracal::codegen {

class CompiledExprs;

// How a statement list ended.
enum class Flow : uint8_t { kNext, kExit, kContinue, kReturn };

// The ranges Declare declared, so Execute can find a range statement's range id: Declare
// appends (statement id, lo, hi) triples to the transaction's scratch values in
// declaration order, which is range id order.
int FindDeclaredRange(const std::vector<engine::Value>& scratch, int stmt_id, const engine::Key& lo, const engine::Key& hi);
void RecordDeclaredRange(std::vector<engine::Value>& scratch, int stmt_id, const engine::Key& lo, const engine::Key& hi);

// The rows a query over a primary-key range read (Stmt::feeds_range_write), each with
// its value, kept for the range UPDATE/DELETE that follows: when that statement's range
// is the same, these are exactly its rows (no write came between), so it reads none
// again. `consumer` is that statement's id; -1: nothing kept.
struct KeptRangeRows {
  int consumer = -1;
  engine::TableId table = 0;
  engine::Key lo, hi;
  std::vector<std::pair<const engine::Key*, const engine::RowValue*>> rows;
};

// JIT'd code hands it the statements it does not compile (table access), on the same
// frame, through RunStatement.
class ProcedureInterpreter final : public planner::RoutineRunner {
 public:
  ProcedureInterpreter(const planner::ProcedureIr& ir, const planner::Catalog& catalog, engine::ExecContext& ctx, Frame& frame)
      : ir_(ir), catalog_(catalog), exec_(&ctx), frame_(frame) {}
  ProcedureInterpreter(const planner::ProcedureIr& ir, const planner::Catalog& catalog, engine::DeclareContext& ctx, Frame& frame)
      : ir_(ir), catalog_(catalog), declare_(&ctx), frame_(frame) {}

  // Runs the body (ExecContext runners); SqlErrors propagate (the caller aborts). Returns
  // normally at RETURN or at the end of the body.
  void Run();
  // Runs the init program (DeclareContext runners).
  void RunInit();
  bool published() const { return published_; }
  // Called with the body statement each init kDeclare / kReconRead stands for, before
  // it runs (EXPLAIN CALL attributes declarations to statements with it).
  void set_declare_observer(std::function<void(const planner::Stmt&)> observer) {
    declare_observer_ = std::move(observer);
  }
  // After the body ended (also the compiled body's): the row of OUT parameters, an ad-hoc
  // DML statement's row count, the missing-RETURN error of a scalar function.
  void Finish();

  // Compiled code for the statements' expressions (may be null: all interpreted). It
  // must outlive the runner's work; ApplyRowUpdate pieces that run later use its
  // ProcedureCode, which lives as long as the procedure, with temps of their own.
  void set_compiled(const CompiledExprs* compiled);
  // Where INSERT and UPDATE statements keep their new values, one vector per statement id,
  // reused from run to run (RunBuffers); without it, one vector serves every statement.
  void set_statement_values(std::vector<std::vector<planner::Datum>>* values) { statement_values_ = values; }

  // A user function an expression calls (planner::RoutineRunner), run by a nested
  // interpreter over this transaction (routine_call.cc): its reads at this transaction's
  // serial position, its writes (only a serial procedure's callees write) declared as they
  // are made, its sequence values drawn as it starts, its notices this transaction's.
  // During Declare only functions that touch no table are called (the analysis sees to it).
  planner::Datum Call(const planner::Expr& call, std::span<const planner::Datum> args) const override;
  // random() at draw site `site`: the call's stream, seeded by its input (the init
  // program's runner draws what the body's does: planner/expr/random_draws.h).
  double Random(int site) const override { return Draws().Next(site); }

  // Runs one statement on the frame (for compiled code: codegen/procedures/compiled_procedure.cc).
  Flow RunStatement(const planner::Stmt& s) { return RunStmt(s); }
  // The same with the statement's primary key already computed (codegen/runtime/point_key.h):
  // `key` null means no row.
  Flow RunStatementWithKey(const planner::Stmt& s, const engine::Key* key);
  // An init kDeclare of body statement `body` whose access is a point (prefetch, insert,
  // upsert, update, delete) with its key already computed by compiled code: declares
  // what RunStatementWithKey on the kDeclare would, without evaluating anything the
  // key does not need.
  void DeclareWithKey(const planner::Stmt& body, const engine::Key& key);
  // The DeclareContext compiled init code may declare a one-call point access on itself
  // (direct_declare.h): the runner's, unless a declare observer must see each one.
  engine::DeclareContext* DirectDeclareContext() const { return declare_observer_ ? nullptr : declare_; }
  // The row point SELECT INTO `s` reads (compiled code assigns its outputs), with FOUND
  // and the outputs left to the caller. Body statements only.
  const engine::RowValue* ReadRow(const planner::Stmt& s, const engine::Key& key);
  // The publish point (idempotent) and RETURN's value, also for compiled code.
  void Publish();
  void Return(const planner::Datum& value);

 private:
  Flow RunBlock(const planner::Block& block);
  // Runs `s`; an error leaving it gets PL/pgSQL's CONTEXT (error_context.h).
  Flow RunStmt(const planner::Stmt& s);
  Flow RunStmtKind(const planner::Stmt& s);
  // Handles how one loop iteration ended: sets `stop` for an EXIT of this loop; returns a
  // flow the loop must pass on (RETURN, or EXIT/CONTINUE of an outer loop) or kNext.
  Flow AfterIteration(const planner::Stmt& loop, Flow f, bool& stop);

  void RunSelectInto(const planner::Stmt& s);
  // A FOR over a query's read (Stmt::collect): its rows, column by column, into arrays.
  void CollectRows(const planner::Stmt& s, planner::RowSource& source);
  // CollectRows of a query over `unnest(variables...)` on the arrays (planner::RunOverArrays);
  // false: not that shape.
  bool CollectUnnest(const planner::Stmt& s);
  // The rows of a kSelectInto / kReturnQuery's query (SelectPlan or QueryPlan) from `source`.
  std::vector<std::vector<planner::Datum>> QueryRows(const planner::Stmt& s, planner::RowSource& source);
  void SelectInto(const planner::Stmt& s, planner::RowSource& source);
  void RunReturnQuery(const planner::Stmt& s);
  void RunInsert(const planner::Stmt& s);
  // INSERT `s` through its compiled row (row_writes.h): true when that settled it
  // (inserted, or skipped by DO NOTHING); false when the general path must run it (a
  // fallback, or a duplicate key, whose error the general path words).
  bool InsertCompiledRow(const planner::Stmt& s, const engine::Schema& schema);
  void RunUpdate(const planner::Stmt& s);
  void RunDelete(const planner::Stmt& s);
  // INTO STRICT on a write's RETURNING: exactly one row (P0002 / P0003 otherwise).
  void CheckStrict(const planner::Stmt& s, int64_t rows);
  // RETURNING ... INTO of a statement that wrote no row: PL/pgSQL sets the targets to
  // NULL (NOT NULL variables raise).
  void ReturnedNoRow(const planner::Stmt& s);
  void RunRaise(const planner::Stmt& s);
  Flow RunExceptionBlock(const planner::Stmt& s);
  // UNIQUE indexes (codegen/runtime/table_access.h's UniqueConflict): an INSERT's row
  // that one refuses raises 23505, or is skipped (true) under ON CONFLICT DO NOTHING
  // without a target; an UPDATE's new row raises.
  bool UniqueRefusesInsert(const planner::Stmt& s, const engine::Key& key, const engine::RowValue& row);
  void CheckUniqueUpdate(const planner::TableInfo& table, const engine::Key& key, const engine::RowValue& row,
                         const engine::RowValue& old);
  void RunReturn(const planner::Stmt& s);
  void RunReturnNext(const planner::Stmt& s);
  void RunDeclare(const planner::Stmt& s);
  // The point access of body statement `s` to the row with `key` (RunDeclare's point cases).
  void DeclarePoint(const planner::Stmt& s, const engine::Key& key);
  // DeclareIndexUnknown for each of AccessInfo::unknown_indexes of `s`, over the rows it
  // writes: primary keys in [lo, hi).
  void DeclareUnknownIndexes(const planner::Stmt& s, const engine::Key& lo, const engine::Key& hi);
  void RunReconRead(const planner::Stmt& s);
  // The row identity of the next row INSERT `s` writes into a table without a primary
  // key (planner/catalog/row_identity.h): Declare and Execute count alike.
  planner::RowIdentity NextRowIdentity(const planner::Stmt& s, uint64_t serial_id, uint32_t part);

  planner::Datum Eval(const planner::Expr& e) const;
  bool Condition(const planner::Expr& e) const;
  void Assign(int slot, planner::Datum value, const planner::SqlType& from);
  void SetFound(bool found);
  // Runs SQL statement `s` and sets ROW_COUNT to the rows it processed.
  Flow RunCountingRows(const planner::Stmt& s);
  // The keys a range statement covers at this transaction's position (declared in Declare).
  const std::vector<engine::Key>& RangeKeys(const planner::Stmt& s);
  // A serial IR's statement draws its nextval() values (Stmt::draws) as it starts.
  void DrawSequences(const planner::Stmt& s);
  // The row a point statement addresses: its WHERE key (UPDATE/DELETE) or its point read
  // path (SELECT); null / nullopt for none (a NULL or unencodable key). The preset key if
  // any (WhereKeyOf points at it; else at `computed`, which holds the key it computes).
  const engine::Key* WhereKeyOf(const planner::Stmt& s, std::optional<engine::Key>& computed);
  std::optional<engine::Key> ReadKeyOf(const planner::Stmt& s);
  // Calls `fn` on each row an UPDATE/DELETE addresses that exists now (its point, or its
  // declared range's rows), with its current value; whether `fn` returned true for any.
  bool ForEachAddressedRow(const planner::Stmt& s, const std::function<bool(const engine::Key&, const engine::RowValue&)>& fn);
  void Returning(const planner::Stmt& s, const engine::Schema& schema, const engine::RowValue& row);
  void EmitRow(const std::vector<planner::Datum>& values);

  // Whether the rows this transaction writes are declared as it writes them: a serial
  // procedure, or a function a serial procedure called.
  bool serial() const { return ir_.is_serial() || nested_in_serial_; }
  // What a function called from another one's body runs with (set by Call).
  struct Nesting {
    int depth = 0;             // calls between the transaction's procedure and this one
    bool in_serial = false;    // the transaction is serial
    uint32_t* rows = nullptr;  // rows nested calls inserted into tables without a primary key
    std::vector<std::vector<planner::Datum>>* results = nullptr;  // where RETURN's rows go
  };
  void Nest(const Nesting& nesting);

  const planner::ProcedureIr& ir_;
  const planner::Catalog& catalog_;
  engine::ExecContext* exec_ = nullptr;
  engine::DeclareContext* declare_ = nullptr;
  Frame& frame_;
  bool published_ = false;
  bool returned_value_ = false;
  int64_t rows_processed_ = 0;
  // The rows the running query statement reported for ROW_COUNT (SELECT INTO, PERFORM,
  // RETURN QUERY); -1: none, the rows it wrote count (rows_processed_'s growth).
  int64_t statement_rows_ = -1;
  std::function<void(const planner::Stmt&)> declare_observer_;
  const planner::ExprAccelerator* accelerator_ = nullptr;
  const CompiledExprs* compiled_ = nullptr;  // the same object as accelerator_, or null
  std::vector<planner::Datum> new_values_;     // scratch for RunInsert / UpdatedRow
  std::vector<std::vector<planner::Datum>>* statement_values_ = nullptr;
  // The vector statement `s` computes its new values into.
  std::vector<planner::Datum>& NewValuesBuffer(const planner::Stmt& s);
  std::vector<planner::Datum> returned_;       // scratch for Returning
  // An error raised in an ApplyRowUpdate callback that works on our frame, raised again
  // here once the update has been waited for.
  std::exception_ptr update_error_;
  // An EvalContext over the frame (and the accelerator).
  planner::EvalContext FrameContext() const;  // rows inserted, updated or deleted (a DML statement's tag)
  std::string pending_label_;  // the label of the EXIT/CONTINUE being propagated
  // The key compiled code computed for the statement being run (RunStatementWithKey).
  struct PresetKey {
    bool set = false;
    const engine::Key* key = nullptr;  // null: no row
  };
  PresetKey preset_key_;
  std::vector<uint32_t> identity_rows_;  // rows NextRowIdentity numbered, per statement id
  // A nested call's (Nest): its rows go to the caller, not to the client, and it never
  // publishes; the identities of its rows are numbered across the transaction's calls.
  bool nested_in_serial_ = false;
  int call_depth_ = 0;
  std::vector<std::vector<planner::Datum>>* call_results_ = nullptr;  // set: a nested call
  bool nested() const { return call_results_ != nullptr; }
  uint32_t* nested_identity_rows_ = nullptr;
  mutable uint32_t own_nested_identity_rows_ = 0;  // the transaction's count, when we are its procedure
  // The call's random() stream: seeded by the input's seed (a nested call's, by its
  // caller's stream), made on the first draw.
  mutable std::optional<planner::RandomDraws> draws_;
  planner::RandomDraws& Draws() const;
  // See KeptRangeRows.
  KeptRangeRows kept_range_;
  // RangeKeys of a serial IR, which declares no range.
  std::vector<engine::Key> serial_range_keys_;
  // The foreign-key work of this transaction's writes (made on its first write of a
  // table with foreign keys).
  std::optional<ForeignKeyChecks> foreign_keys_;
  ForeignKeyChecks& foreign_keys() {
    if (!foreign_keys_) foreign_keys_.emplace(*exec_, catalog_);
    return *foreign_keys_;
  }
  // Whether the rows `s` writes have foreign keys to check.
  static bool ChecksForeignKeys(const planner::Stmt& s) {
    return s.table != nullptr && !s.skips_foreign_keys && ForeignKeyChecks::Concerns(*s.table);
  }
  std::optional<engine::Key> PresetKeyValue() const { return preset_key_.key ? std::optional<engine::Key>(*preset_key_.key) : std::nullopt; }
};

}  // namespace caracal::codegen
