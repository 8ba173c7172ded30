#include "planner/binder/procedure_binder.h"

#include "planner/binder/plpgsql_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/plan/ir_visit.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/fragment_parser.h"
#include "planner/parser/plpgsql_parser.h"
#include "planner/binder/plpgsql_scope.h"
#include "planner/binder/routine_resolution.h"
#include "planner/binder/sql_function_body.h"
#include "planner/binder/query_binder.h"
#include "planner/types/condition_names.h"
#include "planner/types/sql_error.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/binder/type_name.h"

namespace caracal::planner {

namespace plpgsql_json {

namespace {
const json& NullJson() {
  static const json kNull;
  return kNull;
}
}  // namespace

// A member of a JSON object, or null: the tree is read defensively (pg_query's JSON
// leaves out zero and false values).
const json& Get(const json& j, std::string_view key) {
  if (!j.is_object()) return NullJson();
  auto it = j.find(key);
  return it == j.end() ? NullJson() : *it;
}

// The first (and only) key of a {"PLpgSQL_x": {...}} node, and its body.
std::string_view NodeType(const json& node) {
  if (!node.is_object() || node.empty()) return {};
  return node.begin().key();
}
const json& NodeBody(const json& node) {
  if (!node.is_object() || node.empty()) return NullJson();
  return node.begin().value();
}

std::string QueryOf(const json& expr) {
  const json& e = Get(expr, "PLpgSQL_expr");
  return e.is_object() ? e.value("query", "") : std::string();
}

}  // namespace plpgsql_json

using namespace plpgsql_json;

namespace {

// PostgreSQL's elog levels, as pg_query_parse_plpgsql reports RAISE's.
constexpr int kElogLog = 15, kElogInfo = 17, kElogNotice = 18, kElogWarning = 19, kElogError = 21;
// PLpgSQL_raise_option types.
constexpr int kRaiseErrcode = 0, kRaiseMessage = 1, kRaiseDetail = 2, kRaiseHint = 3;

// How PL/pgSQL's CONTEXT names a statement of this kind (plpgsql_stmt_typename, with
// the "at" exec_stmts puts before it).
std::string_view PlpgsqlStatementName(std::string_view type, const json& st) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"PLpgSQL_stmt_block", "at statement block"},
      {"PLpgSQL_stmt_assign", "at assignment"},
      {"PLpgSQL_stmt_if", "at IF"},
      {"PLpgSQL_stmt_case", "at CASE"},
      {"PLpgSQL_stmt_loop", "at LOOP"},
      {"PLpgSQL_stmt_while", "at WHILE"},
      {"PLpgSQL_stmt_fori", "at FOR with integer loop variable"},
      {"PLpgSQL_stmt_foreach_a", "at FOREACH over array"},
      {"PLpgSQL_stmt_fors", "at FOR over SELECT rows"},
      {"PLpgSQL_stmt_return", "at RETURN"},
      {"PLpgSQL_stmt_return_next", "at RETURN NEXT"},
      {"PLpgSQL_stmt_return_query", "at RETURN QUERY"},
      {"PLpgSQL_stmt_raise", "at RAISE"},
      {"PLpgSQL_stmt_assert", "at ASSERT"},
      {"PLpgSQL_stmt_execsql", "at SQL statement"},
      {"PLpgSQL_stmt_perform", "at PERFORM"},
      {"PLpgSQL_stmt_call", "at CALL"},
  };
  if (type == "PLpgSQL_stmt_exit") return st.value("is_exit", false) ? "at EXIT" : "at CONTINUE";
  if (type == "PLpgSQL_stmt_getdiag")
    return st.value("is_stacked", false) ? "at GET STACKED DIAGNOSTICS" : "at GET DIAGNOSTICS";
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return {};
}

// Names `s`, and the statements inside it that have no name of their own (those the
// binder made for it: ASSERT's RAISE, CASE's "case not found"), for CONTEXT.
// The line and SQL text of a statement the binder made from one PL/pgSQL statement, and
// of the statements inside it (a set-based write's loop).
void SetSource(Stmt& s, int line, const std::string& text) {
  s.line = line;
  // A trigger's call is the statement's too: an error in it names the statement.
  const bool trigger_call = s.value && s.value->kind == ExprKind::kRoutineCall && s.value->routine &&
                            s.value->routine->trigger_table != nullptr;
  if (s.sql_text.empty() && (s.table != nullptr || s.query != nullptr || trigger_call)) s.sql_text = text;
  for (auto& c : s.body) SetSource(*c, line, text);
  for (auto& b : s.blocks)
    for (auto& c : b) SetSource(*c, line, text);
  for (auto& c : s.else_block) SetSource(*c, line, text);
}

void NameForContext(Stmt& s, std::string_view what) {
  if (s.plpgsql_what.empty()) s.plpgsql_what = what;
  for (auto& b : s.blocks)
    for (auto& c : b) NameForContext(*c, what);
  for (auto& c : s.else_block) NameForContext(*c, what);
  for (auto& c : s.body) NameForContext(*c, what);
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// SQLSTATEs of the condition names RAISE and USING ERRCODE accept most often.
// The SQLSTATE RAISE gives a condition name: the first of those it stands for, as
// PL/pgSQL takes it.
std::optional<std::string> ConditionSqlstate(const std::string& name) {
  std::vector<std::string_view> codes = SqlstatesOfCondition(name);
  if (codes.empty()) return std::nullopt;
  return std::string(codes.front());
}

bool IsSqlstate(const std::string& s) {
  if (s.size() != 5) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)) && !std::isupper(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

[[noreturn]] void ProcedureBinder::Unsupported(const std::string& what, int line, const std::string& hint) const {
  SqlError e = NotSupported(what);
  if (!hint.empty()) e.WithHint(hint);
  throw e;
}

StmtPtr ProcedureBinder::NewStmt(StmtKind kind, int line) const {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->line = line;
  return s;
}

StmtPtr ProcedureBinder::CheckRaise(const char* sqlstate, std::string message, const char* hint, int line) const {
  auto raise = NewStmt(StmtKind::kRaise, line);
  raise->level = RaiseLevel::kException;
  raise->sqlstate = sqlstate;
  raise->message = std::move(message);
  if (hint) {
    raise->args.push_back(MakeConst(Datum::String(hint), SqlType::Of(TypeId::kText)));
    raise->raise_hint = 0;
  }
  return raise;
}

StmtPtr ProcedureBinder::RaiseIf(ExprPtr cond, const char* sqlstate, std::string message, const char* hint,
                                 int line) const {
  auto s = NewStmt(StmtKind::kIf, line);
  s->conds.push_back(std::move(cond));
  s->blocks.emplace_back();
  s->blocks.back().push_back(CheckRaise(sqlstate, std::move(message), hint, line));
  return s;
}

int ProcedureBinder::AddVariable(std::string name, SqlType type, VariableKind kind) {
  Variable v;
  v.name = std::move(name);
  v.type = type;
  v.kind = kind;
  ir_->variables.push_back(std::move(v));
  return static_cast<int>(ir_->variables.size()) - 1;
}

SqlType ProcedureBinder::ParameterType(const PgQuery__TypeName* t) const {
  if (t->pct_type) Unsupported("%TYPE in a parameter list", 0);
  SqlType type = ResolveTypeName(t, &catalog_);
  // PostgreSQL ignores the modifiers of parameter and result types; a domain keeps its
  // base type's (they are part of it) and is checked on the way in and out.
  return SignatureType(type);
}

// ---------------------------------------------------------------------------------------
// Signature.

std::string ProcedureBinder::BindOptions(const PgQuery__CreateFunctionStmt* stmt) {
  std::string language;
  size_t as_items = 0;
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    std::string opt = d->defname;
    if (opt == "language") language = Lower(StringValue(d->arg));
    else if (opt == "as") as_items = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_LIST ? d->arg->list->n_items : 1;
    else if (opt == "window") throw NotSupported("window functions");
    else if (opt == "strict") {
      // PostgreSQL's compute_function_attributes: not an attribute a procedure takes.
      if (stmt->is_procedure)
        throw SqlError(sqlstate::kInvalidFunctionDefinition, "invalid attribute in procedure definition", d->location);
      ir_->strict = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN && d->arg->boolean->boolval;
    }
  }
  if (stmt->sql_body) throw NotSupported("SQL-standard function bodies (BEGIN ATOMIC)").WithHint("Write the body in LANGUAGE plpgsql.");
  if (language.empty())
    throw SqlError(sqlstate::kInvalidFunctionDefinition, "no language specified")
        .WithHint("Use LANGUAGE plpgsql.");
  sql_language_ = language == "sql";
  if (language != "plpgsql" && language != "sql") throw SqlError(sqlstate::kUndefinedObject, fmt::format("language \"{}\" does not exist", language));
  // libpg_query's PL/pgSQL parser asserts that the body exists, so these are PostgreSQL's
  // own checks, made before it runs.
  if (as_items == 0) throw SqlError(sqlstate::kInvalidFunctionDefinition, "no function body specified");
  if (as_items != 1)
    throw SqlError(sqlstate::kInvalidFunctionDefinition, fmt::format("only one AS item needed for language \"{}\"", language));
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    if (std::string_view(d->defname) != "as" || !d->arg) continue;
    const PgQuery__Node* item = d->arg->node_case == PG_QUERY__NODE__NODE_LIST ? d->arg->list->items[0] : d->arg;
    if (item->node_case == PG_QUERY__NODE__NODE_STRING) body_text_ = item->string->sval;
  }

  return language;
}

