// Triggers woven into the statements of a write (CREATE TRIGGER; planner/README.md,
// "Triggers"). Private to planner/binder.
//
// A trigger function is bound for the table (binder/procedure_binder.h,
// BindTriggerFunction) into a procedure over NEW's and OLD's columns, and each firing is
// a call of it in the statement's own transaction, at its serial position: the IR the
// write-set analysis, the interpreter and the JIT already know (a CALL with INOUT
// parameters). A row's values live in hidden variables around the write:
//
//   new_c := <the row's values>                 (INSERT: its VALUES; UPDATE: SET or old)
//   skip := false
//   IF <WHEN> AND NOT skip THEN r := f(new, old, TG_...); skip := r[n + 1];
//                              IF NOT skip THEN new_c := r[c] END IF END IF     -- BEFORE ROW, by name
//   IF NOT skip THEN <the write of new_c>; IF <WHEN> THEN f(new, old, ...) ... END IF  -- AFTER ROW
//   ELSE ROW_COUNT := 0 (FOUND := false) END IF
//
// Statement triggers are calls before the statement's first and after its last
// statement, with NEW and OLD NULL.
#pragma once

#include <string>
#include <vector>

#include "planner/binder/table_statement_binder.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

class TriggerWeaver {
 public:
  // `variables`: the names the WHEN conditions' NEW and OLD may not shadow (the
  // procedure's scope; may be null).
  TriggerWeaver(const Catalog& catalog, const TableInfo& table, DmlLoopHost& host, const NameScope* variables)
      : catalog_(catalog), table_(table), host_(host), variables_(variables) {}

  // Hidden variables for a row image: one per column of the table.
  std::vector<int> RowVariables(const char* prefix);
  // A bool variable holding false, set (assignment appended to `out`).
  int NewSkipVariable(Block& out);

  // The BEFORE ROW triggers of `event` (for UPDATE, of a statement that SETs `set`),
  // called in name order on the row in `new_row` / `old_row`, each assigning `new_row`
  // and `skip` from what it returns; a trigger after one that returned NULL does not run.
  void BeforeRow(TriggerInfo::Event event, const std::vector<std::string>& set, const std::vector<int>& new_row,
                 const std::vector<int>& old_row, int skip, Block& out);
  // The AFTER ROW triggers of `event`, called on the row as written.
  void AfterRow(TriggerInfo::Event event, const std::vector<std::string>& set, const std::vector<int>& new_row,
                const std::vector<int>& old_row, Block& out);
  // The statement triggers of `event` that fire BEFORE (`before`) or AFTER it.
  void Statement(bool before, TriggerInfo::Event event, const std::vector<std::string>& set, Block& out);

  // `IF NOT skip THEN then ELSE <ROW_COUNT := 0, FOUND := false> END IF`.
  StmtPtr UnlessSkipped(int skip, Block then);

 private:
  // The call of trigger `t` on the row (empty rows: NULL), assigned to a new variable;
  // returns that variable.
  int Call(const TriggerInfo& t, TriggerInfo::Event event, const std::vector<int>& new_row, const std::vector<int>& old_row,
           Block& out);
  // `t`'s WHEN condition over the row, or null if it has none.
  ExprPtr When(const TriggerInfo& t, const std::vector<int>& new_row, const std::vector<int>& old_row);
  std::shared_ptr<const ProcedureIr> Routine(const TriggerInfo& t);

  const Catalog& catalog_;
  const TableInfo& table_;
  DmlLoopHost& host_;
  const NameScope* variables_;
  std::map<std::string, std::shared_ptr<const ProcedureIr>> routines_;  // by function name
};

// The INSERTs in `block` (and in the statements it holds) into tables with row INSERT
// triggers, each replaced by itself with its triggers around it (see above).
void WeaveInsertTriggers(Block& block, const Catalog& catalog, DmlLoopHost& host, const NameScope* variables);

// `statements` (a whole write of `table`) between its BEFORE and AFTER statement triggers.
std::vector<StmtPtr> WithStatementTriggers(std::vector<StmtPtr> statements, TriggerInfo::Event event,
                                           const std::vector<std::string>& set, const TableInfo& table,
                                           const Catalog& catalog, DmlLoopHost* host, const NameScope* variables);

}  // namespace caracal::planner
