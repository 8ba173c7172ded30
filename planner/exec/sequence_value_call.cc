#include "planner/exec/sequence_value_call.h"

#include <fmt/format.h>

#include "planner/parser/function_call_select.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/qualified_name.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

std::optional<SequenceValueCall> AsCall(const PgQuery__Node* target) {
  std::string function;
  const PgQuery__FuncCall* f = PlainCallTarget(target, function);
  if (f == nullptr) return std::nullopt;
  SequenceValueCall call;
  if (function == "lastval" && f->n_args == 0) {
    call.last = true;
  } else if (function == "currval" && f->n_args == 1) {
    const PgQuery__Node* arg = f->args[0];
    while (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) arg = arg->type_cast->arg;
    if (arg != nullptr && arg->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
      const PgQuery__FuncCall* inner = arg->func_call;
      const std::vector<std::string> inner_names = NameList(inner->funcname, inner->n_funcname);
      std::vector<std::string> texts;
      for (size_t i = 0; i < inner->n_args; ++i) {
        const PgQuery__Node* a = inner->args[i];
        while (a != nullptr && a->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) a = a->type_cast->arg;
        if (a != nullptr && a->node_case == PG_QUERY__NODE__NODE_A_CONST && !a->a_const->isnull &&
            a->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
          texts.emplace_back(a->a_const->sval->sval);
      }
      if (!inner_names.empty() && inner_names.back() == "pg_get_serial_sequence" && inner->n_args == 2 && texts.size() == 2) {
        call.serial_of.emplace(texts[0], texts[1]);
        call.column = target->res_target->name && *target->res_target->name ? target->res_target->name : "currval";
        return call;
      }
    }
    if (arg == nullptr || arg->node_case != PG_QUERY__NODE__NODE_A_CONST || arg->a_const->isnull ||
        arg->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
      throw SqlError(sqlstate::kFeatureNotSupported, "currval() here takes a constant sequence name only")
          .WithHint("Write the name as a literal: SELECT currval('s').");
    call.sequence = arg->a_const->sval->sval;
    call.location = arg->a_const->location;
  } else {
    return std::nullopt;
  }
  call.column = target->res_target->name && *target->res_target->name ? target->res_target->name : function;
  return call;
}

}  // namespace

std::optional<std::vector<SequenceValueCall>> AsSequenceValueCalls(const PgQuery__Node* stmt) {
  if (stmt == nullptr || stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return std::nullopt;
  const PgQuery__SelectStmt* s = stmt->select_stmt;
  if (s->n_target_list == 0 || !HasOnlyTargets(s)) return std::nullopt;
  std::vector<SequenceValueCall> calls;
  for (size_t i = 0; i < s->n_target_list; ++i) {
    std::optional<SequenceValueCall> call = AsCall(s->target_list[i]);
    if (!call) return std::nullopt;
    calls.push_back(std::move(*call));
  }
  return calls;
}

const SequenceInfo* SequenceOfCall(const SequenceValueCall& call, const Catalog& catalog) {
  if (call.serial_of) {
    const std::optional<std::string> name = SerialSequenceName(catalog, call.serial_of->first, call.serial_of->second);
    return name ? catalog.FindSequence(RelationNameFromText(*name).name) : nullptr;
  }
  const RelationText relation = RelationNameFromText(call.sequence);
  const SequenceInfo* seq = relation.in_pg_catalog ? nullptr : catalog.FindSequence(relation.name);
  if (seq == nullptr)
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation.display), call.location);
  return seq;
}

ResultSet SequenceValueResult(const std::vector<SequenceValueCall>& calls, const std::vector<std::optional<int64_t>>& values) {
  ResultSet rs;
  std::vector<std::optional<std::string>> row;
  for (size_t i = 0; i < calls.size(); ++i) {
    rs.columns.push_back({calls[i].column, SqlType::Of(TypeId::kInt8)});
    row.push_back(i < values.size() && values[i] ? std::optional<std::string>(std::to_string(*values[i])) : std::nullopt);
  }
  rs.rows.push_back(std::move(row));
  return rs;
}

}  // namespace caracal::planner