void ProcedureBinder::BindSignature(const PgQuery__CreateFunctionStmt* stmt) {
  std::vector<std::string> names = NameList(stmt->funcname, stmt->n_funcname);
  if (names.size() > 1 && !(names.size() == 2 && names[0] == "public"))
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]));
  ir_->name = names.back();
  ir_->kind = stmt->is_procedure ? ProcedureIr::Kind::kProcedure : ProcedureIr::Kind::kFunction;
  ir_->source = text_;

  BindOptions(stmt);

  // Parameters: IN / INOUT first (frame slots 0..n-1), then OUT / TABLE columns.
  struct Param {
    std::string name;
    SqlType type;
    PgQuery__FunctionParameterMode mode;
    const PgQuery__Node* defexpr;
  };
  std::vector<Param> params;
  std::set<std::string> seen;
  for (size_t i = 0; i < stmt->n_parameters; ++i) {
    const PgQuery__FunctionParameter* p = stmt->parameters[i]->function_parameter;
    Param param{p->name ? p->name : "", ParameterType(p->arg_type), p->mode, p->defexpr};
    if (param.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_VARIADIC) throw NotSupported("VARIADIC parameters");
    if (param.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_DEFAULT) param.mode = PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_IN;
    if (!param.name.empty() && !seen.insert(param.name).second)
      throw SqlError(sqlstate::kInvalidFunctionDefinition, fmt::format("parameter name \"{}\" used more than once", param.name));
    params.push_back(param);
  }
  auto is_in = [](const Param& p) {
    return p.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_IN ||
           p.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_INOUT;
  };
  auto is_out = [](const Param& p) {
    return p.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_OUT ||
           p.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_INOUT ||
           p.mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_TABLE;
  };
  std::vector<int> slot_of(params.size(), -1);
  bool seen_default = false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!is_in(params[i])) continue;
    std::string name = params[i].name.empty() ? fmt::format("${}", i + 1) : params[i].name;
    slot_of[i] = AddVariable(name, params[i].type, VariableKind::kParameter);
    ++ir_->parameter_count;
    if (params[i].defexpr) {
      ExprBinder binder(nullptr);
      ir_->variables[slot_of[i]].default_value =
          binder.BindAssignment(params[i].defexpr, params[i].type, params[i].name);
      seen_default = true;
    } else if (seen_default) {
      throw SqlError(sqlstate::kInvalidFunctionDefinition,
                     "input parameters after one with a default value must also have defaults");
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!is_out(params[i])) continue;
    has_out_parameters_ = true;
    if (params[i].mode != PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_INOUT) {
      std::string name = params[i].name.empty() ? fmt::format("${}", i + 1) : params[i].name;
      slot_of[i] = AddVariable(name, params[i].type, VariableKind::kOutParameter);
    }
    ir_->out_variables.push_back(slot_of[i]);
    ir_->result_columns.push_back(
        {params[i].name.empty() ? fmt::format("column{}", ir_->out_variables.size()) : params[i].name, params[i].type});
  }
  const bool procedure = ir_->kind == ProcedureIr::Kind::kProcedure;
  for (size_t i = 0; i < params.size(); ++i)
    if (is_in(params[i]) || (procedure && params[i].mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_OUT))
      ir_->call_slots.push_back(slot_of[i]);

  // Result.
  const PgQuery__TypeName* rt = stmt->return_type;
  if (ir_->kind == ProcedureIr::Kind::kProcedure) {
    ir_->returns = ProcedureIr::Returns::kVoid;
  } else if (rt == nullptr) {
    if (!has_out_parameters_) throw SqlError(sqlstate::kInvalidFunctionDefinition, "function result type must be specified");
    ir_->returns = ProcedureIr::Returns::kScalar;
  } else {
    std::string base = Lower(StringValue(rt->names[rt->n_names - 1]));
    is_setof_ = rt->setof;
    if (base == "event_trigger") throw NotSupported("event trigger functions");
    if (base == "trigger") throw NotSupported("trigger functions here");  // bound per table: exec/trigger_ddl.h
    if (base == "void") {
      if (has_out_parameters_)
        throw SqlError(sqlstate::kInvalidFunctionDefinition, "function result type must be record because of OUT parameters");
      if (rt->setof) throw NotSupported("SETOF void");
      ir_->returns = ProcedureIr::Returns::kVoid;
    } else if (base == "record") {
      if (!has_out_parameters_ && !rt->setof)
        throw NotSupported("functions returning one record without OUT parameters")
            .WithHint("Return SETOF record, or declare the result columns with OUT parameters.");
      ir_->returns = rt->setof ? ProcedureIr::Returns::kTable : ProcedureIr::Returns::kScalar;
      ir_->returns_record = !has_out_parameters_;
    } else if (std::optional<std::vector<OutputColumn>> row =
                   has_out_parameters_ || rt->n_names > 2 || (rt->n_names == 2 && Lower(StringValue(rt->names[0])) != "public")
                       ? std::nullopt
                       : RowTypeColumns(base)) {
      // A table's row type or a composite type: SETOF t returns rows of t's columns
      // (RETURN QUERY, RETURN NEXT of a row of them), as RETURNS TABLE (...) with t's
      // columns would.
      if (!rt->setof)
        throw NotSupported(fmt::format("functions returning one row of type {}", base))
            .WithHint("Return SETOF " + base + ", or declare OUT parameters.");
      ir_->result_columns = std::move(*row);
      ir_->returns = ProcedureIr::Returns::kTable;
      if (catalog_.FindComposite(base)) ir_->result_composite = base;
    } else {
      PgQuery__TypeName element = *rt;  // SETOF t: the row type is t
      element.setof = false;
      SqlType type = ParameterType(&element);
      if (has_out_parameters_) {
        // RETURNS TABLE (x int) parses as SETOF int with one TABLE column.
        if (ir_->result_columns.size() != 1 || !(ir_->result_columns[0].type == type))
          throw SqlError(sqlstate::kInvalidFunctionDefinition,
                         "function result type must be record because of OUT parameters");
        ir_->returns = rt->setof ? ProcedureIr::Returns::kTable : ProcedureIr::Returns::kScalar;
      } else {
        ir_->returns = rt->setof ? ProcedureIr::Returns::kSetOf : ProcedureIr::Returns::kScalar;
        ir_->result_columns.push_back({ir_->name, type});
      }
    }
  }

  // The function-level namespace: parameters (by name and as $n), then FOUND.
  scope_.PushBlock(ir_->name);
  std::vector<int> positional;
  for (size_t i = 0; i < params.size(); ++i) {
    positional.push_back(slot_of[i]);
    scope_.Declare(ir_->variables[slot_of[i]].name, slot_of[i]);
  }
  scope_.SetPositionalParameters(positional);
  ir_->found_variable = AddVariable("found", SqlType::Of(TypeId::kBool), VariableKind::kFound);
  scope_.Declare("found", ir_->found_variable);

  // The JSON's datums start with every named parameter, in order (libpg_query makes none
  // for an unnamed one), then FOUND.
  datum_info_.clear();
  for (size_t i = 0; i < params.size(); ++i)
    if (!params[i].name.empty()) datum_info_.push_back(DatumInfo{.slot = slot_of[i]});
  datum_info_.push_back(DatumInfo{.slot = ir_->found_variable});
}

// ---------------------------------------------------------------------------------------
// Datums and declarations.

void ProcedureBinder::SkipRowDatums() {
  // Rows (INTO lists) and record fields (r.f, made as PL/pgSQL's parser meets them) are
  // not declarations; SlotOfVarno resolves them.
  while (cursor_ < datums_.size() &&
         (NodeType(datums_[cursor_]) == "PLpgSQL_row" || NodeType(datums_[cursor_]) == "PLpgSQL_recfield"))
    ++cursor_;
}

std::optional<std::vector<OutputColumn>> ProcedureBinder::RowTypeColumns(std::string name) const {
  name = Trim(name);
  if (name.starts_with("public.")) name = name.substr(7);
  if (name.empty() || TypeFromName(name, 0, nullptr)) return std::nullopt;  // a built-in type comes first
  std::vector<OutputColumn> columns;
  if (const CompositeType* composite = catalog_.FindComposite(name)) {
    for (const auto& [field, type] : composite->fields) columns.push_back(OutputColumn{field, type});
    return columns;
  }
  if (const TableInfo* table = catalog_.FindTable(name)) {
    for (const CatalogColumn& c : table->columns) columns.push_back(OutputColumn{c.name, c.type});
    return columns;
  }
  return std::nullopt;
}

SqlType ProcedureBinder::TypeFromText(const std::string& typname, int line) {
  std::string t = Trim(typname);
  std::string lower = Lower(t);
  if (lower.size() > 8 && lower.ends_with("%rowtype"))
    Unsupported("%ROWTYPE variables", line, "Declare one variable per column you need.");
  if (lower.size() > 5 && lower.ends_with("%type")) {
    std::string ref = Lower(Trim(t.substr(0, t.size() - 5)));
    size_t dot = ref.find('.');
    if (dot == std::string::npos) {
      int slot = scope_.Find(ref);
      if (slot < 0) throw SqlError(sqlstate::kUndefinedObject, fmt::format("variable \"{}\" does not exist", ref));
      return ir_->variables[slot].type;
    }
    const TableInfo* table = catalog_.FindTable(ref.substr(0, dot));
    if (!table) throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", ref.substr(0, dot)));
    int c = table->ColumnIndex(ref.substr(dot + 1));
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" of relation \"{}\" does not exist", ref.substr(dot + 1), table->name));
    return table->columns[c].type;
  }
  if (lower == "record") Unsupported("record variables", line, "Declare one variable per column and SELECT ... INTO them.");
  if (lower == "refcursor") Unsupported("cursors", line, "Use FOR loops over key ranges or RETURN QUERY.");
  PgParse parse = PgParse::Parse("SELECT NULL::" + t);
  const PgQuery__Node* n = parse.statement(0)->select_stmt->target_list[0]->res_target->val;
  if (n->node_case != PG_QUERY__NODE__NODE_TYPE_CAST) throw SqlError(sqlstate::kSyntaxError, "invalid type name \"" + t + "\"");
  return ResolveTypeName(n->type_cast->type_name, &catalog_);
}

void ProcedureBinder::DeclareBlockVariables(const json& block, Block& out, bool top_level) {
  int block_line = block.value("lineno", 0);
  bool defaults_as_statements = false;
  if (top_level) {
    // `name ALIAS FOR $n` / `name ALIAS FOR param`: another name for a parameter's slot.
    for (const PlpgsqlBody::Alias& a : body_.aliases) {
      line_ = a.line;
      if (a.nested) Unsupported("ALIAS in a nested block", a.line, "Declare the alias in the function's top DECLARE section.");
      scope_.Declare(a.name, AliasSlot(a));
    }
  }
  // A FOR loop opening the block on its BEGIN line declares its variable after ours.
  std::string first_loop_var;
  if (block.contains("body") && !Get(block, "body").empty() && NodeType(Get(block, "body")[0]) == "PLpgSQL_stmt_fori")
    first_loop_var = Get(Get(NodeBody(Get(block, "body")[0]), "var"), "PLpgSQL_var").value("refname", "");
  SkipRowDatums();
  while (cursor_ < datums_.size()) {
    std::string_view type = NodeType(datums_[cursor_]);
    if (type != "PLpgSQL_var" && type != "PLpgSQL_rec") break;
    const json& d = NodeBody(datums_[cursor_]);
    int line = d.value("lineno", 0);
    if (line > block_line) break;
    std::string name = d.value("refname", "");
    if (line == block_line && name == first_loop_var) break;
    // A CASE statement's hidden variable, made when PL/pgSQL parses the CASE (BindCase
    // binds it): not a declaration of this block, even on its line.
    if (name.starts_with("__Case__Variable_")) break;
    line_ = line;
    if (d.contains("cursor_explicit_expr")) Unsupported("cursors", line, "Use FOR loops over key ranges or RETURN QUERY.");
    // A row-type declaration the parser was given as RECORD (PlpgsqlBody::row_types).
    std::string row_type;
    for (const PlpgsqlBody::RowTypeDeclaration& r : body_.row_types)
      if (r.name == name && (r.line == line || line == 0)) row_type = r.type;
    // `r record` comes as a variable of type "record", `r RECORD` as a PLpgSQL_rec:
    // the same declaration (type names are case-insensitive).
    if (row_type.empty() &&
        (type == "PLpgSQL_rec" || Lower(Trim(Get(Get(d, "datatype"), "PLpgSQL_type").value("typname", ""))) == "record")) {
      // A record takes its fields from the FOR over a query that assigns it.
      if (d.contains("default_val")) Unsupported("a record variable with a default", line);
      datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
      datum_info_[cursor_].record = name;
      ++cursor_;
      SkipRowDatums();
      continue;
    }
    const std::string typname = row_type.empty() ? Trim(Get(Get(d, "datatype"), "PLpgSQL_type").value("typname", "")) : row_type;
    if (typname == kAliasPlaceholderType || typname == "$alias") {
      // An ALIAS declaration's stand-in (parser/plpgsql_parser.h): the alias is declared.
      datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
      datum_info_[cursor_].slot = scope_.Find(name);
      ++cursor_;
      SkipRowDatums();
      continue;
    }
    if (Lower(typname).ends_with("%rowtype") && typname.size() > 8) {
      // `r t%ROWTYPE`: a record with t's columns as its fields, NULL until assigned.
      if (d.contains("default_val")) Unsupported("a %ROWTYPE variable with a default", line);
      const std::string table_name = Lower(Trim(typname.substr(0, typname.size() - 8)));
      const TableInfo* table = catalog_.FindTable(table_name);
      if (!table)
        throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
      std::vector<OutputColumn> columns;
      for (const CatalogColumn& c : table->columns) columns.push_back(OutputColumn{c.name, c.type});
      datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
      datum_info_[cursor_].record = name;
      datum_info_[cursor_].row_fields = SetRecordShape(name, columns);
      ++cursor_;
      SkipRowDatums();
      continue;
    }
    if (std::optional<std::vector<OutputColumn>> row = RowTypeColumns(Lower(typname))) {
      // `r t;` of a table's row type or a composite type: as `r t%ROWTYPE`.
      if (d.contains("default_val")) Unsupported("a row-type variable with a default", line);
      datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
      datum_info_[cursor_].record = name;
      datum_info_[cursor_].row_fields = SetRecordShape(name, *row);
      ++cursor_;
      SkipRowDatums();
      continue;
    }
    // A cursor variable holds its portal's name; a bound cursor's is its own name
    // (cursor_binder.cc, and the declaration's rewrite in cursor_statements.h).
    const bool refcursor = Lower(typname) == "refcursor";
    const std::optional<size_t> bound =
        refcursor && d.contains("default_val") ? CursorMarkerNumber(QueryOf(Get(d, "default_val"))) : std::nullopt;
    SqlType var_type = refcursor ? SqlType::Of(TypeId::kText) : TypeFromText(typname, line);
    int slot = AddVariable(name, var_type, VariableKind::kLocal);
    // Binding the default and declaring a cursor add variables: no reference into the
    // frame's vector may live across them.
    const bool not_null = d.value("notnull", false);
    {
      Variable& v = ir_->variables[slot];
      v.constant = d.value("isconst", false);
      v.not_null = not_null;
      v.line = line;
    }
    ExprPtr init;
    if (bound) init = MakeConst(Datum::String(name), var_type);
    else if (d.contains("default_val")) init = BindAssignmentTo(QueryOf(Get(d, "default_val")), line, slot);
    if (refcursor) DeclareCursor(slot, bound ? &body_.cursors.at(*bound) : nullptr, line);
    if (not_null && !init)
      throw SqlError("22004", fmt::format("variable \"{}\" must have a default value, since it's declared NOT NULL", name));
    // A default that runs a query is an assignment after that query; so is every default
    // after it (they may read it).
    Block queries = TakePending();
    defaults_as_statements = defaults_as_statements || !queries.empty();
    for (StmtPtr& q : queries) {
      q->plpgsql_what = "during statement block local variable initialization";
      out.push_back(std::move(q));
    }
    if (top_level && !defaults_as_statements) {
      ir_->variables[slot].default_value = std::move(init);
    } else {
      // A nested block's variables are initialised each time the block is entered.
      auto s = NewStmt(StmtKind::kAssign, line);
      s->plpgsql_what = "during statement block local variable initialization";
      s->target = slot;
      s->value = init ? std::move(init) : MakeConst(Datum::Null(), var_type);
      out.push_back(std::move(s));
    }
    scope_.Declare(name, slot);
    datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
    datum_info_[cursor_].slot = slot;
    ++cursor_;
    SkipRowDatums();
  }
}

