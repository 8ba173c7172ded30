#include "server/parameters.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <memory>

#include "planner/plan/procedure_ir.h"
#include "server/pg_types.h"

namespace caracal::server {


namespace {

std::string LastName(PgQuery__Node** names, size_t n) {
  if (n == 0 || names[n - 1]->node_case != PG_QUERY__NODE__NODE_STRING) return "";
  return names[n - 1]->string->sval;
}

int ParamNumber(const PgQuery__Node* node) {
  return node && node->node_case == PG_QUERY__NODE__NODE_PARAM_REF ? node->param_ref->number : 0;
}

int32_t CastOid(const PgQuery__TypeName* tn) {
  if (!tn) return 0;
  std::optional<planner::SqlType> t = planner::TypeFromName(LastName(tn->names, tn->n_names), 0, nullptr);
  if (!t) return 0;
  return TypeOid(tn->n_array_bounds > 0 ? planner::SqlType::ArrayOf(*t) : *t);
}

class Inference {
 public:
  Inference(const planner::Catalog& catalog, std::vector<int32_t>& types) : catalog_(catalog), types_(types) {}

  void Set(int number, int32_t type_oid) {
    if (number < 1 || number > static_cast<int>(types_.size()) || type_oid == 0) return;
    if (types_[number - 1] == 0) types_[number - 1] = type_oid;
  }

  // A value that may be `$n` or `$n::type`.
  void Value(const PgQuery__Node* node, int32_t type_oid) {
    if (!node) return;
    if (int n = ParamNumber(node)) return Set(n, type_oid);
    if (node->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
      if (int n = ParamNumber(node->type_cast->arg)) Set(n, CastOid(node->type_cast->type_name));
  }

  void Call(const PgQuery__FuncCall* call) {
    if (!call) return;
    std::vector<int32_t> arg_types(call->n_args, 0);
    std::string name = LastName(call->funcname, call->n_funcname);
    bool first = true;
    for (const auto& ir : catalog_.FindProcedures(name)) {
      if (ir->parameter_count != static_cast<int>(call->n_args)) continue;
      for (size_t i = 0; i < call->n_args; ++i) {
        int32_t t = TypeOid(ir->variables[i].type);
        if (first) arg_types[i] = t;
        else if (arg_types[i] != t) arg_types[i] = 0;  // overloads disagree: leave it open
      }
      first = false;
    }
    for (size_t i = 0; i < call->n_args; ++i) Value(call->args[i], arg_types[i]);
  }

  void Statement(const PgQuery__Node* stmt) {
    switch (stmt->node_case) {
      case PG_QUERY__NODE__NODE_CALL_STMT: return Call(stmt->call_stmt->funccall);
      case PG_QUERY__NODE__NODE_SELECT_STMT: {
        const PgQuery__SelectStmt* s = stmt->select_stmt;
        for (size_t i = 0; i < s->n_target_list; ++i) {
          const PgQuery__Node* t = s->target_list[i];
          if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val) continue;
          const PgQuery__Node* v = t->res_target->val;
          if (v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) Call(v->func_call);
          else Value(v, 0);
        }
        for (size_t i = 0; i < s->n_from_clause; ++i) {
          const PgQuery__Node* f = s->from_clause[i];
          if (f->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION) continue;
          for (size_t j = 0; j < f->range_function->n_functions; ++j) {
            const PgQuery__Node* l = f->range_function->functions[j];
            if (l->node_case == PG_QUERY__NODE__NODE_LIST && l->list->n_items > 0 &&
                l->list->items[0]->node_case == PG_QUERY__NODE__NODE_FUNC_CALL)
              Call(l->list->items[0]->func_call);
          }
        }
        return;
      }
      case PG_QUERY__NODE__NODE_INSERT_STMT: {
        const PgQuery__InsertStmt* ins = stmt->insert_stmt;
        if (!ins->relation || !ins->select_stmt || ins->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
          return;
        const planner::TableInfo* table = catalog_.FindTable(ins->relation->relname);
        if (!table) return;
        std::vector<int32_t> column_types;
        if (ins->n_cols == 0) {
          for (const planner::CatalogColumn& c : table->columns) column_types.push_back(TypeOid(c.type));
        } else {
          for (size_t i = 0; i < ins->n_cols; ++i) {
            int32_t t = 0;
            if (ins->cols[i]->node_case == PG_QUERY__NODE__NODE_RES_TARGET)
              for (const planner::CatalogColumn& c : table->columns)
                if (c.name == ins->cols[i]->res_target->name) t = TypeOid(c.type);
            column_types.push_back(t);
          }
        }
        const PgQuery__SelectStmt* values = ins->select_stmt->select_stmt;
        for (size_t r = 0; r < values->n_values_lists; ++r) {
          const PgQuery__Node* row = values->values_lists[r];
          if (row->node_case != PG_QUERY__NODE__NODE_LIST) continue;
          for (size_t i = 0; i < row->list->n_items && i < column_types.size(); ++i)
            Value(row->list->items[i], column_types[i]);
        }
        return;
      }
      default: return;
    }
  }

 private:
  const planner::Catalog& catalog_;
  std::vector<int32_t>& types_;
};

}  // namespace

std::vector<int32_t> InferParameterTypes(const planner::ParsedStatement* stmt, const planner::Catalog& catalog,
                                         const std::vector<int32_t>& declared, int count) {
  std::vector<int32_t> types(std::max<size_t>(count, declared.size()), 0);
  for (size_t i = 0; i < declared.size(); ++i) types[i] = declared[i];
  if (stmt && stmt->node) Inference(catalog, types).Statement(stmt->node);
  return types;
}

std::string SubstituteParameters(const std::string& text, const std::vector<planner::ParameterSlot>& slots,
                                 const std::vector<int32_t>& types, const std::vector<std::optional<std::string>>& values) {
  std::string out;
  out.reserve(text.size() + 16 * slots.size());
  size_t pos = 0;
  for (const planner::ParameterSlot& s : slots) {
    out.append(text, pos, s.start - pos);
    pos = s.end;
    const std::optional<std::string>& v = values.at(s.number - 1);
    std::optional<std::string> cast = s.number <= static_cast<int>(types.size()) ? CastName(types[s.number - 1]) : std::nullopt;
    std::string literal = "NULL";
    if (v) {
      literal = "'";
      for (char c : *v) {
        if (c == '\'') literal.push_back('\'');
        literal.push_back(c);
      }
      literal.push_back('\'');
    }
    if (cast) out += "(" + literal + "::" + *cast + ")";
    else out += literal;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

}  // namespace caracal::server
