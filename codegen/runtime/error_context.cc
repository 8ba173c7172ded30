#include "codegen/runtime/error_context.h"

#include <fmt/format.h>

#include <algorithm>

namespace caracal::codegen {

namespace {

using planner::ProcedureIr;
using planner::SqlError;

bool Wanted(const SqlError& e, const ProcedureIr& ir) { return (e.context().empty() || e.left_call()) && !ir.is_ad_hoc_dml(); }

}  // namespace

void AddStatementContext(SqlError& e, const ProcedureIr& ir, const planner::Stmt& s) {
  if (!Wanted(e, ir) || s.plpgsql_what.empty()) return;
  if (ir.is_sql_function()) {
    // PostgreSQL names the statement of a SQL function, not a line or the SQL.
    const auto after = std::upper_bound(ir.sql_statement_lines.begin(), ir.sql_statement_lines.end(), s.line);
    e.AppendContext(fmt::format("SQL function \"{}\" statement {}", ir.name, std::max<long>(1, after - ir.sql_statement_lines.begin())));
    return;
  }
  std::string context;
  if (!s.sql_context.empty() && !e.plpgsql_level()) context = s.sql_context + "\n";
  else if (!s.sql_text.empty() && !e.plpgsql_level()) context = fmt::format("SQL statement \"{}\"\n", s.sql_text);
  context += fmt::format("PL/pgSQL function {} line {} {}", ir.ContextSignature(), s.line, s.plpgsql_what);
  e.AppendContext(context);
}

void AddLocalsContext(SqlError& e, const ProcedureIr& ir, const planner::Variable& v) {
  if (!Wanted(e, ir)) return;
  e.AppendContext(fmt::format("PL/pgSQL function {} line {} during statement block local variable initialization",
                              ir.ContextSignature(), v.line));
}

void AddReturnCastContext(SqlError& e, const ProcedureIr& ir) {
  if (!Wanted(e, ir)) return;
  e.AppendContext(
      fmt::format("PL/pgSQL function {} while casting return value to function's return type", ir.ContextSignature()));
}

void AddCompiledContext(SqlError& e, const ProcedureIr& ir, const void* where_at, ErrorWhere where) {
  const auto* s = static_cast<const planner::Stmt*>(where_at);
  switch (where) {
    case ErrorWhere::kLocals:
      if (where_at != nullptr) AddLocalsContext(e, ir, *static_cast<const planner::Variable*>(where_at));
      return;
    case ErrorWhere::kReturnCast: return AddReturnCastContext(e, ir);
    case ErrorWhere::kPlpgsql:
      e.AtPlpgsqlLevel();
      [[fallthrough]];
    case ErrorWhere::kStatement:
      if (s != nullptr) AddStatementContext(e, ir, *s);
      return;
  }
}

}  // namespace caracal::codegen
