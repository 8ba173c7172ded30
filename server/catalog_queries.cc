#include "server/catalog_queries.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <algorithm>
#include <cctype>
#include <functional>

#include <fmt/format.h>

#include "planner/parser/sql_tokens.h"
#include "planner/types/sql_error.h"
#include "server/pg_catalog_describe.h"
#include "server/pg_types.h"

namespace caracal::server {

namespace {

std::string LastName(PgQuery__Node** names, size_t n) {
  if (n == 0 || names[n - 1]->node_case != PG_QUERY__NODE__NODE_STRING) return "";
  return names[n - 1]->string->sval;
}

std::optional<std::string> ConstText(const PgQuery__Node* n) {
  if (!n) return std::nullopt;
  if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) return ConstText(n->type_cast->arg);
  if (n->node_case != PG_QUERY__NODE__NODE_A_CONST) return std::nullopt;
  const PgQuery__AConst* c = n->a_const;
  switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_SVAL: return std::string(c->sval->sval);
    case PG_QUERY__A__CONST__VAL_IVAL: return std::to_string(c->ival->ival);
    case PG_QUERY__A__CONST__VAL_FVAL: return std::string(c->fval->fval);
    case PG_QUERY__A__CONST__VAL_BOOLVAL: return std::string(c->boolval->boolval ? "true" : "false");
    default: return std::nullopt;
  }
}

struct Value {
  std::optional<std::string> text;
  int32_t type_oid = oid::kText;
  std::string name;  // the column's name when there is no alias
};

// One target of a SELECT without FROM that asks about the server, or nullopt if the
// target is something else (then the whole statement is not ours).
std::optional<Value> ServerFunction(const PgQuery__Node* n, CatalogContext& c) {
  if (n->node_case == PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION) {
    switch (n->sqlvalue_function->op) {
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE: return Value{c.user, oid::kName, "current_role"};
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER: return Value{c.user, oid::kName, "current_user"};
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER: return Value{c.user, oid::kName, "current_user"};
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER: return Value{c.user, oid::kName, "session_user"};
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
        return Value{c.database, oid::kName, "current_catalog"};
      case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA: return Value{"public", oid::kName, "current_schema"};
      default: return std::nullopt;
    }
  }
  if (n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return std::nullopt;
  const PgQuery__FuncCall* f = n->func_call;
  std::string name = LastName(f->funcname, f->n_funcname);
  auto arg = [&](size_t i) { return i < f->n_args ? ConstText(f->args[i]) : std::nullopt; };
  if (name == "version" && f->n_args == 0)
    return Value{"PostgreSQL 15.0 (caracal 0.1.0) on x86_64-pc-linux-gnu, a deterministic main-memory database",
                 oid::kText, "version"};
  if (name == "current_database" && f->n_args == 0) return Value{c.database, oid::kName, "current_database"};
  if (name == "current_schema" && f->n_args == 0) return Value{"public", oid::kName, "current_schema"};
  if (name == "pg_backend_pid" && f->n_args == 0) return Value{std::to_string(c.pid), oid::kInt4, "pg_backend_pid"};
  if (name == "pg_is_in_recovery" && f->n_args == 0) return Value{"f", oid::kBool, "pg_is_in_recovery"};
  if (name == "current_schemas" && f->n_args == 1) return Value{"{public}", 1003, "current_schemas"};
  if (name == "current_setting" && (f->n_args == 1 || f->n_args == 2)) {
    std::optional<std::string> setting = arg(0);
    if (!setting) return std::nullopt;
    bool missing_ok = arg(1) == std::optional<std::string>("true");
    std::string lower = *setting;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    try {
      if (c.settings.Handles(lower)) return Value{c.settings.Get(lower), oid::kText, "current_setting"};
      return Value{c.shared.With([&](frontend::Session& s) { return s.settings().Get(lower); }), oid::kText,
                   "current_setting"};
    } catch (const planner::SqlError&) {
      if (missing_ok) return Value{std::nullopt, oid::kText, "current_setting"};
      throw;
    }
  }
  return std::nullopt;
}

// SELECT f(), g() with no FROM, every target a server-information function.
std::optional<WireResult> ServerInformation(const PgQuery__SelectStmt* s, CatalogContext& c) {
  if (s->n_from_clause != 0 || s->n_target_list == 0 || s->where_clause || s->n_values_lists) return std::nullopt;
  WireResult r;
  r.columns.emplace();
  std::vector<std::optional<std::string>> row;
  for (size_t i = 0; i < s->n_target_list; ++i) {
    const PgQuery__Node* t = s->target_list[i];
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val) return std::nullopt;
    std::optional<Value> v = ServerFunction(t->res_target->val, c);
    if (!v) return std::nullopt;
    std::string column = t->res_target->name && *t->res_target->name ? t->res_target->name : v->name;
    r.columns->push_back({column, v->type_oid, -1});
    row.push_back(v->text);
  }
  r.rows.push_back(std::move(row));
  r.tag = "SELECT 1";
  return r;
}

// Whether the query names a catalog relation: pg_catalog.x or information_schema.x (not
// as a cast to regclass, `'s'::pg_catalog.regclass`, which the session answers; psql's
// `::pg_catalog.regproc` casts are the describe emulation's), or a FROM / JOIN of a pg_
// name. By
// token, so a string constant naming one ('pg_catalog.s') is not a mention.
bool MentionsCatalog(const std::string& text) {
  // Every SELECT over the wire comes here (`SELECT f(...)` calls too): scan only a text
  // that could name a catalog relation at all.
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  if (lower.find("pg_") == std::string::npos && lower.find("information_schema") == std::string::npos) return false;
  const std::vector<planner::SqlToken> tokens = planner::ScanSql(text);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const std::string word = planner::TokenWord(text, tokens[i]);
    if (word.empty()) continue;
    const bool after_cast = i > 0 && tokens[i - 1].kind == PG_QUERY__TOKEN__TYPECAST && i + 2 < tokens.size() &&
                            planner::TokenWord(text, tokens[i + 2]) == "regclass";
    if ((word == "pg_catalog" || word == "information_schema") && tokens[i + 1].kind == PG_QUERY__TOKEN__ASCII_46 &&
        !after_cast)
      return true;
    if ((word == "from" || word == "join") && planner::TokenWord(text, tokens[i + 1]).starts_with("pg_")) return true;
  }
  return false;
}

}  // namespace

bool IsCatalogQuery(const planner::ParsedStatement& stmt, const std::string& text) {
  if (!stmt.node || stmt.node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
  return MentionsCatalog(stmt.text) || stmt.node->select_stmt->n_from_clause == 0;
}

std::optional<WireResult> AnswerCatalogQuery(const planner::ParsedStatement& stmt, const std::string& text,
                                             CatalogContext& c) {
  if (!stmt.node || stmt.node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return std::nullopt;
  if (std::optional<WireResult> r = ServerInformation(stmt.node->select_stmt, c)) return r;
  if (!MentionsCatalog(stmt.text)) return std::nullopt;
  if (std::optional<WireResult> r = AnswerDescribeQuery(stmt.text, c)) return r;
  WireResult r;
  ErrorFields e;
  e.sqlstate = "0A000";
  e.message = "this query on the system catalogs is not supported (caracal emulates only the catalog queries of "
              "psql's describe commands and of common drivers)";
  r.error = e;
  (void)text;
  return r;
}

}  // namespace caracal::server
