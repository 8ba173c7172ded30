#include "planner/exec/setting_call.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "planner/parser/function_call_select.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// A constant argument under any casts ('x'::text): its text, nullopt for NULL.
std::optional<std::string> ConstantText(const PgQuery__Node* arg, std::string_view function, size_t position) {
  while (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) arg = arg->type_cast->arg;
  if (arg == nullptr || arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("{}() here takes constants only (argument {})", function, position + 1))
        .WithHint("Write the parameter's name and value as literals, or use SET / SHOW.");
  const PgQuery__AConst* c = arg->a_const;
  if (c->isnull) return std::nullopt;
  switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_SVAL: return std::string(c->sval->sval);
    case PG_QUERY__A__CONST__VAL_BOOLVAL: return std::string(c->boolval->boolval ? "true" : "false");
    case PG_QUERY__A__CONST__VAL_IVAL: return std::to_string(c->ival->ival);
    case PG_QUERY__A__CONST__VAL_FVAL: return std::string(c->fval->fval);
    default: return std::nullopt;
  }
}

bool BoolText(const std::optional<std::string>& text, std::string_view function) {
  if (!text) return false;
  std::string v;
  for (char ch : *text) v += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (v == "true" || v == "t" || v == "on" || v == "yes" || v == "y" || v == "1") return true;
  if (v == "false" || v == "f" || v == "off" || v == "no" || v == "n" || v == "0") return false;
  throw SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("invalid input syntax for type boolean: \"{}\"", *text))
      .WithContext(fmt::format("argument of {}()", function));
}

std::string Literal(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string QualifiedName(const std::string& name) {
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    out += QuotedIdentifier(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    out += '.';
    start = dot + 1;
  }
}

}  // namespace

std::optional<SettingCall> AsSettingCall(const PgQuery__Node* stmt) {
  if (stmt == nullptr || stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return std::nullopt;
  const PgQuery__SelectStmt* s = stmt->select_stmt;
  if (s->n_target_list != 1 || !HasOnlyTargets(s)) return std::nullopt;
  const PgQuery__Node* target = s->target_list[0];
  std::string function;
  const PgQuery__FuncCall* f = PlainCallTarget(target, function);
  if (f == nullptr) return std::nullopt;
  SettingCall call;
  if (function == "set_config" && f->n_args == 3) {
    call.kind = SettingCall::Kind::kSetConfig;
  } else if (function == "current_setting" && (f->n_args == 1 || f->n_args == 2)) {
    call.kind = SettingCall::Kind::kCurrentSetting;
  } else {
    return std::nullopt;
  }
  std::optional<std::string> name = ConstantText(f->args[0], function, 0);
  if (!name) throw SqlError(sqlstate::kNullValueNotAllowed, "SET requires parameter name");
  call.name = *name;
  if (call.kind == SettingCall::Kind::kSetConfig) {
    call.value = ConstantText(f->args[1], function, 1);
    call.is_local = BoolText(ConstantText(f->args[2], function, 2), function);
  } else if (f->n_args == 2) {
    call.missing_ok = BoolText(ConstantText(f->args[1], function, 1), function);
  }
  call.column = target->res_target->name && *target->res_target->name ? target->res_target->name : function;
  return call;
}

std::string SetStatementText(const SettingCall& call) {
  const std::string name = QualifiedName(call.name);
  if (!call.value) return call.is_local ? fmt::format("SET LOCAL {} TO DEFAULT", name) : fmt::format("RESET {}", name);
  std::string values;
  std::string lower;
  for (char ch : call.name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "search_path" && !call.value->empty()) {
    // A list parameter: PostgreSQL reads the string as its list, "quoted" names kept.
    size_t start = 0;
    while (start <= call.value->size()) {
      size_t comma = call.value->find(',', start);
      if (comma == std::string::npos) comma = call.value->size();
      std::string item = call.value->substr(start, comma - start);
      const size_t first = item.find_first_not_of(" \t");
      item = first == std::string::npos ? "" : item.substr(first, item.find_last_not_of(" \t") - first + 1);
      if (item.size() >= 2 && item.front() == '"' && item.back() == '"') item = item.substr(1, item.size() - 2);
      values += (values.empty() ? "" : ", ") + Literal(item);
      start = comma + 1;
    }
  } else {
    values = Literal(*call.value);
  }
  return fmt::format("SET {}{} TO {}", call.is_local ? "LOCAL " : "", name, values);
}

ResultSet SettingCallResult(const SettingCall& call, const std::optional<std::string>& value) {
  ResultSet rs;
  rs.columns.push_back({call.column, SqlType::Of(TypeId::kText)});
  // set_config('search_path', '', ...) sets the empty string, which SET cannot say.
  if (call.kind == SettingCall::Kind::kSetConfig && call.value && call.value->empty())
    rs.rows.push_back({std::string()});
  else
    rs.rows.push_back({value});
  return rs;
}

}  // namespace caracal::planner