int ProcedureBinder::DeclareLoopVariable(const json& var) {
  const json& v = Get(var, "PLpgSQL_var");
  std::string name = v.value("refname", "");
  SkipRowDatums();
  // The loop's own datum is the next one; search on if a construct we do not model
  // created others first.
  size_t at = cursor_;
  while (at < datums_.size() &&
         !(NodeType(datums_[at]) == "PLpgSQL_var" && NodeBody(datums_[at]).value("refname", "") == name))
    ++at;
  int slot = AddVariable(name, SqlType::Of(TypeId::kInt4), VariableKind::kLoopVar);
  if (at < datums_.size()) {
    datum_info_.resize(std::max(datum_info_.size(), at + 1));
    datum_info_[at].slot = slot;
    cursor_ = at + 1;
  }
  return slot;
}

int ProcedureBinder::SlotOfVarno(int varno, int line) const {
  if (varno >= 0 && static_cast<size_t>(varno) < datum_info_.size() && datum_info_[varno].slot >= 0)
    return datum_info_[varno].slot;
  if (varno >= 0 && static_cast<size_t>(varno) < datums_.size() && NodeType(datums_[varno]) == "PLpgSQL_recfield") {
    // `r.f := x`: the field's variable, when the record's shape is known here.
    const json& f = NodeBody(datums_[varno]);
    const int parent = f.value("recparentno", -1);
    const std::string field = f.value("fieldname", "");
    const std::string record =
        parent >= 0 && static_cast<size_t>(parent) < datum_info_.size() ? datum_info_[parent].record : std::string();
    if (const auto* fields = record.empty() ? nullptr : scope_.RecordFields(record)) {
      for (const auto& [name, slot] : *fields)
        if (name == field) return slot;
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("record \"{}\" has no field \"{}\"", record, field));
    }
    if (!record.empty())
      Unsupported(fmt::format("assigning a field of record variable \"{}\" before a query gives it its fields", record), line);
  }
  if (varno >= 0 && static_cast<size_t>(varno) < datum_info_.size() && !datum_info_[varno].record.empty())
    Unsupported(fmt::format("record variable \"{}\" here", datum_info_[varno].record), line,
                "A record variable can be the target of a FOR over a query or of an INTO, and its fields read as record.field.");
  if (varno >= 0 && static_cast<size_t>(varno) < datums_.size() && NodeType(datums_[varno]) == "PLpgSQL_row")
    Unsupported("row variables", line);
  throw SqlError(sqlstate::kInternalError, fmt::format("internal error: PL/pgSQL datum {} has no variable", varno));
}

int ProcedureBinder::AliasSlot(const PlpgsqlBody::Alias& alias) const {
  if (alias.target.starts_with("$")) {
    std::optional<NameBinding> b = scope_.LookupParameter(std::atoi(alias.target.c_str() + 1), -1);
    return b ? b->slot.index : -1;
  }
  return scope_.Find(alias.target);
}

std::string ProcedureBinder::RecordTarget(const json& target, std::vector<int>* row_fields) const {
  int varno = -1;
  if (NodeType(target) == "PLpgSQL_rec") {  // `r RECORD`: the target is the record itself
    varno = NodeBody(target).value("dno", -1);
  } else if (NodeType(target) == "PLpgSQL_row") {
    const json& fields = Get(NodeBody(target), "fields");
    if (fields.size() != 1) return {};
    varno = fields[0].value("varno", -1);
  }
  if (varno < 0 || static_cast<size_t>(varno) >= datum_info_.size()) return {};
  if (row_fields) *row_fields = datum_info_[varno].row_fields;
  return datum_info_[varno].record;
}

std::vector<int> ProcedureBinder::SetRecordShape(const std::string& record, const std::vector<OutputColumn>& columns) {
  std::vector<std::pair<std::string, int>> fields;
  std::vector<int> slots;
  for (const OutputColumn& c : columns) {
    slots.push_back(AddVariable(fmt::format("{}.{}", record, c.name), c.type, VariableKind::kLocal));
    fields.emplace_back(c.name, slots.back());
  }
  scope_.SetRecordFields(record, std::move(fields));
  return slots;
}

std::vector<int> ProcedureBinder::IntoTargets(const json& target, int line) const {
  std::vector<int> slots;
  if (NodeType(target) == "PLpgSQL_row") {
    for (const json& f : Get(NodeBody(target), "fields")) {
      int slot = SlotOfVarno(f.value("varno", 0), line);
      CheckAssignable(slot, line);
      slots.push_back(slot);
    }
    return slots;
  }
  if (NodeType(target) == "PLpgSQL_rec") SlotOfVarno(NodeBody(target).value("dno", -1), line);  // says why
  Unsupported("this INTO target", line);
}

void ProcedureBinder::CheckAssignable(int slot, int line) const {
  const Variable& v = ir_->variables[slot];
  if (v.constant) throw SqlError("22005", fmt::format("variable \"{}\" is declared CONSTANT", v.name));
  if (v.kind == VariableKind::kFound) return;
}

// ---------------------------------------------------------------------------------------
// Expressions.

int ProcedureBinder::LocateInStatement(const std::string& text, int line) const {
  if (body_.body_offset < 0 || text.empty()) return -1;
  size_t from = 0;
  if (line >= 1 && static_cast<size_t>(line) <= body_line_starts_.size()) from = body_line_starts_[line - 1];
  // PL/pgSQL blanks an INTO clause out of a statement's text: match what precedes it.
  std::string probe = text.substr(0, std::min<size_t>(text.size(), 40));
  size_t gap = probe.find("  ");
  if (gap != std::string::npos && gap > 0) probe = probe.substr(0, gap);
  size_t at = body_.body.find(probe, from);
  if (at == std::string::npos) at = body_.body.find(probe);
  if (at == std::string::npos) return -1;
  return body_.body_offset + static_cast<int>(at);
}

ExprPtr ProcedureBinder::BindExpr(const std::string& text, int line,
                                  const std::function<ExprPtr(ExprBinder&, const PgQuery__Node*)>& bind) {
  constexpr std::string_view kPrefix = "SELECT ";
  int at = LocateInStatement(text, line);
  int shift = at < 0 ? -1 : at - static_cast<int>(kPrefix.size());
  try {
    PgParse parse = PgParse::Parse(std::string(kPrefix) + text);
    if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("syntax error in expression \"{}\"", text));
    const PgQuery__SelectStmt* s = parse.statement(0)->select_stmt;
    if (s->n_from_clause > 0 || s->where_clause || s->n_group_clause > 0 || s->n_sort_clause > 0 || s->limit_count ||
        s->n_values_lists > 0 || s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || s->with_clause || s->having_clause ||
        ContainsSubquery(s)) {
      // PL/pgSQL runs any expression as SELECT <expr>: a query (x := sum(v) FROM t, or a
      // subquery) is run before the statement by a hidden SELECT INTO, and the expression
      // reads its temporary.
      std::string reference = HoistExpressionQuery(s, text, line);
      PgParse ref = PgParse::Parse(std::string(kPrefix) + reference);
      ExprBinder binder(&scope_, &catalog_);
      return bind(binder, ref.statement(0)->select_stmt->target_list[0]->res_target->val);
    }
    if (s->n_target_list != 1)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("query \"{}\" returned {} columns", text, s->n_target_list));
    const PgQuery__ResTarget* t = s->target_list[0]->res_target;
    ExprBinder binder(&scope_, &catalog_);
    binder.AllowAggregates(false, "a PL/pgSQL expression");
    return bind(binder, t->val);
  } catch (SqlError& e) {
    e.ShiftLocation(shift);
    throw;
  }
}

std::string ProcedureBinder::HoistExpressionQuery(const PgQuery__SelectStmt* stmt, const std::string& text, int line) {
  auto read = NewStmt(StmtKind::kSelectInto, line);
  read->query = TransactionQuery(PlanQuery(stmt, catalog_, {}, &scope_), "inside a procedure");
  const std::vector<OutputColumn>& columns = read->query->columns;
  if (columns.size() != 1) {
    if (!assignment_context_.empty())
      throw SqlError(sqlstate::kSyntaxError, fmt::format("assignment source returned {} columns", columns.size()));
    throw SqlError(sqlstate::kSyntaxError, fmt::format("query \"{}\" returned {} columns", text, columns.size()));
  }
  const std::string name = fmt::format("$expr{}", ++expression_queries_);
  const int slot = AddVariable(name, columns[0].type, VariableKind::kTemp);
  scope_.Declare(name, slot);
  read->into.push_back(slot);
  read->expression_query = true;
  read->sql_text = "SELECT " + text;
  read->sql_context =
      assignment_context_.empty() ? fmt::format("SQL expression \"{}\"", text) : assignment_context_;
  pending_.push_back(std::move(read));
  return fmt::format("\"{}\"", name);
}

