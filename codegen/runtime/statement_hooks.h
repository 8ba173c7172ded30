// StatementHooks: what compiled procedure code needs from the environment it runs in.
//
// The JIT compiles a procedure's control flow, assignments, conditions, FOR/FOREACH/WHILE
// loops, EXIT/CONTINUE, RAISE, RETURN and point SELECT INTO natively; every other
// statement (table writes, other reads, RETURN NEXT/QUERY, and the init program's
// kDeclare/kReconRead) is handed to RunStatement on the same frame - in the product, the
// reference interpreter's statement runner (codegen/interpreter/procedure_interpreter.h), so the two share one
// implementation of table access.
#pragma once

#include <span>
#include <string>

#include "engine/types/key.h"
#include "engine/procedure/procedure.h"
#include "planner/types/datum.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

class StatementHooks {
 public:
  virtual ~StatementHooks() = default;
  // Runs `s` against the frame the compiled code runs on. Returns true if the statement
  // ended the body by RETURN: only one that holds others (IF, a loop) can, and compiled
  // code asks only after those; the leaves it hands over (table statements, RETURN
  // NEXT/QUERY, kDeclare/kReconRead) never end the body. Throws SqlError.
  virtual bool RunStatement(const planner::Stmt& s) = 0;
  // The same for a statement that addresses one row by its primary key, with the key the
  // compiled code computed (see PrecomputedKey in procedure_codegen.cc): `key` is that row's
  // key, or null when the key is NULL or out of its column's range (no row). The default
  // ignores it: the statement computes the same key itself.
  virtual bool RunStatementWithKey(const planner::Stmt& s, const engine::Key* key) { return RunStatement(s); }
  // An init kDeclare (`init`, standing for body statement `body`) whose point key the
  // compiled code computed: `key` null means no row (nothing is declared). The default
  // runs the kDeclare as RunStatementWithKey does.
  virtual void DeclareWithKey(const planner::Stmt& init, const planner::Stmt& body, const engine::Key* key) {
    (void)body;
    RunStatementWithKey(init, key);
  }
  // The DeclareContext an init program's one-call declarations (direct_declare.h) may go
  // to directly, bypassing DeclareWithKey; null (the default) when every declaration must
  // come through the hooks.
  virtual engine::DeclareContext* DirectDeclareContext() { return nullptr; }
  // The row a point SELECT INTO reads at the transaction's position (null: none), for
  // compiled code that copies the outputs itself. Only body statements.
  virtual const engine::RowValue* ReadRow(const planner::Stmt& s, const engine::Key& key) = 0;
  // RAISE NOTICE/WARNING/INFO (already formatted; the level prefix applied).
  virtual void Notice(std::string message) = 0;
  // The analysis' publish point (kPublish).
  virtual void Publish() = 0;
  // RETURN value of a function RETURNS <scalar> (already cast to the result type).
  virtual void Return(const planner::Datum& value) = 0;
  // The value of user function call `call` (a kRoutineCall) on `args`
  // (planner::RoutineRunner::Call).
  virtual planner::Datum CallRoutine(const planner::Expr& call, std::span<const planner::Datum> args) = 0;
  // random() at draw site `site` (planner::RoutineRunner::Random).
  virtual double Random(int site) = 0;
};

}  // namespace caracal::codegen
