// The init program's own statements: kDeclare (the write set of one body statement, for
// the current values of the frame) and kReconRead (a body read run against the last
// committed state). See planner/README.md, "Analysis", for when the planner emits them.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/runtime/direct_declare.h"
#include "codegen/runtime/engine_row_sources.h"
#include "codegen/runtime/table_access.h"
#include "engine/storage/table.h"
#include "planner/plan/access_path.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::AccessInfo;
using planner::Datum;
using planner::EvalContext;
using planner::Stmt;

namespace {

const Stmt& BodyStatement(const planner::ProcedureIr& ir, int id) {
  if (const Stmt* s = ir.TableStatement(id)) return *s;
  throw planner::SqlError("XX000", fmt::format("internal error: no table statement {} in {}", id, ir.name));
}

// The key of `columns` from per-column expressions (nullptr: unknown); nullopt when a
// value is unknown, NULL or not encodable: that entry or key is then not declared, and
// the body's own checks report what is wrong.
std::optional<engine::Key> KeyFrom(const planner::TableInfo& table, const std::vector<int>& columns,
                           const std::vector<const planner::Expr*>& exprs, const EvalContext& ctx) {
  engine::Key key;
  for (int c : columns) {
    const planner::Expr* e = exprs[c];
    if (e == nullptr || e->References(planner::SlotSpace::kColumn)) return std::nullopt;
    Datum v = planner::Eval(*e, ctx);
    if (v.is_null() || !planner::AppendKeyValue(key, v, table.columns[c])) return std::nullopt;
  }
  return key;
}

// The row an INSERT proposes, one expression per column.
std::vector<const planner::Expr*> InsertedValues(const Stmt& s) {
  std::vector<const planner::Expr*> values(s.table->columns.size(), nullptr);
  for (size_t c = 0; c < s.row_values.size(); ++c) values[c] = s.row_values[c].get();
  return values;
}

// Expressions that give each column's new value, where statement `s` fixes it.
std::vector<const planner::Expr*> FixedValues(const Stmt& s) {
  std::vector<const planner::Expr*> values(s.table->columns.size(), nullptr);
  for (size_t c = 0; c < s.row_values.size(); ++c) values[c] = s.row_values[c].get();
  for (const auto& [col, e] : s.assignments) values[col] = e.get();
  return values;
}

}  // namespace

void ProcedureInterpreter::RunDeclare(const Stmt& init_stmt) {
  const Stmt& s = BodyStatement(ir_, init_stmt.target_stmt);
  if (declare_observer_) declare_observer_(s);
  const planner::TableInfo& table = *s.table;
  const AccessInfo& access = *s.access;
  switch (access.access) {
    case AccessInfo::Access::kRead: return;
    case AccessInfo::Access::kReadPrefetch: {
      if (s.select) {
        if (std::optional<engine::Key> key = ReadKeyOf(s)) DeclarePoint(s, *key);
      } else if (std::optional<engine::Key> computed; const engine::Key* key = WhereKeyOf(s, computed)) {
        DeclarePoint(s, *key);
      }
      return;
    }
    case AccessInfo::Access::kInsert:
    case AccessInfo::Access::kUpsert: {
      if (table.HasRowIdentity()) {
        DeclarePoint(s, planner::RowIdentityKey(NextRowIdentity(s, declare_->serial_id(), declare_->block_part())));
        return;
      }
      if (std::optional<engine::Key> key = preset_key_.set ? PresetKeyValue() : KeyFrom(table, table.primary_key, FixedValues(s), FrameContext()))
        DeclarePoint(s, *key);
      return;
    }
    case AccessInfo::Access::kUpdate:
    case AccessInfo::Access::kDelete: {
      if (std::optional<engine::Key> computed; const engine::Key* key = WhereKeyOf(s, computed)) DeclarePoint(s, *key);
      return;
    }
    case AccessInfo::Access::kRangeUpdate:
    case AccessInfo::Access::kRangeDelete: {
      EvalContext ctx = FrameContext();
      std::optional<KeySpan> span = RangeSpan(table, table.primary_key, s.where_key, ctx);
      if (!span) return;
      int id = declare_->DeclareRange(table.id, span->lo, span->hi,
                                      access.access == AccessInfo::Access::kRangeDelete ? engine::RangeKind::kDelete
                                                                                         : engine::RangeKind::kUpdate);
      (void)id;  // ids follow declaration order, which the scratch record keeps
      RecordDeclaredRange(declare_->scratch(), s.id, span->lo, span->hi);
      DeclareUnknownIndexes(s, span->lo, span->hi);
      return;
    }
  }
}

void ProcedureInterpreter::DeclareUnknownIndexes(const Stmt& s, const engine::Key& lo, const engine::Key& hi) {
  for (const std::string& name : s.access->unknown_indexes)
    if (const planner::IndexInfo* index = catalog_.FindIndex(name))
      declare_->DeclareIndexUnknown(s.table->id, index->engine_index, lo, hi);
}

void ProcedureInterpreter::DeclareWithKey(const Stmt& body, const engine::Key& key) {
  if (declare_observer_) declare_observer_(body);
  DeclarePoint(body, key);
}

void ProcedureInterpreter::DeclarePoint(const Stmt& s, const engine::Key& key) {
  const planner::TableInfo& table = *s.table;
  const AccessInfo& access = *s.access;
  const DirectDeclare how = RowDeclarationOf(s);
  if (how == DirectDeclare::kNone)
    throw planner::SqlError("XX000", fmt::format("internal error: statement {} is not a point access", s.id));
  if (!DeclareDirect(*declare_, how, s, key)) return;  // an insert declared before: its entries too
  if (!DeclaresIndexEntries(how, table)) return;
  // The secondary-index entries the statement writes, where their keys are fixed by the
  // statement's values (only an INSERT or an UPDATE of an indexed column has any); those
  // the analysis found it cannot name are declared unknown.
  if (!access.unknown_indexes.empty()) DeclareUnknownIndexes(s, key, PointSpanEnd(key));
  std::optional<std::vector<const planner::Expr*>> values;  // computed for the first touched index
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    if (std::find(access.unknown_indexes.begin(), access.unknown_indexes.end(), table.indexes[i]) !=
        access.unknown_indexes.end())
      continue;
    const planner::IndexInfo* index = catalog_.FindIndex(table.indexes[i]);
    if (index == nullptr) continue;
    bool touched = s.kind == planner::StmtKind::kInsert;
    for (const auto& [col, e] : s.assignments)
      for (int c : index->columns) touched |= c == col;
    if (!touched) continue;
    // An INSERT's entry comes from its row (a DO UPDATE that changes the index's
    // columns made the index unknown above).
    if (!values) values = s.kind == planner::StmtKind::kInsert ? InsertedValues(s) : FixedValues(s);
    if (std::optional<engine::Key> ik = KeyFrom(table, index->columns, *values, FrameContext()))
      declare_->DeclareIndexEntry(table.id, index->engine_index, *ik, key);
  }
}

void ProcedureInterpreter::RunReconRead(const Stmt& init_stmt) {
  const Stmt& s = BodyStatement(ir_, init_stmt.target_stmt);
  if (declare_observer_) declare_observer_(s);
  CommittedRowSource source(*declare_);
  source.routines = this;
  SelectInto(s, source);
}

}  // namespace caracal::codegen