ExprPtr ProcedureBinder::BindValue(const json& expr, int line) {
  return BindExpr(QueryOf(expr), line, [](ExprBinder& b, const PgQuery__Node* n) {
    ExprPtr e = b.Bind(n);
    if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    return e;
  });
}

ExprPtr ProcedureBinder::BindCondition(const json& expr, int line, std::string_view clause) {
  return BindExpr(QueryOf(expr), line,
                  [clause](ExprBinder& b, const PgQuery__Node* n) { return b.BindCondition(n, clause); });
}

ExprPtr ProcedureBinder::BindAssignmentTo(const std::string& text, int line, int slot) {
  const Variable& v = ir_->variables[slot];
  SqlType type = v.type;
  std::string name = v.name;
  return BindExpr(text, line, [&](ExprBinder& b, const PgQuery__Node* n) {
    ExprPtr e = b.Bind(n);
    return Coerce(std::move(e), type, CastContext::kAssignment, name);
  });
}

// ---------------------------------------------------------------------------------------
// Statements.

Block ProcedureBinder::BindStatements(const json& list) {
  Block out;
  if (!list.is_array()) return out;
  for (const json& node : list) BindStatement(node, out);
  return out;
}

void ProcedureBinder::BindStatement(const json& node, Block& out) {
  std::string_view type = NodeType(node);
  const json& st = NodeBody(node);
  int saved_line = line_;
  line_ = st.value("lineno", line_);
  const size_t first = out.size();
  Block outer_pending = TakePending();
  try {
    BindStatementKind(type, st, out);
  } catch (const SqlError& e) {
    // A trigger function is bound for each table it fires on, and PL/pgSQL checks a
    // statement's names only when it runs: one that names what this table (or the
    // database) lacks fails when it is reached, not when the trigger is.
    const bool missing = e.sqlstate() == sqlstate::kUndefinedColumn || e.sqlstate() == sqlstate::kUndefinedTable ||
                         e.sqlstate() == sqlstate::kUndefinedFunction;
    if (trigger_table_ == nullptr || !missing) throw;
    out.resize(first);
    TakePending();
    std::string message;
    for (char c : std::string(e.what())) message += c == '%' ? std::string("%%") : std::string(1, c);
    auto raise = NewStmt(StmtKind::kRaise, line_);
    raise->sqlstate = e.sqlstate();
    raise->message = std::move(message);
    // What PostgreSQL's CONTEXT names first: the SQL of the statement that failed.
    if (type == "PLpgSQL_stmt_assign") raise->sql_context = fmt::format("PL/pgSQL assignment \"{}\"", QueryOf(Get(st, "expr")));
    else if (type == "PLpgSQL_stmt_execsql") raise->sql_context = fmt::format("SQL statement \"{}\"", QueryOf(Get(st, "sqlstmt")));
    else if (type == "PLpgSQL_stmt_if" || type == "PLpgSQL_stmt_while")
      raise->sql_context = fmt::format("SQL expression \"{}\"", QueryOf(Get(st, "cond")));
    out.push_back(std::move(raise));
  }
  Block pending = TakePending();
  pending_ = std::move(outer_pending);
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(first), std::make_move_iterator(pending.begin()),
             std::make_move_iterator(pending.end()));
  std::string_view name = PlpgsqlStatementName(type, st);
  if (std::optional<size_t> n = CursorStatementOf(type, st)) name = CursorStatementName(body_.cursors.at(*n));
  for (size_t i = first; i < out.size(); ++i) NameForContext(*out[i], name);
  line_ = saved_line;
}

void ProcedureBinder::BindStatementKind(std::string_view type, const json& st, Block& out) {
  int line = line_;
  if (type == "PLpgSQL_stmt_block") return BindBlock(st, out);
  if (type == "PLpgSQL_stmt_assign") return out.push_back(BindAssign(st));
  if (type == "PLpgSQL_stmt_if") return out.push_back(BindIf(st));
  if (type == "PLpgSQL_stmt_case") return out.push_back(BindCase(st, out));
  if (type == "PLpgSQL_stmt_fori") return out.push_back(BindForRange(st));
  if (type == "PLpgSQL_stmt_foreach_a") return out.push_back(BindForEach(st));
  if (type == "PLpgSQL_stmt_while") return out.push_back(BindLoop(st, true));
  if (type == "PLpgSQL_stmt_loop") return out.push_back(BindLoop(st, false));
  if (type == "PLpgSQL_stmt_exit") return out.push_back(BindExit(st));
  if (std::optional<size_t> n = CursorStatementOf(type, st)) return BindCursorStatement(body_.cursors.at(*n), st, out);
  if (type == "PLpgSQL_stmt_execsql") return BindExecSql(st, out);
  if (type == "PLpgSQL_stmt_perform") return out.push_back(BindPerform(st));
  if (type == "PLpgSQL_stmt_return") {
    // libpg_query compiles every body as if it returned void and appends a RETURN
    // (without a line) to it; the function's own end-of-body rule applies instead.
    if (!st.contains("lineno")) return;
    if (trigger_table_ != nullptr) return BindTriggerReturn(st, out);
    return out.push_back(BindReturn(st));
  }
  if (type == "PLpgSQL_stmt_return_next") return out.push_back(BindReturnNext(st));
  if (type == "PLpgSQL_stmt_return_query") return out.push_back(BindReturnQuery(st));
  if (type == "PLpgSQL_stmt_raise") return out.push_back(BindRaise(st));
  if (type == "PLpgSQL_stmt_assert") return out.push_back(BindAssert(st));
  if (type == "PLpgSQL_stmt_getdiag") return BindGetDiagnostics(st, out);
  if (type == "PLpgSQL_stmt_dynexecute" || type == "PLpgSQL_stmt_dynfors")
    Unsupported("dynamic SQL (EXECUTE)", line, "Write the statement directly: its write set must be known before it runs.");
  if (type == "PLpgSQL_stmt_fors") return BindForQuery(st, out);
  if (type == "PLpgSQL_stmt_forc") Unsupported("FOR loops over cursors", line, "Loop over the cursor's query itself.");
  if (type == "PLpgSQL_stmt_open" || type == "PLpgSQL_stmt_fetch" || type == "PLpgSQL_stmt_close")
    Unsupported("cursors", line, "Use FOR loops over key ranges or RETURN QUERY.");
  if (type == "PLpgSQL_stmt_commit" || type == "PLpgSQL_stmt_rollback") {
    // An error where it runs, not at CREATE: PostgreSQL accepts the statement and fails
    // it in a function (2D000) when it is reached, often only in a handler that never
    // runs here (WHEN serialization_failure THEN ROLLBACK). A procedure's COMMIT would
    // split one deterministic transaction into several, which has no sound meaning yet.
    const bool commit = type == "PLpgSQL_stmt_commit";
    StmtPtr s = ir_->kind == ProcedureIr::Kind::kFunction
                    ? CheckRaise("2D000", "invalid transaction termination", nullptr, line)
                    : CheckRaise(sqlstate::kFeatureNotSupported,
                                 fmt::format("{} inside a procedure is not supported", commit ? "COMMIT" : "ROLLBACK"),
                                 "Each call is one deterministic transaction; RAISE EXCEPTION to roll it back.", line);
    s->plpgsql_what = commit ? "at COMMIT" : "at ROLLBACK";
    return out.push_back(std::move(s));
  }
  if (type == "PLpgSQL_stmt_call") return BindCall(st, out);
  Unsupported(fmt::format("the PL/pgSQL statement {}", type.substr(std::string_view("PLpgSQL_stmt_").size())), line);
}

void ProcedureBinder::BindBlock(const json& st, Block& out) {
  bool top_level = !top_level_done_;
  top_level_done_ = true;
  scope_.PushBlock(st.value("label", ""));
  // As in PL/pgSQL, the block's variables are initialised before its subtransaction
  // starts: an error there is not the handlers' to catch.
  DeclareBlockVariables(st, out, top_level);
  const int block_line = line_;
  Block body = BindStatements(st.value("body", json::array()));
  if (st.contains("exceptions")) {
    line_ = block_line;
    out.push_back(BindExceptionHandlers(Get(Get(st, "exceptions"), "PLpgSQL_exception_block"), std::move(body)));
  } else {
    for (auto& s : body) out.push_back(std::move(s));
  }
  scope_.PopBlock();
}

// The handlers of a block whose statements are `body`: SQLSTATE and SQLERRM (PL/pgSQL's
// datums, made where EXCEPTION stands) and hidden slots for the rest of the error, then
// each WHEN's conditions and statements.
StmtPtr ProcedureBinder::BindExceptionHandlers(const json& exceptions, Block body) {
  auto s = NewStmt(StmtKind::kExceptionBlock, line_);
  s->body = std::move(body);
  const SqlType text = SqlType::Of(TypeId::kText);
  s->error_slots.assign(kErrorSlotCount, -1);
  for (int field : {kErrorSqlstate, kErrorMessage}) {
    const std::string name = field == kErrorSqlstate ? "sqlstate" : "sqlerrm";
    const int slot = AddVariable(name, text, VariableKind::kLocal);
    ir_->variables[slot].constant = true;
    s->error_slots[field] = slot;
    for (size_t at = cursor_; at < datums_.size(); ++at)
      if (NodeType(datums_[at]) == "PLpgSQL_var" && NodeBody(datums_[at]).value("refname", "") == name) {
        datum_info_.resize(std::max(datum_info_.size(), at + 1));
        datum_info_[at].slot = slot;
        if (at == cursor_) ++cursor_;
        break;
      }
  }
  for (int field : {kErrorDetail, kErrorHint, kErrorContext}) {
    static constexpr const char* kNames[] = {"", "", "$error_detail", "$error_hint", "$error_context"};
    s->error_slots[field] = AddVariable(kNames[field], text, VariableKind::kLocal);
  }
  for (const json& node : exceptions.value("exc_list", json::array())) {
    const json& handler = Get(node, "PLpgSQL_exception");
    std::vector<std::string> codes;
    for (const json& c : handler.value("conditions", json::array())) {
      const std::string name = Get(c, "PLpgSQL_condition").value("condname", "");
      if (Lower(name) == "others") {
        codes.push_back("OTHERS");
      } else if (IsSqlstate(name)) {  // WHEN SQLSTATE '22012' (libpg_query checked its form)
        codes.push_back(name);
      } else {
        std::vector<std::string_view> known = SqlstatesOfCondition(Lower(name));
        if (known.empty())
          throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized exception condition \"{}\"", name));
        for (std::string_view k : known) codes.emplace_back(k);
      }
    }
    scope_.PushBlock("");
    scope_.Declare("sqlstate", s->error_slots[kErrorSqlstate]);
    scope_.Declare("sqlerrm", s->error_slots[kErrorMessage]);
    handler_errors_.push_back(s->error_slots);
    Block action = BindStatements(handler.value("action", json::array()));
    handler_errors_.pop_back();
    scope_.PopBlock();
    s->handler_conditions.push_back(std::move(codes));
    s->blocks.push_back(std::move(action));
  }
  return s;
}

