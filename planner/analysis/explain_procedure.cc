#include "planner/analysis/explain_procedure.h"

#include <fmt/format.h>

#include "planner/analysis/expr_render.h"
#include "planner/analysis/routine_calls.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

std::string AccessText(AccessInfo::Access access) {
  switch (access) {
    case AccessInfo::Access::kRead: return "read";
    case AccessInfo::Access::kReadPrefetch: return "read_prefetch";
    case AccessInfo::Access::kInsert: return "insert";
    case AccessInfo::Access::kUpsert: return "upsert";
    case AccessInfo::Access::kUpdate: return "update";
    case AccessInfo::Access::kDelete: return "delete";
    case AccessInfo::Access::kRangeUpdate: return "range_update";
    case AccessInfo::Access::kRangeDelete: return "range_delete";
  }
  return "?";
}

std::string KeyClassText(AccessInfo::KeyClass key_class) {
  switch (key_class) {
    case AccessInfo::KeyClass::kStatic: return "static";
    case AccessInfo::KeyClass::kLoop: return "loop";
    case AccessInfo::KeyClass::kRange: return "range";
    case AccessInfo::KeyClass::kDependent: return "dependent";
  }
  return "?";
}

namespace {

// A "call" row for each user function `e` calls, followed by the called function's own
// rows (what it reads and writes at the caller's serial position), marked as its.
void AddCallRows(const Expr& e, int line, const RenderNames& names, std::vector<WriteSetRow>& rows) {
  if (e.kind != ExprKind::kRoutineCall) {
    for (const auto& a : e.args) AddCallRows(*a, line, names, rows);
    return;
  }
  for (const auto& a : e.args) AddCallRows(*a, line, names, rows);
  const ProcedureIr& callee = *e.routine;
  WriteSetRow call;
  call.line = line;
  call.access = "call";
  call.key_expr = RenderExpr(e, names);
  call.note = TouchesTables(callee) ? fmt::format("{} runs at the caller's serial position; its accesses follow", callee.Signature())
                                    : fmt::format("{} touches no table", callee.Signature());
  rows.push_back(std::move(call));
  for (WriteSetRow r : AnalysisRows(callee)) {
    if (r.access == "publish") continue;  // a called function's publish point is its caller's
    r.statement.reset();
    r.apply_row_update = false;  // a called function's updates are plain ones
    r.weight = 0;
    if (r.access == "nextval" && r.key_class == "static") {
      r.key_class = "live";
      r.note = "drawn as the call starts";
    }
    r.access = "  " + r.access;
    r.note = fmt::format("in {}{}{}", callee.Signature(), r.note.empty() ? "" : ": ", r.note);
    rows.push_back(std::move(r));
  }
}

}  // namespace

std::vector<WriteSetRow> AnalysisRows(const ProcedureIr& ir) {
  std::vector<WriteSetRow> rows;
  RenderNames names;
  names.variable = [&](int slot) { return ir.variables[slot].name; };
  for (const SequenceCall& c : ir.sequence_calls) {
    WriteSetRow r;
    std::string name = RenderExpr(*c.sequence_name, names);
    r.table = c.sequence_name->kind == ExprKind::kConst && !c.sequence_name->value.is_null() ? c.sequence_name->value.s : "";
    r.access = "nextval";
    r.key_class = "static";
    r.key_expr = fmt::format("nextval({})", name);
    r.note = "drawn when the call is sequenced, in submission order";
    rows.push_back(std::move(r));
  }
  if (ir.is_serial()) {
    WriteSetRow r;
    r.access = "serial";
    r.key_class = "solo_epoch";
    r.note = fmt::format("writes are found as the call runs, alone in its epoch (one call per epoch): {}",
                         ir.serial_reason);
    rows.push_back(std::move(r));
  }
  for (const Variable& v : ir.variables)
    if (v.default_value) AddCallRows(*v.default_value, v.line, names, rows);
  ForEachStmt(ir.body, [&](const Stmt& s) {
    for (int i : s.draws) {
      const SequenceCall& c = ir.live_sequence_calls[static_cast<size_t>(i)];
      WriteSetRow r;
      r.line = s.line;
      r.table = c.sequence_name->kind == ExprKind::kConst && !c.sequence_name->value.is_null() ? c.sequence_name->value.s : "";
      r.access = "nextval";
      r.key_class = "live";
      r.key_expr = fmt::format("nextval({})", RenderExpr(*c.sequence_name, names));
      r.note = "drawn as its statement starts";
      rows.push_back(std::move(r));
    }
    ForEachOwnExpr(s, [&](const Expr& e) { AddCallRows(e, s.line, names, rows); });
    if (s.kind == StmtKind::kPublish) {
      WriteSetRow r;
      r.line = s.line;
      r.access = "publish";
      r.note = "no statement from here on can fail: later writes are visible at once";
      rows.push_back(std::move(r));
      return;
    }
    if (!s.access || s.id < 1 || (!s.table && !s.query)) return;
    const AccessInfo& a = *s.access;
    WriteSetRow r;
    r.statement = s.id;
    r.line = s.line;
    r.table = s.table ? s.table->name : TableNamesRead(*s.query);
    r.access = AccessText(a.access);
    r.key_class = KeyClassText(a.key_class);
    r.key_expr = a.key_expr;
    r.apply_row_update = a.apply_row_update;
    r.weight = a.weight;
    r.note = a.note;
    if (ir.is_serial() && a.key_class == AccessInfo::KeyClass::kDependent)
      r.note = "key known only as the call runs: declared as it is written";
    rows.push_back(std::move(r));
  });
  return rows;
}

ResultSet ExplainProcedure(const Catalog& catalog, std::string_view name) {
  std::vector<std::shared_ptr<const ProcedureIr>> found = catalog.FindProcedures(name);
  if (found.empty()) {
    if (const PendingRoutine* pending = catalog.FindPendingRoutine(name))
      throw SqlError(pending->error.sqlstate(), pending->error.what())
          .WithDetail(fmt::format("\"{}\" is not analysed yet: it names something that did not exist when it was "
                                  "created, and is bound once that exists.", name))
          .WithContext(pending->error.context());
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function or procedure \"{}\" does not exist", name));
  }
  const SqlType text = SqlType::Of(TypeId::kText), integer = SqlType::Of(TypeId::kInt4);
  ResultSet out;
  out.columns = {{"procedure", text}, {"statement", integer}, {"line", integer},   {"table", text},
                 {"access", text},    {"key_class", text},   {"key", text},       {"apply_row_update", SqlType::Of(TypeId::kBool)},
                 {"weight", integer}, {"note", text}};
  for (const auto& ir : found) {
    for (const WriteSetRow& r : AnalysisRows(*ir)) {
      std::vector<std::optional<std::string>> row;
      row.push_back(ir->Signature());
      row.push_back(r.statement ? std::optional<std::string>(std::to_string(*r.statement)) : std::nullopt);
      row.push_back(r.line > 0 ? std::optional<std::string>(std::to_string(r.line)) : std::nullopt);
      row.push_back(r.table.empty() ? std::nullopt : std::optional<std::string>(r.table));
      row.push_back(r.access);
      row.push_back(r.key_class.empty() ? std::nullopt : std::optional<std::string>(r.key_class));
      row.push_back(r.key_expr.empty() ? std::nullopt : std::optional<std::string>(r.key_expr));
      row.push_back(std::string(r.apply_row_update ? "t" : "f"));
      row.push_back(std::to_string(r.weight));
      row.push_back(r.note.empty() ? std::nullopt : std::optional<std::string>(r.note));
      out.rows.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace caracal::planner
