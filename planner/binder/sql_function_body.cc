#include "planner/binder/sql_function_body.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "planner/parser/fragment_parser.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool StartsWithKeyword(std::string_view text, std::string_view keyword) {
  if (text.size() < keyword.size()) return false;
  for (size_t i = 0; i < keyword.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != keyword[i]) return false;
  return text.size() == keyword.size() || !std::isalnum(static_cast<unsigned char>(text[keyword.size()]));
}

bool IsQuery(const PgQuery__Node* n) { return n->node_case == PG_QUERY__NODE__NODE_SELECT_STMT; }

bool IsWrite(const PgQuery__Node* n) {
  return n->node_case == PG_QUERY__NODE__NODE_INSERT_STMT || n->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
         n->node_case == PG_QUERY__NODE__NODE_DELETE_STMT;
}

bool Returns(const PgQuery__Node* n) {
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT: return n->insert_stmt->n_returning_list > 0;
    case PG_QUERY__NODE__NODE_UPDATE_STMT: return n->update_stmt->n_returning_list > 0;
    case PG_QUERY__NODE__NODE_DELETE_STMT: return n->delete_stmt->n_returning_list > 0;
    default: return false;
  }
}

// The one value of a SELECT of one unnamed expression and nothing else (SELECT $1 + 1),
// as text; empty for any other query.
std::string_view LoneExpression(const PgQuery__SelectStmt* s, std::string_view text) {
  if (s->n_from_clause || s->where_clause || s->n_group_clause || s->having_clause || s->n_sort_clause || s->limit_count ||
      s->limit_offset || s->n_distinct_clause || s->with_clause || s->n_values_lists || s->into_clause ||
      s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || s->n_target_list != 1)
    return {};
  const PgQuery__ResTarget* t = s->target_list[0]->res_target;
  if ((t->name && *t->name) || t->location < 0 || static_cast<size_t>(t->location) >= text.size()) return {};
  return text.substr(static_cast<size_t>(t->location));
}

// A statement whose result is not wanted.
std::string Discarded(const PgQuery__Node* n, std::string_view text) {
  if (IsQuery(n)) {
    if (StartsWithKeyword(text, "select")) return fmt::format("PERFORM{};", text.substr(6));
    return fmt::format("PERFORM * FROM ({}) AS caracal_sql_statement;", text);
  }
  if (IsWrite(n) && Returns(n))
    throw SqlError(sqlstate::kFeatureNotSupported,
                   "a write with RETURNING before the last statement of a SQL function is not supported yet");
  return fmt::format("{};", text);
}

}  // namespace

TranslatedSqlBody SqlBodyAsPlpgsql(std::string_view sql, const ProcedureIr& ir) {
  PgParse parse = PgParse::Parse(sql);
  if (!ir.out_variables.empty())
    throw SqlError(sqlstate::kFeatureNotSupported, "SQL functions with OUT parameters or RETURNS TABLE are not supported yet")
        .WithHint("Write the function in LANGUAGE plpgsql with RETURN QUERY.");
  for (size_t i = 0; i < parse.size(); ++i)
    if (!IsQuery(parse.statement(i)) && !IsWrite(parse.statement(i)))
      throw SqlError(sqlstate::kFeatureNotSupported,
                     "statements other than SELECT, VALUES, INSERT, UPDATE and DELETE in a SQL function are not supported yet");
  const bool returns_value =
      ir.kind == ProcedureIr::Kind::kFunction && ir.returns != ProcedureIr::Returns::kVoid && parse.size() > 0;
  if (ir.kind == ProcedureIr::Kind::kFunction && ir.returns != ProcedureIr::Returns::kVoid &&
      (parse.size() == 0 || !(IsQuery(parse.statement(parse.size() - 1)) || Returns(parse.statement(parse.size() - 1)))))
    throw SqlError(sqlstate::kInvalidFunctionDefinition, "return type mismatch in function declared to return " +
                                                             ir.result_columns.at(0).type.Name())
        .WithDetail("Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.");
  // A value-returning write's result variable comes first: one DECLARE line.
  const bool returns_from_write =
      returns_value && !IsQuery(parse.statement(parse.size() - 1)) && ir.returns == ProcedureIr::Returns::kScalar;
  TranslatedSqlBody out;
  std::string body;
  int line = returns_from_write ? 3 : 2;  // after DECLARE ... and BEGIN
  for (size_t i = 0; i < parse.size(); ++i) {
    const PgQuery__Node* n = parse.statement(i);
    std::string_view text = parse.statement_text(i);
    out.statement_lines.push_back(line);
    line += static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    if (!(returns_value && i + 1 == parse.size())) {
      body += Discarded(n, text) + "\n";
      continue;
    }
    if (ir.returns == ProcedureIr::Returns::kSetOf || ir.returns == ProcedureIr::Returns::kTable) {
      if (!IsQuery(n))
        throw SqlError(sqlstate::kFeatureNotSupported, "a SQL function returning a set from a write is not supported yet");
      body += fmt::format("RETURN QUERY {};\n", text);
    } else if (IsQuery(n)) {
      std::string_view lone = LoneExpression(n->select_stmt, text);
      body += lone.empty() ? fmt::format("RETURN (SELECT * FROM ({}) AS caracal_sql_result LIMIT 1);\n", text)
                           : fmt::format("RETURN {};\n", lone);
    } else {
      body += fmt::format("{} INTO caracal_sql_result; RETURN caracal_sql_result;\n", text);
    }
  }
  std::string declare =
      returns_from_write ? fmt::format("DECLARE caracal_sql_result {};\n", ir.result_columns.at(0).type.Name()) : "";
  out.plpgsql = declare + "BEGIN\n" + body + "END";
  return out;
}

}  // namespace caracal::planner