StmtPtr ProcedureBinder::BindAssign(const json& st) {
  int slot = SlotOfVarno(st.value("varno", 0), line_);
  std::string query = QueryOf(Get(st, "expr"));
  // "target := value" (or "target = value"): the value is what follows the operator.
  size_t op = query.find(":=");
  size_t value_at = op == std::string::npos ? std::string::npos : op + 2;
  if (op == std::string::npos) {
    op = query.find('=');
    if (op != std::string::npos) value_at = op + 1;
  }
  if (value_at == std::string::npos) throw SqlError(sqlstate::kSyntaxError, fmt::format("invalid assignment \"{}\"", query));
  std::string target = Trim(std::string_view(query).substr(0, op));
  CheckAssignable(slot, line_);
  auto s = NewStmt(StmtKind::kAssign, line_);
  s->target = slot;
  std::string value = query.substr(value_at);
  assignment_context_ = fmt::format("PL/pgSQL assignment \"{}\"", query);
  struct Clear {
    std::string& context;
    ~Clear() { context.clear(); }
  } clear{assignment_context_};
  // `label.var` is resolved already (varno); `var[i]` is an element of an array variable.
  s->value = target.find('[') == std::string::npos ? BindAssignmentTo(value, line_, slot)
                                                   : BindElementAssignment(target, value, slot);
  return s;
}

// `var[i] := value` as `var := array_set(var, i, value)`: the whole variable is assigned,
// so the analyses and code generation see an ordinary assignment.
ExprPtr ProcedureBinder::BindElementAssignment(const std::string& target, const std::string& value, int slot) {
  const Variable& v = ir_->variables[slot];
  ExprPtr element = BindExpr(target, line_, [](ExprBinder& b, const PgQuery__Node* n) { return b.Bind(n); });
  if (element->kind != ExprKind::kSubscript || element->args[0]->kind != ExprKind::kSlot ||
      element->args[0]->slot != Slot{SlotSpace::kVariable, slot})
    Unsupported(fmt::format("assignment to \"{}\"", target), line_, "Assign to one element of a one-dimensional array variable.");
  SqlType element_type = v.type.Element();
  std::string name = v.name;
  std::vector<ExprPtr> args;
  args.push_back(std::move(element->args[0]));
  args.push_back(std::move(element->args[1]));
  args.push_back(BindExpr(value, line_, [&](ExprBinder& b, const PgQuery__Node* n) {
    return Coerce(b.Bind(n), element_type, CastContext::kAssignment, name);
  }));
  return MakeCall(Func::kArraySet, v.type, std::move(args), element->location);
}

StmtPtr ProcedureBinder::BindIf(const json& st) {
  auto s = NewStmt(StmtKind::kIf, line_);
  s->conds.push_back(BindCondition(Get(st, "cond"), line_, "IF"));
  s->blocks.push_back(BindStatements(st.value("then_body", json::array())));
  // An ELSIF whose condition runs a query starts a nested IF in the ELSE branch, after
  // that query: it runs only when the conditions before it were not true.
  Stmt* innermost = s.get();
  for (const json& e : st.value("elsif_list", json::array())) {
    const json& elsif = Get(e, "PLpgSQL_if_elsif");
    int line = elsif.value("lineno", line_);
    Block outer_pending = TakePending();
    ExprPtr cond = BindCondition(Get(elsif, "cond"), line, "ELSIF");
    Block queries = TakePending();
    pending_ = std::move(outer_pending);
    if (!queries.empty()) {
      auto nested = NewStmt(StmtKind::kIf, line);
      Stmt* next = nested.get();
      for (StmtPtr& q : queries) innermost->else_block.push_back(std::move(q));
      innermost->else_block.push_back(std::move(nested));
      innermost = next;
    }
    innermost->conds.push_back(std::move(cond));
    innermost->blocks.push_back(BindStatements(elsif.value("stmts", json::array())));
  }
  innermost->else_block = BindStatements(st.value("else_body", json::array()));
  return s;
}

StmtPtr ProcedureBinder::BindCase(const json& st, Block& out) {
  // CASE x WHEN a THEN ... : PL/pgSQL evaluates x once into a hidden variable that the
  // WHEN tests name ("__Case__Variable_N__ IN (a)").
  if (st.contains("t_expr")) {
    SkipRowDatums();
    if (cursor_ >= datums_.size()) throw SqlError(sqlstate::kInternalError, "internal error: CASE variable missing");
    const json& d = NodeBody(datums_[cursor_]);
    ExprPtr value = BindValue(Get(st, "t_expr"), line_);
    int slot = AddVariable(d.value("refname", "$case"), value->type.Base(), VariableKind::kTemp);
    datum_info_.resize(std::max(datum_info_.size(), cursor_ + 1));
    datum_info_[cursor_].slot = slot;
    ++cursor_;
    scope_.Declare(ir_->variables[slot].name, slot);
    auto assign = NewStmt(StmtKind::kAssign, line_);
    assign->target = slot;
    assign->value = std::move(value);
    out.push_back(std::move(assign));
  }
  auto s = NewStmt(StmtKind::kIf, line_);
  for (const json& w : st.value("case_when_list", json::array())) {
    const json& when = Get(w, "PLpgSQL_case_when");
    int line = when.value("lineno", line_);
    s->conds.push_back(BindCondition(Get(when, "expr"), line, "CASE"));
    if (!pending_.empty())
      Unsupported("a query in a CASE statement's WHEN", line, "Compute it into a variable before the CASE.");
    s->blocks.push_back(BindStatements(when.value("stmts", json::array())));
  }
  if (st.value("have_else", false)) {
    s->else_block = BindStatements(st.value("else_stmts", json::array()));
  } else {
    s->else_block.push_back(CheckRaise("20000", "case not found", "CASE statement is missing ELSE part.", line_));
  }
  return s;
}

StmtPtr ProcedureBinder::BindForRange(const json& st) {
  auto s = NewStmt(StmtKind::kForRange, line_);
  s->label = st.value("label", "");
  SqlType int4 = SqlType::Of(TypeId::kInt4);
  auto bound = [&](const json& e) {
    return BindExpr(QueryOf(e), line_, [&](ExprBinder& b, const PgQuery__Node* n) {
      return Coerce(b.Bind(n), int4, CastContext::kAssignment);
    });
  };
  s->lower = bound(Get(st, "lower"));
  s->upper = bound(Get(st, "upper"));
  if (st.contains("step")) s->step = bound(Get(st, "step"));
  s->reverse = st.value("reverse", false);
  scope_.PushBlock(s->label);
  s->target = DeclareLoopVariable(Get(st, "var"));
  scope_.Declare(ir_->variables[s->target].name, s->target);
  loop_labels_.push_back(s->label);
  s->body = BindStatements(st.value("body", json::array()));
  loop_labels_.pop_back();
  scope_.PopBlock();
  return s;
}

StmtPtr ProcedureBinder::BindForEach(const json& st) {
  if (st.value("slice", 0) != 0) Unsupported("FOREACH ... SLICE", line_);
  auto s = NewStmt(StmtKind::kForEach, line_);
  s->label = st.value("label", "");
  s->target = SlotOfVarno(st.value("varno", 0), line_);
  CheckAssignable(s->target, line_);
  s->value = BindValue(Get(st, "expr"), line_);
  if (!s->value->type.is_array())
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("FOREACH expression must yield an array, not type {}", s->value->type.Name()));
  // The element is assigned with assignment coercion, as PL/pgSQL does.
  ExprPtr probe = MakeConst(Datum::Null(), s->value->type.Element());
  Coerce(std::move(probe), ir_->variables[s->target].type, CastContext::kAssignment, ir_->variables[s->target].name);
  scope_.PushBlock(s->label);
  loop_labels_.push_back(s->label);
  s->body = BindStatements(st.value("body", json::array()));
  loop_labels_.pop_back();
  scope_.PopBlock();
  return s;
}

// FOR targets IN SELECT ... LOOP body END LOOP, as
//   $forN_0, $forN_1, ..., $forN_rows := the query's columns as arrays, its row count;
//   FOR $forN_i IN 1..$forN_rows LOOP targets := $forN_c[$forN_i]; body END LOOP
// so that the read, the loop and the writes in the body are the ordinary statements
// the analyses already classify (writes keyed by a target are `dependent`).
StmtPtr ProcedureBinder::BindRowCollector(const std::string& query, const std::string& prefix) {
  StmtPtr read;
  try {
    PgParse parse = PgParse::Parse(query);
    if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
      throw NotSupported("FOR over anything but a SELECT").WithHint("Loop over a SELECT of the rows the statement would touch.");
    TableStatementBinder binder(catalog_, &scope_);
    read = binder.BindSelect(parse.statement(0)->select_stmt, StmtKind::kSelectInto);
  } catch (SqlError& e) {
    e.ShiftLocation(LocateInStatement(query, line_));
    throw;
  }
  read->line = line_;
  read->sql_text = query;
  read->collect = true;
  const std::vector<OutputColumn>& columns = QueryColumns(*read);
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type.is_array()) Unsupported("FOR over a query with an array column", line_, "Select the array's elements instead.");
    read->into.push_back(AddVariable(fmt::format("{}{}", prefix, c), SqlType::ArrayOf(columns[c].type), VariableKind::kTemp));
  }
  // The row count is the last INTO target: to the analyses, one more value of the read.
  read->into.push_back(AddVariable(prefix + "rows", SqlType::Of(TypeId::kInt4), VariableKind::kTemp));
  return read;
}

void ProcedureBinder::AssignRowTargets(const Stmt& read, const std::vector<OutputColumn>& columns, int index,
                                       const std::vector<int>& targets, Block& out) {
  const SqlType int4 = SqlType::Of(TypeId::kInt4);
  for (size_t t = 0; t < targets.size(); ++t) {
    const Variable& v = ir_->variables[targets[t]];
    ExprPtr value;
    if (t < columns.size()) {
      value = std::make_unique<Expr>();
      value->kind = ExprKind::kSubscript;
      value->type = columns[t].type;
      value->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, read.into[t]}, ir_->variables[read.into[t]].type));
      value->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, index}, int4));
      value = Coerce(std::move(value), v.type, CastContext::kAssignment, v.name);
    } else {
      value = MakeConst(Datum::Null(), v.type);
    }
    auto assign = NewStmt(StmtKind::kAssign, line_);
    assign->target = targets[t];
    assign->value = std::move(value);
    out.push_back(std::move(assign));
  }
}

void ProcedureBinder::BindLoopBody(const json& st, Stmt& loop) {
  scope_.PushBlock(loop.label);
  loop_labels_.push_back(loop.label);
  Block body = BindStatements(st.value("body", json::array()));
  loop_labels_.pop_back();
  scope_.PopBlock();
  for (StmtPtr& b : body) loop.body.push_back(std::move(b));
}

