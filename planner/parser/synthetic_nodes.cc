#include "planner/parser/synthetic_nodes.h"

namespace caracal::planner {

char* SyntheticNodes::Text(const std::string& s) { return texts_.emplace_back(s).data(); }

PgQuery__Node** SyntheticNodes::Array(const std::vector<PgQuery__Node*>& items, size_t& n) {
  n = items.size();
  auto array = std::make_unique<PgQuery__Node*[]>(items.size() + 1);
  for (size_t i = 0; i < items.size(); ++i) array[i] = items[i];
  return arrays_.emplace_back(std::move(array)).get();
}

PgQuery__Node* SyntheticNodes::ColumnRef(const std::string& qualifier, const std::string& column) {
  std::vector<PgQuery__Node*> fields;
  for (const std::string* part : {&qualifier, &column}) {
    if (part->empty()) continue;
    PgQuery__String& s = strings_.emplace_back(PgQuery__String PG_QUERY__STRING__INIT);
    s.sval = Text(*part);
    PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
    n.node_case = PG_QUERY__NODE__NODE_STRING;
    n.string = &s;
    fields.push_back(&n);
  }
  PgQuery__ColumnRef& ref = refs_.emplace_back(PgQuery__ColumnRef PG_QUERY__COLUMN_REF__INIT);
  ref.fields = Array(fields, ref.n_fields);
  ref.location = -1;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
  n.column_ref = &ref;
  return &n;
}

PgQuery__Node* SyntheticNodes::Target(PgQuery__Node* val, const std::string& name) {
  PgQuery__ResTarget& t = targets_.emplace_back(PgQuery__ResTarget PG_QUERY__RES_TARGET__INIT);
  t.val = val;
  if (!name.empty()) t.name = Text(name);
  t.location = -1;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
  n.res_target = &t;
  return &n;
}

PgQuery__Node* SyntheticNodes::FromItem(PgQuery__RangeVar* range) {
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_RANGE_VAR;
  n.range_var = range;
  return &n;
}

PgQuery__Node* SyntheticNodes::List(const std::vector<PgQuery__Node*>& items) {
  PgQuery__List& l = lists_.emplace_back(PgQuery__List PG_QUERY__LIST__INIT);
  l.items = Array(items, l.n_items);
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_LIST;
  n.list = &l;
  return &n;
}

PgQuery__Node* SyntheticNodes::SelectNode(PgQuery__SelectStmt* select) {
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
  n.select_stmt = select;
  return &n;
}

PgQuery__Node* SyntheticNodes::And(const std::vector<PgQuery__Node*>& items) {
  if (items.size() <= 1) return items.empty() ? nullptr : items[0];
  PgQuery__BoolExpr& b = bools_.emplace_back(PgQuery__BoolExpr PG_QUERY__BOOL_EXPR__INIT);
  b.boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
  b.args = Array(items, b.n_args);
  b.location = -1;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_BOOL_EXPR;
  n.bool_expr = &b;
  return &n;
}

PgQuery__SelectStmt* SyntheticNodes::NewSelect() {
  PgQuery__SelectStmt& s = selects_.emplace_back(PgQuery__SelectStmt PG_QUERY__SELECT_STMT__INIT);
  s.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
  s.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
  return &s;
}

PgQuery__UpdateStmt* SyntheticNodes::NewUpdate() { return &updates_.emplace_back(PgQuery__UpdateStmt PG_QUERY__UPDATE_STMT__INIT); }
PgQuery__DeleteStmt* SyntheticNodes::NewDelete() { return &deletes_.emplace_back(PgQuery__DeleteStmt PG_QUERY__DELETE_STMT__INIT); }
PgQuery__InsertStmt* SyntheticNodes::NewInsert() { return &inserts_.emplace_back(PgQuery__InsertStmt PG_QUERY__INSERT_STMT__INIT); }

}  // namespace caracal::planner
