// The write-set analysis (README.md, "Write-set analysis"): the passes, in order, each
// in its own file:
//   0. number the random() draw sites (draw_sites.h);
//   1. hoist nextval() to sequencing time (sequence_hoisting.h);
//   2. find the read-derived variables (read_taint.h);
//   3. classify every table statement (statement_classification.h);
//   4. build the init program (init_program.h);
//   5. place the publish point (publish_point.h);
//   6. mark range queries whose rows the range write after them can reuse (here).
#include "planner/analysis/write_set_analysis.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/analysis/draw_sites.h"
#include "planner/analysis/init_program.h"
#include "planner/binder/check_constraints.h"
#include "planner/binder/generated_columns.h"
#include "planner/analysis/publish_point.h"
#include "planner/analysis/read_taint.h"
#include "planner/analysis/routine_calls.h"
#include "planner/analysis/sequence_hoisting.h"
#include "planner/analysis/statement_classification.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

// Sets Stmt::feeds_range_write of a range query directly followed by a range write of
// its table, in every block.
void MarkRangeReadsBeforeRangeWrites(Block& block) {
  for (size_t i = 0; i < block.size(); ++i) {
    Stmt& s = *block[i];
    for (Block& b : s.blocks) MarkRangeReadsBeforeRangeWrites(b);
    MarkRangeReadsBeforeRangeWrites(s.else_block);
    MarkRangeReadsBeforeRangeWrites(s.body);
    if (s.kind != StmtKind::kSelectInto || s.point_lookup || !s.select || s.select->table == nullptr ||
        s.select->access.kind != AccessPath::Kind::kRangeScan || i + 1 == block.size())
      continue;
    const Stmt& next = *block[i + 1];
    if ((next.kind == StmtKind::kUpdate || next.kind == StmtKind::kDelete) && next.table == s.select->table &&
        next.where_key.kind == KeyAccess::Kind::kRange)
      s.feeds_range_write = next.id;
  }
}

namespace {

// Why the statements' foreign-key actions make the procedure serial: a DELETE of (or an
// UPDATE of the referenced columns of) a row that a foreign key with ON DELETE / ON
// UPDATE CASCADE, SET NULL or SET DEFAULT references writes the referencing rows, which
// are found only as the call runs. Empty if none does.
std::string WhyForeignKeyActionsAreSerial(const ProcedureIr& ir) {
  std::string why;
  ForEachStmt(ir.body, [&](const Stmt& s) {
    if (!why.empty() || s.table == nullptr || s.skips_foreign_keys) return;
    const bool deletes = s.kind == StmtKind::kDelete;
    for (const ReferencingKey& r : s.table->referenced_by) {
      const ForeignKey& k = *r.key;
      bool hits = deletes && k.on_delete != ForeignKey::Action::kNoAction && k.on_delete != ForeignKey::Action::kRestrict;
      if (!deletes && k.on_update != ForeignKey::Action::kNoAction && k.on_update != ForeignKey::Action::kRestrict)
        for (const auto& [c, e] : s.assignments)
          hits = hits || std::ranges::find(k.referenced_columns, c) != k.referenced_columns.end();
      if (hits) {
        why = fmt::format("the {} of line {} makes foreign key {} of table {} write the rows that reference it",
                          deletes ? "DELETE" : "UPDATE", s.line, k.name, r.table->name);
        return;
      }
    }
  });
  return why;
}

// The init program runs before the epoch, where a function body that reads tables cannot
// (its reads belong at the serial position): one it would have to call means the write
// set is known only as the call runs.
void RequireInitProgramReadsNothing(const ProcedureIr& ir) {
  ForEachStmt(ir.init, [&](const Stmt& s) {
    ForEachOwnExpr(s, [&](const Expr& e) {
      if (!CallsTableRoutine(e)) return;
      throw AtLine(NotSupported("a write whose key depends on a user function that reads tables")
                       .WithDetail("The init program would have to call it before the call runs."),
                   ir, s.line);
    });
  });
}

}  // namespace

void AnalyzeProcedure(ProcedureIr& ir, const Catalog& catalog) {
  // The trigger functions its writes call, first: a call looks at what its callee does.
  for (const std::shared_ptr<ProcedureIr>& routine : ir.trigger_routines) AnalyzeProcedure(*routine, catalog);
  NumberDrawSites(ir);
  // now() in a called function is the transaction's: the caller draws it at sequencing.
  bool callee_reads_now = false;
  ForEachRoutineCall(ir, [&](const Expr& call) { callee_reads_now = callee_reads_now || call.routine->now_variable >= 0; });
  if (callee_reads_now) ir.NowVariable();
  HoistSequenceCalls(ir);
  if (!ir.is_serial()) ir.serial_reason = WhyRoutineCallsAreSerial(ir);
  if (!ir.is_serial()) ir.serial_reason = WhyForeignKeyActionsAreSerial(ir);
  // Generated columns, then CHECK constraints (which may read them), over the drawn
  // sequence values rather than the nextval() calls.
  ForEachStmt(ir.body, [](Stmt& s) {
    ComputeGeneratedColumns(s);
    GuardStatement(s);
  });
  Taint taint(ir);
  ClassifyStatements(ir, taint, catalog);
  if (!ir.is_serial()) {
    try {
      BuildInitProgram(ir, taint);
      RequireInitProgramReadsNothing(ir);
    } catch (const SqlError& e) {
      // What no init program can find before the call runs, the call finds as it runs,
      // alone in its epoch.
      if (e.sqlstate() != sqlstate::kFeatureNotSupported) throw;
      std::string why = e.what();
      for (std::string_view suffix : {" is not supported yet", " are not supported yet"})
        if (why.ends_with(suffix)) why.resize(why.size() - suffix.size());
      ir.serial_reason = e.detail().empty() ? why : why + " (" + e.detail() + ")";
      ir.init.clear();
    }
  }
  PlacePublish(ir);
  MarkRangeReadsBeforeRangeWrites(ir.body);
}

}  // namespace caracal::planner