void ProcedureBinder::BindForQuery(const json& st, Block& out) {
  std::vector<int> row_fields;
  std::string record = RecordTarget(Get(st, "var"), &row_fields);
  std::vector<int> targets;
  if (record.empty()) targets = IntoTargets(Get(st, "var"), line_);
  if (!row_fields.empty()) {  // a %ROWTYPE record: its fields, as a target list
    targets = row_fields;
    record.clear();
  }
  const int n = for_queries_++;
  StmtPtr read = BindRowCollector(QueryOf(Get(st, "query")), fmt::format("$for{}_", n));
  const std::vector<OutputColumn>& columns = QueryColumns(*read);
  const SqlType int4 = SqlType::Of(TypeId::kInt4);
  // The record's fields are variables of the columns' types, read as record.column from
  // here on (a later query that assigns the record gives it other fields).
  if (!record.empty()) targets = SetRecordShape(record, columns);

  auto loop = NewStmt(StmtKind::kForRange, line_);
  loop->label = st.value("label", "");
  loop->lower = MakeConst(Datum::Int(1), int4);
  loop->upper = MakeSlot(Slot{SlotSpace::kVariable, read->into.back()}, int4);
  loop->target = AddVariable(fmt::format("$for{}_i", n), int4, VariableKind::kLoopVar);
  // Each iteration assigns every target: a column's element, NULL past the last column
  // (PL/pgSQL's rule for a target list longer than the row).
  AssignRowTargets(*read, columns, loop->target, targets, loop->body);
  BindLoopBody(st, *loop);
  out.push_back(std::move(read));
  out.push_back(std::move(loop));
}

StmtPtr ProcedureBinder::BindLoop(const json& st, bool with_condition) {
  auto s = NewStmt(StmtKind::kWhile, line_);
  s->label = st.value("label", "");
  Block queries;
  if (with_condition) {
    Block outer_pending = TakePending();
    s->conds.push_back(BindCondition(Get(st, "cond"), line_, "WHILE"));
    queries = TakePending();
    pending_ = std::move(outer_pending);
    if (!queries.empty()) {
      // WHILE over a query: a plain LOOP that runs the query, then exits unless the
      // condition is true, at the top of every iteration.
      auto exit = NewStmt(StmtKind::kExit, line_);
      exit->label = s->label;
      auto not_true = MakeExpr(ExprKind::kBoolTest, SqlType::Of(TypeId::kBool));
      not_true->op = Op::kEq;  // IS NOT TRUE: FALSE and NULL end the loop
      not_true->negated = true;
      not_true->args.push_back(std::move(s->conds[0]));
      exit->conds.push_back(std::move(not_true));
      s->conds.clear();
      queries.push_back(std::move(exit));
    }
  }
  scope_.PushBlock(s->label);
  loop_labels_.push_back(s->label);
  s->body = BindStatements(st.value("body", json::array()));
  if (!queries.empty())
    s->body.insert(s->body.begin(), std::make_move_iterator(queries.begin()), std::make_move_iterator(queries.end()));
  loop_labels_.pop_back();
  scope_.PopBlock();
  return s;
}

StmtPtr ProcedureBinder::BindExit(const json& st) {
  bool is_exit = st.value("is_exit", false);
  auto s = NewStmt(is_exit ? StmtKind::kExit : StmtKind::kContinue, line_);
  s->label = st.value("label", "");
  const char* what = is_exit ? "EXIT" : "CONTINUE";
  if (s->label.empty()) {
    if (loop_labels_.empty())
      throw SqlError(sqlstate::kSyntaxError, is_exit ? "EXIT cannot be used outside a loop, unless it has a label"
                                                     : "CONTINUE cannot be used outside a loop");
  } else if (std::find(loop_labels_.begin(), loop_labels_.end(), s->label) == loop_labels_.end()) {
    throw SqlError(sqlstate::kSyntaxError,
                   fmt::format("there is no label \"{}\" attached to any block or loop enclosing this statement", s->label));
  }
  (void)what;
  if (st.contains("cond")) s->conds.push_back(BindCondition(Get(st, "cond"), line_, is_exit ? "EXIT WHEN" : "CONTINUE WHEN"));
  return s;
}

// The writes in `s` (itself, or inside it) whose RETURNING an INTO assigns.
void WritesReturning(Stmt& s, std::vector<Stmt*>& out) {
  if ((s.kind == StmtKind::kInsert || s.kind == StmtKind::kUpdate || s.kind == StmtKind::kDelete) && !s.returning.empty())
    out.push_back(&s);
  for (StmtPtr& b : s.body) WritesReturning(*b, out);
  for (Block& block : s.blocks)
    for (StmtPtr& b : block) WritesReturning(*b, out);
  for (StmtPtr& b : s.else_block) WritesReturning(*b, out);
}

void ProcedureBinder::BindExecSql(const json& st, Block& out) {
  std::string query = QueryOf(Get(st, "sqlstmt"));
  int at = LocateInStatement(query, line_);
  bool into = st.value("into", false);
  bool strict = st.value("strict", false);
  std::vector<int> targets;
  std::vector<int> row_fields;
  // A `record` target takes the shape of the row it is given; a %ROWTYPE one is its
  // fields, in order, as a target list.
  const std::string record = into ? RecordTarget(Get(st, "target"), &row_fields) : std::string();
  if (into && record.empty()) targets = IntoTargets(Get(st, "target"), line_);
  if (into && !row_fields.empty()) targets = row_fields;
  const bool shape_record = !record.empty() && row_fields.empty();
  try {
    PgParse parse = PgParse::Parse(query);
    if (parse.size() != 1) throw SqlError(sqlstate::kSyntaxError, "one statement expected");
    const PgQuery__Node* n = parse.statement(0);
    TableStatementBinder binder(catalog_, &scope_, &loops_);
    std::vector<StmtPtr> stmts;
    switch (n->node_case) {
      case PG_QUERY__NODE__NODE_SELECT_STMT:
        if (!into)
          throw SqlError(sqlstate::kSyntaxError, "query has no destination for result data")
              .WithHint("If you want to discard the results of a SELECT, use PERFORM instead.");
        // After data-modifying WITH queries, their writes and then the SELECT INTO.
        if (HasDataModifyingCte(n->select_stmt->with_clause)) stmts = binder.BindSelectWithWrites(n->select_stmt, StmtKind::kSelectInto);
        else stmts.push_back(binder.BindSelect(n->select_stmt, StmtKind::kSelectInto));
        break;
      case PG_QUERY__NODE__NODE_INSERT_STMT: stmts = binder.BindInsert(n->insert_stmt); break;
      case PG_QUERY__NODE__NODE_UPDATE_STMT: stmts = binder.BindUpdate(n->update_stmt); break;
      case PG_QUERY__NODE__NODE_DELETE_STMT: stmts = binder.BindDelete(n->delete_stmt); break;
      default:
        throw NotSupported("this SQL statement in a procedure body")
            .WithHint("Procedures may SELECT, INSERT, UPDATE and DELETE; run DDL outside them.");
    }
    const bool loop_form = n->node_case != PG_QUERY__NODE__NODE_SELECT_STMT && !stmts.empty() && stmts[0]->collect;
    if (into && loop_form) {
      ReturningIntoOfLoop(stmts, targets, shape_record ? record : std::string(), strict, binder.returning_columns());
      for (StmtPtr& s : stmts) {
        SetSource(*s, line_, query);
        out.push_back(std::move(s));
      }
      return;
    }
    // The statement INTO assigns: the first write of a multi-row INSERT, the SELECT after
    // a WITH's writes.
    size_t into_at = n->node_case == PG_QUERY__NODE__NODE_SELECT_STMT ? stmts.size() - 1 : 0;
    // A write with triggers around it (binder/row_triggers.h): its first row's writes,
    // which may not run (a BEFORE trigger skips the row): the targets start NULL.
    std::vector<Stmt*> woven;
    if (into && n->node_case != PG_QUERY__NODE__NODE_SELECT_STMT && !stmts.empty() && stmts[0]->returning.empty())
      for (size_t i = 0; i < stmts.size() && woven.empty(); ++i) {
        WritesReturning(*stmts[i], woven);
        if (!woven.empty() && woven.front() != stmts[i].get()) into_at = i;
      }
    if (!woven.empty() && woven.front() != stmts[into_at].get()) {
      if (shape_record) targets = SetRecordShape(record, binder.returning_columns());
      ClearTargets(targets, out);
      for (Stmt* w : woven) {
        w->into = targets;
        w->strict = strict;
      }
      for (StmtPtr& st : stmts) {
        SetSource(*st, line_, query);
        out.push_back(std::move(st));
      }
      return;
    }
    for (size_t i = 0; i < stmts.size(); ++i) {
      Stmt& s = *stmts[i];
      SetSource(s, line_, query);
      if (into && i == into_at && s.kind != StmtKind::kSelectInto && s.returning.empty())
        throw SqlError(sqlstate::kSyntaxError, "INTO used with a command that cannot return data");
      if (into && i == into_at) {
        if (shape_record)
          targets = SetRecordShape(record, s.kind == StmtKind::kSelectInto ? QueryColumns(s)
                                                                                     : binder.returning_columns());
        s.into = targets;
        s.strict = strict;
        if (s.kind == StmtKind::kSelectInto && s.select) {
          for (size_t k = 1; k < s.select->outputs.size() && !s.into_reads_targets; ++k) {
            const std::set<int> read = VariablesOf(s.select->outputs[k].get());
            for (size_t j = 0; j < k && j < s.into.size(); ++j) s.into_reads_targets |= read.count(s.into[j]) > 0;
          }
        }
        // PL/pgSQL (without extra_errors) tolerates a column count that differs from the
        // targets: extra columns are dropped, missing ones leave NULL.
      }
      out.push_back(std::move(stmts[i]));
    }
  } catch (SqlError& e) {
    e.ShiftLocation(at);
    throw;
  }
}

void ProcedureBinder::ClearTargets(const std::vector<int>& targets, Block& out) const {
  for (int t : targets) {
    auto clear = NewStmt(StmtKind::kAssign, line_);
    clear->target = t;
    clear->value = MakeConst(Datum::Null(), ir_->variables[static_cast<size_t>(t)].type);
    out.push_back(std::move(clear));
  }
}

// RETURNING ... INTO of a set-based write (a loop: table_statement_binder.h): each row's
// write assigns the targets, which start NULL; afterwards more than one row is P0003 and,
// with STRICT, none P0002, as PL/pgSQL checks a RETURNING INTO (the loop's writes are
// undone with the call).
void ProcedureBinder::ReturningIntoOfLoop(std::vector<StmtPtr>& stmts, std::vector<int> targets, const std::string& record,
                                          bool strict, const std::vector<OutputColumn>& returning) {
  std::vector<Stmt*> writes;  // the loop's write (two with triggers around an upsert)
  for (StmtPtr& s : stmts) WritesReturning(*s, writes);
  if (writes.empty()) throw SqlError(sqlstate::kSyntaxError, "INTO used with a command that cannot return data");
  if (!record.empty()) targets = SetRecordShape(record, returning);
  for (Stmt* write : writes) write->into = targets;
  std::vector<StmtPtr> out;
  ClearTargets(targets, out);
  for (StmtPtr& s : stmts) out.push_back(std::move(s));
  const int count = ir_->row_count_variable;  // the loop sets it to the rows written
  auto check = [&](Op op, int64_t rows, const char* sqlstate, const char* message, const char* hint) {
    auto cond = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
    cond->op = op;
    cond->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, count}, SqlType::Of(TypeId::kInt8)));
    cond->args.push_back(MakeConst(Datum::Int(rows), SqlType::Of(TypeId::kInt8)));
    out.push_back(RaiseIf(std::move(cond), sqlstate, message, hint, line_));
  };
  check(Op::kGt, 1, "P0003", "query returned more than one row", "Make sure the query returns a single row, or use LIMIT 1.");
  if (strict) check(Op::kEq, 0, "P0002", "query returned no rows", nullptr);
  stmts = std::move(out);
}

