#include "planner/parser/function_call_select.h"

#include <vector>

#include "planner/parser/pg_nodes.h"

namespace caracal::planner {

bool HasOnlyTargets(const PgQuery__SelectStmt* s) {
  return s->n_from_clause == 0 && s->where_clause == nullptr && s->n_group_clause == 0 && s->having_clause == nullptr &&
         s->n_sort_clause == 0 && s->limit_count == nullptr && s->limit_offset == nullptr && s->with_clause == nullptr &&
         s->into_clause == nullptr && s->n_values_lists == 0 && s->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
         s->n_distinct_clause == 0;
}

const PgQuery__FuncCall* PlainCallTarget(const PgQuery__Node* target, std::string& name) {
  if (target == nullptr || target->node_case != PG_QUERY__NODE__NODE_RES_TARGET || target->res_target->val == nullptr ||
      target->res_target->val->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
    return nullptr;
  const PgQuery__FuncCall* f = target->res_target->val->func_call;
  const std::vector<std::string> names = NameList(f->funcname, f->n_funcname);
  if (names.empty() || names.size() > 2 || (names.size() == 2 && names[0] != "pg_catalog")) return nullptr;
  if (f->agg_star || f->agg_distinct || f->over || f->n_agg_order || f->agg_filter) return nullptr;
  name = names.back();
  return f;
}

}  // namespace caracal::planner
