#include "planner/exec/prepared_statement.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/binder/type_name.h"
#include "planner/expr/expr_eval.h"
#include "planner/parser/sql_tokens.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// Where the prepared statement starts: after the first AS outside parentheses.
size_t QueryStart(std::string_view text) {
  const std::string copy(text);
  int depth = 0;
  for (const SqlToken& t : ScanSql(copy)) {
    if (t.kind == PG_QUERY__TOKEN__ASCII_40) ++depth;
    if (t.kind == PG_QUERY__TOKEN__ASCII_41) --depth;
    if (depth == 0 && t.kind == PG_QUERY__TOKEN__AS) return static_cast<size_t>(t.end);
  }
  throw SqlError(sqlstate::kSyntaxError, "syntax error in PREPARE: no AS before the statement");
}

std::string Quoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

}  // namespace

PreparedStatement Prepare(const PgQuery__PrepareStmt* stmt, std::string_view text, const Catalog* catalog) {
  PreparedStatement p;
  p.name = stmt->name ? stmt->name : "";
  std::string query(text.substr(QueryStart(text)));
  while (!query.empty() && (query.back() == ';' || std::isspace(static_cast<unsigned char>(query.back())))) query.pop_back();
  const size_t first = query.find_first_not_of(" \t\r\n");
  p.text = first == std::string::npos ? std::string() : query.substr(first);
  p.slots = FindParameters(p.text);
  for (size_t i = 0; i < stmt->n_argtypes; ++i) {
    const PgQuery__Node* t = stmt->argtypes[i];
    if (t->node_case != PG_QUERY__NODE__NODE_TYPE_NAME) throw NotSupported("this parameter type in PREPARE");
    p.types.push_back(ResolveTypeName(t->type_name, catalog));
  }
  int highest = 0;
  for (const ParameterSlot& s : p.slots) highest = std::max(highest, s.number);
  if (highest > static_cast<int>(p.types.size())) p.types.resize(static_cast<size_t>(highest), SqlType{});
  return p;
}

std::string ExecuteText(const PreparedStatement& prepared, const PgQuery__ExecuteStmt* stmt) {
  if (stmt->n_params != prepared.types.size())
    throw SqlError(sqlstate::kSyntaxError, fmt::format("wrong number of parameters for prepared statement \"{}\"", prepared.name))
        .WithDetail(fmt::format("Expected {} parameters but got {}.", prepared.types.size(), stmt->n_params));
  std::vector<std::string> literals;
  SnapshotRoutines random;  // an argument's random(): its value is substituted, not replayed
  EvalContext ctx;
  ctx.routines = &random;
  for (size_t i = 0; i < stmt->n_params; ++i) {
    ExprBinder binder(nullptr);
    ExprPtr e = binder.Bind(stmt->params[i]);
    const SqlType& type = prepared.types[i];
    if (type.id == TypeId::kUnknown) {
      // Typed by where the statement uses it, as an untyped literal is.
      if (e->kind == ExprKind::kConst && e->type.id == TypeId::kUnknown) {
        literals.push_back(e->value.is_null() ? "NULL" : Quoted(e->value.s));
        continue;
      }
    } else {
      e = Coerce(std::move(e), type, CastContext::kAssignment);
    }
    const Datum v = Eval(*e, ctx);
    const std::string cast = "::" + e->type.Name();
    literals.push_back("(" + (v.is_null() ? std::string("NULL") : Quoted(DatumToText(v, e->type))) + cast + ")");
  }
  std::string out;
  size_t at = 0;
  for (const ParameterSlot& s : prepared.slots) {
    out.append(prepared.text, at, static_cast<size_t>(s.start) - at);
    out += literals.at(static_cast<size_t>(s.number - 1));
    at = static_cast<size_t>(s.end);
  }
  out.append(prepared.text, at);
  return out;
}

ParseTree ParseExecuteText(const std::string& text) {
  ParseTree tree = ParseTree::Parse(text);
  if (tree.statements().size() != 1) throw SqlError(sqlstate::kSyntaxError, "a prepared statement holds one statement");
  return tree;
}

SqlError PreparedStatementExists(const std::string& name) {
  return SqlError("42P05", fmt::format("prepared statement \"{}\" already exists", name));
}

SqlError PreparedStatementMissing(const std::string& name) {
  return SqlError("26000", fmt::format("prepared statement \"{}\" does not exist", name));
}

}  // namespace caracal::planner