// GET [CURRENT] DIAGNOSTICS target = ROW_COUNT, ...: one assignment per item, from the
// hidden ROW_COUNT variable (made on first use: a procedure without GET DIAGNOSTICS does
// not keep a count).
void ProcedureBinder::BindGetDiagnostics(const json& st, Block& out) {
  if (st.value("is_stacked", false)) return BindGetStackedDiagnostics(st, out);
  for (const json& node : st.value("diag_items", json::array())) {
    const json& item = NodeBody(node);
    const std::string kind = item.value("kind", "");
    if (kind != "ROW_COUNT") Unsupported(fmt::format("GET DIAGNOSTICS {}", kind), line_, "ROW_COUNT is the item supported.");
    const int slot = SlotOfVarno(item.value("target", 0), line_);
    CheckAssignable(slot, line_);
    if (ir_->row_count_variable < 0)
      ir_->row_count_variable = AddVariable("$row_count", SqlType::Of(TypeId::kInt8), VariableKind::kRowCount);
    const Variable& target = ir_->variables[slot];
    auto s = NewStmt(StmtKind::kAssign, line_);
    s->target = slot;
    s->value = Coerce(MakeSlot(Slot{SlotSpace::kVariable, ir_->row_count_variable}, SqlType::Of(TypeId::kInt8)),
                      target.type, CastContext::kAssignment, target.name);
    out.push_back(std::move(s));
  }
}

// GET STACKED DIAGNOSTICS in a handler: assignments from the caught error's slots.
// Outside one it fails when it runs, as in PL/pgSQL.
void ProcedureBinder::BindGetStackedDiagnostics(const json& st, Block& out) {
  if (handler_errors_.empty()) {
    auto s = NewStmt(StmtKind::kRaise, line_);
    s->sqlstate = "0Z002";
    s->message = "GET STACKED DIAGNOSTICS cannot be used outside an exception handler";
    out.push_back(std::move(s));
    return;
  }
  const std::vector<int>& error = handler_errors_.back();
  for (const json& node : st.value("diag_items", json::array())) {
    const json& item = NodeBody(node);
    const std::string kind = item.value("kind", "");
    int field = kind == "RETURNED_SQLSTATE"      ? kErrorSqlstate
                : kind == "MESSAGE_TEXT"         ? kErrorMessage
                : kind == "PG_EXCEPTION_DETAIL"  ? kErrorDetail
                : kind == "PG_EXCEPTION_HINT"    ? kErrorHint
                : kind == "PG_EXCEPTION_CONTEXT" ? kErrorContext
                                                 : -1;
    if (field < 0)
      Unsupported(fmt::format("GET STACKED DIAGNOSTICS {}", kind), line_,
                  "RETURNED_SQLSTATE, MESSAGE_TEXT, PG_EXCEPTION_DETAIL, PG_EXCEPTION_HINT and PG_EXCEPTION_CONTEXT are "
                  "the items supported.");
    const int slot = SlotOfVarno(item.value("target", 0), line_);
    CheckAssignable(slot, line_);
    const Variable& target = ir_->variables[slot];
    auto s = NewStmt(StmtKind::kAssign, line_);
    s->target = slot;
    s->value = Coerce(MakeSlot(Slot{SlotSpace::kVariable, error[field]}, SqlType::Of(TypeId::kText)), target.type,
                      CastContext::kAssignment, target.name);
    out.push_back(std::move(s));
  }
}

StmtPtr ProcedureBinder::BindPerform(const json& st) {
  std::string query = QueryOf(Get(st, "expr"));
  int at = LocateInStatement(query.substr(std::min<size_t>(query.size(), 7)), line_);
  try {
    PgParse parse = PgParse::Parse(query);
    if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
      throw SqlError(sqlstate::kSyntaxError, "PERFORM needs a query");
    TableStatementBinder binder(catalog_, &scope_);
    StmtPtr s = binder.BindSelect(parse.statement(0)->select_stmt, StmtKind::kSelectInto);
    s->line = line_;
    s->sql_text = query;
    return s;
  } catch (SqlError& e) {
    // PERFORM's text is "SELECT " + what the user wrote after PERFORM.
    e.ShiftLocation(at < 0 ? -1 : at - 7);
    throw;
  }
}

void ProcedureBinder::BindCall(const json& st, Block& out) {
  std::string text = QueryOf(Get(st, "expr"));
  int at = LocateInStatement(text, line_);
  try {
    PgParse parse = PgParse::Parse(text);
    if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_CALL_STMT)
      throw SqlError(sqlstate::kSyntaxError, "CALL needs a procedure call");
    const PgQuery__FuncCall* call = parse.statement(0)->call_stmt->funccall;
    std::vector<std::string> names = NameList(call->funcname, call->n_funcname);
    if (names.size() > 2 || (names.size() == 2 && names[0] != "public"))
      throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]), call->location);
    ExprBinder binder(&scope_, &catalog_);
    RoutineArgs args = BindRoutineArgs(call, binder);
    if (catalog_.FindProcedures(names.back()).empty())
      if (const PendingRoutine* pending = catalog_.FindPendingRoutine(names.back())) throw pending->error;
    std::shared_ptr<const ProcedureIr> routine =
        ChooseRoutine(names.back(), catalog_.FindProcedures(names.back()), args, /*call=*/true, false, call->location);
    const std::vector<int> slots = ArgumentSlots(*routine, true);
    const std::vector<int> arranged = *Arrange(*routine, slots, args);
    // The variable each OUT / INOUT parameter's value goes back to.
    std::vector<int> targets;
    for (int o : routine->out_variables) {
      const size_t i = static_cast<size_t>(std::ranges::find(slots, o) - slots.begin());
      const int arg = i < arranged.size() ? arranged[i] : -1;
      const Expr* given = arg >= 0 ? args.exprs[static_cast<size_t>(arg)].get() : nullptr;
      if (given == nullptr || given->kind != ExprKind::kSlot || given->slot.space != SlotSpace::kVariable)
        throw SqlError(sqlstate::kSyntaxError,
                       fmt::format("procedure parameter \"{}\" is an output parameter but corresponding argument is not "
                                   "writable",
                                   routine->variables[static_cast<size_t>(o)].name));
      CheckAssignable(given->slot.index, line_);
      targets.push_back(given->slot.index);
    }
    // With OUT parameters the call's value is their row, as an array of the values.
    const SqlType type = targets.empty() ? SqlType::Of(TypeId::kText) : SqlType::ArrayOf(SqlType::Of(TypeId::kText));
    const std::shared_ptr<const ProcedureIr> callee = routine;
    ExprPtr e = RoutineCallExpr(std::move(routine), args, /*call=*/true, type, call->location);
    const std::string name = fmt::format("$call{}", ++calls_);
    const int slot = AddVariable(name, type, VariableKind::kTemp);
    auto s = NewStmt(StmtKind::kAssign, line_);
    s->target = slot;
    s->value = std::move(e);
    s->sql_text = text;  // PL/pgSQL runs CALL as an SQL statement: its CONTEXT quotes it
    out.push_back(std::move(s));
    for (size_t k = 0; k < targets.size(); ++k) {
      const Variable& param = callee->variables[static_cast<size_t>(callee->out_variables[k])];
      auto element = MakeExpr(ExprKind::kSubscript, param.type);
      element->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, slot}, type));
      element->args.push_back(MakeConst(Datum::Int(static_cast<int64_t>(k) + 1), SqlType::Of(TypeId::kInt4)));
      const Variable& target = ir_->variables[static_cast<size_t>(targets[k])];
      auto assign = NewStmt(StmtKind::kAssign, line_);
      assign->target = targets[k];
      assign->value = Coerce(std::move(element), target.type, CastContext::kAssignment, target.name);
      out.push_back(std::move(assign));
    }
  } catch (SqlError& e) {
    e.ShiftLocation(at);
    throw;
  }
}

StmtPtr ProcedureBinder::BindReturnQuery(const json& st) {
  if (st.contains("dynquery")) Unsupported("RETURN QUERY EXECUTE", line_, "Write the query directly.");
  if (ir_->returns != ProcedureIr::Returns::kTable && ir_->returns != ProcedureIr::Returns::kSetOf)
    throw SqlError(sqlstate::kSyntaxError, "cannot use RETURN QUERY in a non-SETOF function");
  std::string query = QueryOf(Get(st, "query"));
  int at = LocateInStatement(query, line_);
  try {
    PgParse parse = PgParse::Parse(query);
    if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
      throw SqlError(sqlstate::kSyntaxError, "RETURN QUERY needs a SELECT");
    TableStatementBinder binder(catalog_, &scope_);
    StmtPtr s = binder.BindSelect(parse.statement(0)->select_stmt, StmtKind::kReturnQuery);
    s->line = line_;
    s->sql_text = query;
    const auto& columns = QueryColumns(*s);
    if (ir_->returns_record && ir_->result_columns.empty())  // the first result gives the shape
      for (const OutputColumn& c : columns) ir_->result_columns.push_back({c.name, c.type});
    if (columns.size() != ir_->result_columns.size())
      throw SqlError(sqlstate::kDatatypeMismatch, "structure of query does not match function result type")
          .WithDetail(fmt::format("Number of returned columns ({}) does not match expected column count ({}).",
                                  columns.size(), ir_->result_columns.size()));
    for (size_t c = 0; c < columns.size(); ++c) {
      // PostgreSQL requires the exact type (modifiers aside: a function's result columns
      // have none), as convert_tuples_by_position does when the statement runs; we check
      // when the procedure is created.
      const SqlType& got = columns[c].type;
      const SqlType& want = ir_->result_columns[c].type;
      if (!SameRowColumnType(got, want))
        throw SqlError(sqlstate::kDatatypeMismatch, "structure of query does not match function result type")
            .WithDetail(fmt::format("Returned type {} does not match expected type {} in column {}.",
                                    columns[c].type.Name(), ir_->result_columns[c].type.Name(), c + 1));
    }
    return s;
  } catch (SqlError& e) {
    e.ShiftLocation(at);
    throw;
  }
}

StmtPtr ProcedureBinder::BindReturn(const json& st) {
  auto s = NewStmt(StmtKind::kReturn, line_);
  bool has_value = st.contains("expr");
  if (ir_->kind == ProcedureIr::Kind::kProcedure) {
    if (has_value) throw SqlError(sqlstate::kDatatypeMismatch, "RETURN cannot have a parameter in a procedure");
    return s;
  }
  switch (ir_->returns) {
    case ProcedureIr::Returns::kVoid:
      if (has_value) throw SqlError(sqlstate::kDatatypeMismatch, "RETURN cannot have a parameter in function returning void");
      return s;
    case ProcedureIr::Returns::kTable:
    case ProcedureIr::Returns::kSetOf:
      if (has_value)
        throw SqlError(sqlstate::kDatatypeMismatch, "RETURN cannot have a parameter in function returning set")
            .WithHint("Use RETURN NEXT or RETURN QUERY.");
      return s;
    case ProcedureIr::Returns::kScalar:
      if (has_out_parameters_) {
        if (has_value)
          throw SqlError(sqlstate::kDatatypeMismatch, "RETURN cannot have a parameter in function with OUT parameters");
        return s;
      }
      if (!has_value) throw SqlError(sqlstate::kSyntaxError, "missing expression at or near \";\"");
      {
        SqlType type = ir_->result_columns[0].type;
        s->value = BindExpr(QueryOf(Get(st, "expr")), line_, [&](ExprBinder& b, const PgQuery__Node* n) {
          return Coerce(b.Bind(n), type, CastContext::kAssignment);
        });
        // PL/pgSQL converts the value to the result type on the function's way out (its
        // errors say "while casting return value"): the executors cast it there.
        if (s->value->kind == ExprKind::kCast && !s->value->explicit_cast) s->value = std::move(s->value->args[0]);
      }
      return s;
  }
  return s;
}

