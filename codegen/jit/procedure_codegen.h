// The procedure compiler: ProcedureIr::body and ProcedureIr::init -> two native functions,
// and the table statements' expressions -> switch functions, in one module per compile
// thread of the JIT (one JITDylib: dropping the ProcedureCode frees them all).
//
// Each function runs on a frame of Datums (the interpreter's Frame::vars) and first
// evaluates the DECLARE defaults (as the interpreter's InitializeLocals), then its
// statements. Compiled natively: kAssign (with the interpreter's cast-on-assign and NOT
// NULL check), kIf, kForRange, kForEach, kWhile, kExit/kContinue (labels resolved at
// compile time), kRaise, kReturn, kPublish, kNull, and a point SELECT INTO with an integer
// key (the hooks only read the row: StatementHooks::ReadRow). Everything else goes to
// StatementHooks::RunStatement / RunStatementWithKey.
// Semantics are the interpreter's (codegen/interpreter/procedure_interpreter.cc), errors included.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codegen/runtime/eval_state.h"
#include "codegen/jit/expr_codegen.h"
#include "codegen/jit/jit.h"
#include "codegen/runtime/statement_hooks.h"
#include "engine/storage/database.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

// How a compiled block ended.
enum class BlockEnd : int32_t {
  kEnd = 1,       // fell off the end (or RETURN without a value)
  kReturned = 2,  // RETURN with a value: StatementHooks::Return was called
};

class ProcedureCode {
 public:
  // Compiles `ir` (which must outlive the result: the code points at its statements).
  // Throws SqlError XX000 if the IR holds something the compiler does not handle.
  // With `db`, the expressions of the table statements (keys, new values, filters, query
  // outputs) are compiled too, as functions ExprCode() finds (`db` gives the schemas of
  // the rows they read).
  static std::unique_ptr<ProcedureCode> Compile(Jit& jit, const planner::ProcedureIr& ir,
                                                const CompileOptions& options = {}, const engine::Database* db = nullptr);

  // Run the body / the init program on `frame` (ir.variables.size() Datums). Throw what
  // the procedure raises (SqlError), as the interpreter does.
  // `temps`, when given, is a buffer the caller keeps from run to run for the function's
  // scratch temps (reset to NULL here, keeping their strings' capacity); without it a run
  // allocates its own.
  BlockEnd RunBody(std::vector<planner::Datum>& frame, StatementHooks& hooks,
                   std::vector<planner::Datum>* temps = nullptr) const;
  BlockEnd RunInit(std::vector<planner::Datum>& frame, StatementHooks& hooks,
                   std::vector<planner::Datum>* temps = nullptr) const;

  double compile_ms() const { return module_->compile_ms(); }
  double optimize_ms() const { return module_->optimize_ms(); }
  const std::string& ir_text() const { return module_->ir(); }
  int temps() const { return temps_; }

  // The compiled code of table-statement expression `e`: its case number, -1 if none.
  int32_t FindExpr(const planner::Expr* e) const {
    auto it = exprs_.find(e);
    return it == exprs_.end() ? -1 : it->second;
  }
  // Evaluates case `which` into `out`: 1, or 0 with the error in state->error.
  int32_t RunExpr(int32_t which, EvalState* state, planner::Datum* out) const {
    return case_fns_[static_cast<size_t>(which)](state, out, which);
  }
  int expr_temps() const { return expr_temps_; }
  size_t compiled_exprs() const { return exprs_.size(); }

  // A write statement's expressions, each with its case (-1: not compiled), so a row
  // costs one lookup, not one per expression.
  struct CaseList {
    std::vector<const planner::Expr*> exprs;
    std::vector<int32_t> cases;
  };
  struct StatementCases {
    CaseList filter;     // the residual WHERE, if any
    CaseList values;     // UPDATE assignments in order, or the INSERT VALUES row
    CaseList returning;  // RETURNING
    // The compiled row write (row_writes.h): an UPDATE's patch of a copy of the row, or
    // an INSERT's row build; -1 if none.
    int32_t row_write = -1;
    // RETURNING ... INTO compiled whole: the case that evaluates the RETURNING list over
    // the written row and assigns the INTO variables; -1 if none.
    int32_t returning_into = -1;
  };
  // nullptr if `s` is not an INSERT, UPDATE or DELETE of a procedure with compiled
  // expressions.
  const StatementCases* CasesOf(const planner::Stmt& s) const {
    // By the statement's id (table statement k is at k - 1): looked up on every row write.
    const auto k = static_cast<size_t>(s.id - 1);
    if (s.id < 1 || k >= statement_cases_.size() || statement_cases_[k].first != &s) return nullptr;
    return &statement_cases_[k].second;
  }

 private:
  using Fn = int32_t (*)(EvalState*);
  BlockEnd Run(Fn fn, std::vector<planner::Datum>& frame, StatementHooks& hooks,
               std::vector<planner::Datum>* temps) const;

  const planner::ProcedureIr* ir_ = nullptr;  // for the CONTEXT of an error
  std::unique_ptr<ConstantPool> constants_;
  std::unique_ptr<CompiledModule> module_;
  Fn body_ = nullptr;
  Fn init_ = nullptr;
  int temps_ = 0;
  // Each compiled expression's case in caracal_exprs_<k>(state, out, case).
  using ExprsFn = int32_t (*)(EvalState*, planner::Datum*, int32_t);
  std::unordered_map<const planner::Expr*, int32_t> exprs_;
  // Index: table statement id - 1; the statement is null where it has no cases.
  std::vector<std::pair<const planner::Stmt*, StatementCases>> statement_cases_;
  // Index: case; the function (of whichever module) that has it.
  std::vector<ExprsFn> case_fns_;
  int expr_temps_ = 0;
};

}  // namespace caracal::codegen