StmtPtr ProcedureBinder::BindReturnNext(const json& st) {
  auto s = NewStmt(StmtKind::kReturnNext, line_);
  if (ir_->returns != ProcedureIr::Returns::kTable && ir_->returns != ProcedureIr::Returns::kSetOf)
    throw SqlError(sqlstate::kSyntaxError, "cannot use RETURN NEXT in a non-SETOF function");
  // The JSON leaves RETURN NEXT's expression out: take the next one found on this line.
  std::string query;
  for (size_t i = return_next_used_; i < body_.return_next.size(); ++i)
    if (body_.return_next[i].first == line_) {
      query = body_.return_next[i].second;
      return_next_used_ = i + 1;
      break;
    }
  if (query.empty() && has_out_parameters_) return s;  // the OUT parameters' current values
  if (has_out_parameters_)
    throw SqlError(sqlstate::kSyntaxError, "RETURN NEXT cannot have a parameter in function with OUT parameters");
  if (query.empty()) throw SqlError(sqlstate::kSyntaxError, "RETURN NEXT must have a parameter");
  if (ir_->returns == ProcedureIr::Returns::kTable) return ReturnNextRecord(std::move(s), query);
  SqlType type = ir_->result_columns[0].type;
  s->args.push_back(BindExpr(query, line_, [&](ExprBinder& b, const PgQuery__Node* n) {
    return Coerce(b.Bind(n), type, CastContext::kAssignment);
  }));
  return s;
}

StmtPtr ProcedureBinder::ReturnNextRecord(StmtPtr s, const std::string& query) {
  // RETURN NEXT r of SETOF record / SETOF t: r's fields by position, of exactly the result
  // columns' types, as PostgreSQL's convert_tuples_by_position wants them (it checks when
  // the statement runs; we check here).
  std::string name = query;
  std::erase_if(name, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  const auto* fields = scope_.RecordFields(Lower(name));
  if (fields == nullptr)
    Unsupported("RETURN NEXT of an expression in a function returning rows", line_,
                "Return a record or row variable, or use RETURN QUERY.");
  if (ir_->returns_record && ir_->result_columns.empty())  // the first result gives the shape
    for (const auto& [field, slot] : *fields) ir_->result_columns.push_back({field, ir_->variables[slot].type});
  if (fields->size() != ir_->result_columns.size())
    throw SqlError(sqlstate::kDatatypeMismatch, "wrong record type supplied in RETURN NEXT")
        .WithDetail(fmt::format("Number of returned columns ({}) does not match expected column count ({}).",
                                fields->size(), ir_->result_columns.size()));
  for (size_t c = 0; c < fields->size(); ++c) {
    const SqlType& got = ir_->variables[(*fields)[c].second].type;
    const SqlType& want = ir_->result_columns[c].type;
    if (!SameRowColumnType(got, want))
      throw SqlError(sqlstate::kDatatypeMismatch, "wrong record type supplied in RETURN NEXT")
          .WithDetail(fmt::format("Returned type {} does not match expected type {} in column {}.", got.Name(),
                                  want.Name(), c + 1));
    s->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, (*fields)[c].second}, got));
  }
  return s;
}

StmtPtr ProcedureBinder::BindRaise(const json& st) {
  auto s = NewStmt(StmtKind::kRaise, line_);
  int level = st.value("elog_level", kElogError);
  s->level = level >= kElogError     ? RaiseLevel::kException
             : level >= kElogWarning ? RaiseLevel::kWarning
             : level >= kElogNotice  ? RaiseLevel::kNotice
             : level >= kElogInfo    ? RaiseLevel::kInfo
             : level >= kElogLog     ? RaiseLevel::kLog
                                     : RaiseLevel::kDebug;
  bool has_message = st.contains("message");
  s->message = st.value("message", "");
  std::string condname = st.value("condname", "");
  if (!condname.empty()) {
    std::optional<std::string> code = ConditionSqlstate(Lower(condname));
    if (code) {
      s->sqlstate = *code;
    } else if (IsSqlstate(condname)) {
      s->sqlstate = condname;
    } else {
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized exception condition \"{}\"", condname));
    }
    if (!has_message) s->message = Lower(condname);
  }
  for (const json& p : st.value("params", json::array())) s->args.push_back(BindValue(p, line_));
  bool message_option = false;
  ExprPtr detail, hint;  // appended after the format arguments
  for (const json& o : st.value("options", json::array())) {
    const json& opt = Get(o, "PLpgSQL_raise_option");
    int kind = opt.value("opt_type", -1);
    if (kind == kRaiseErrcode) {
      ExprPtr e = BindValue(Get(opt, "expr"), line_);
      if (e->kind != ExprKind::kConst || !e->type.is_string() || e->value.is_null())
        Unsupported("a computed ERRCODE", line_, "Write the SQLSTATE or condition name as a string literal.");
      std::string code = e->value.s;
      if (std::optional<std::string> c = ConditionSqlstate(Lower(code))) code = *c;
      if (!IsSqlstate(code)) throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized exception condition \"{}\"", code));
      s->sqlstate = code;
    } else if (kind == kRaiseMessage) {
      if (has_message) throw SqlError(sqlstate::kSyntaxError, "RAISE option already specified: MESSAGE");
      // The message is an expression: format it through "%".
      s->message = "%";
      s->args.push_back(BindValue(Get(opt, "expr"), line_));
      message_option = true;
    } else if (kind == kRaiseDetail || kind == kRaiseHint) {
      ExprPtr& slot = kind == kRaiseDetail ? detail : hint;
      if (slot)
        throw SqlError(sqlstate::kSyntaxError,
                       fmt::format("RAISE option already specified: {}", kind == kRaiseDetail ? "DETAIL" : "HINT"));
      slot = BindValue(Get(opt, "expr"), line_);
    } else {
      Unsupported("RAISE ... USING COLUMN / CONSTRAINT / DATATYPE / TABLE / SCHEMA", line_,
                  "Put what it names into the message or its DETAIL.");
    }
  }
  if (detail) {
    s->raise_detail = static_cast<int>(s->args.size());
    s->args.push_back(std::move(detail));
  }
  if (hint) {
    s->raise_hint = static_cast<int>(s->args.size());
    s->args.push_back(std::move(hint));
  }
  if (!has_message && condname.empty() && !message_option && st.value("options", json::array()).empty()) {
    if (handler_errors_.empty()) {  // PL/pgSQL fails when it runs
      s->level = RaiseLevel::kException;
      s->sqlstate = "0Z002";
      s->message = "RAISE without parameters cannot be used outside an exception handler";
      return s;
    }
    s->reraise = true;  // the error the innermost handler caught, as it was
    s->error_slots = handler_errors_.back();
    return s;
  }
  if (!has_message && condname.empty() && !message_option) s->message = s->sqlstate;
  return s;
}

StmtPtr ProcedureBinder::BindAssert(const json& st) {
  // ASSERT cond [, message]: fails when cond is false or NULL (P0004).
  ExprPtr cond = BindCondition(Get(st, "cond"), line_, "ASSERT");
  auto is_not_true = std::make_unique<Expr>();
  is_not_true->kind = ExprKind::kBoolTest;
  is_not_true->type = SqlType::Of(TypeId::kBool);
  is_not_true->op = Op::kEq;
  is_not_true->negated = true;
  is_not_true->args.push_back(std::move(cond));
  StmtPtr s = RaiseIf(std::move(is_not_true), "P0004", "assertion failed", nullptr, line_);
  if (st.contains("message")) {
    Stmt& raise = *s->blocks[0][0];
    raise.message = "%";
    raise.args.push_back(BindValue(Get(st, "message"), line_));
  }
  return s;
}

// ---------------------------------------------------------------------------------------

namespace {

void NumberTableStatements(ProcedureIr& ir, Block& block) {
  for (auto& s : block) {
    bool table_statement = (s->table != nullptr || s->query != nullptr) &&
                           (s->kind == StmtKind::kSelectInto || s->kind == StmtKind::kReturnQuery ||
                            s->kind == StmtKind::kInsert || s->kind == StmtKind::kUpdate || s->kind == StmtKind::kDelete);
    if (table_statement) {
      ir.table_statements.push_back(s.get());
      s->id = static_cast<int>(ir.table_statements.size());
    }
    // In the text's order: an EXCEPTION block's statements before its handlers'.
    NumberTableStatements(ir, s->body);
    for (auto& b : s->blocks) NumberTableStatements(ir, b);
    NumberTableStatements(ir, s->else_block);
  }
}

}  // namespace

std::shared_ptr<ProcedureIr> ProcedureBinder::Bind(const PgQuery__CreateFunctionStmt* stmt) {
  BindSignature(stmt);
  BindBody();
  return ir_;
}

void ProcedureBinder::BindBody() {
  std::optional<std::string> plpgsql;
  if (sql_language_) {
    TranslatedSqlBody translated = SqlBodyAsPlpgsql(body_text_, *ir_);
    plpgsql = std::move(translated.plpgsql);
    ir_->sql_statement_lines = std::move(translated.statement_lines);
  }
  body_ = ParsePlpgsql(text_, has_out_parameters_ && is_setof_, plpgsql,
                       [&](const std::string& type) { return RowTypeColumns(type).has_value(); });
  // PL/pgSQL's parser checks an alias's target while it parses: PostgreSQL's error points
  // at it and has no CONTEXT line.
  for (const PlpgsqlBody::Alias& a : body_.aliases)
    if (AliasSlot(a) < 0)
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("variable \"{}\" does not exist", a.target),
                     body_.body_offset < 0 ? -1 : body_.body_offset + a.target_offset);
  body_line_starts_.push_back(0);
  for (size_t i = 0; i < body_.body.size(); ++i)
    if (body_.body[i] == '\n') body_line_starts_.push_back(i + 1);
  datums_ = body_.function.value("datums", json::array());
  if (trigger_table_ != nullptr && (body_.function.value("new_varno", -1) != 1 || body_.function.value("old_varno", -1) != 2))
    throw SqlError(sqlstate::kInternalError, "internal error: unexpected datums of a trigger function");
  cursor_ = datum_info_.size();
  try {
    const json& action = Get(body_.function, "action");
    line_ = NodeBody(action).value("lineno", 0);
    BindBlock(NodeBody(action), ir_->body);
    // Every expression query was placed before the statement that uses it; one left over
    // would never run (its temporary would read NULL).
    if (!pending_.empty()) Unsupported("a query in this expression", pending_.front()->line);
    // A trigger function that ends without RETURN: PL/pgSQL's run-time error.
    if (trigger_table_ != nullptr)
      ir_->body.push_back(CheckRaise("2F005", "control reached end of trigger procedure without RETURN", nullptr, 0));
  } catch (SqlError& e) {
    if (e.context().empty())
      e.WithContext(fmt::format("compilation of PL/pgSQL function \"{}\" near line {}", ir_->name, line_));
    throw;
  }
  NumberTableStatements(*ir_, ir_->body);
}

std::shared_ptr<ProcedureIr> BindProcedure(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text,
                                           const Catalog& catalog) {
  ProcedureBinder binder(catalog, statement_text);
  try {
    return binder.Bind(stmt);
  } catch (const nlohmann::json::exception& e) {
    throw SqlError(sqlstate::kInternalError, fmt::format("internal error: unexpected PL/pgSQL parse tree ({})", e.what()));
  }
}

}  // namespace caracal::planner
