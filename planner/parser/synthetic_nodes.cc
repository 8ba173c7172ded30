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

PgQuery__Node* SyntheticNodes::ScalarSubquery(PgQuery__SelectStmt* select, int location) {
  PgQuery__SubLink& link = sublinks_.emplace_back(PgQuery__SubLink PG_QUERY__SUB_LINK__INIT);
  link.sub_link_type = PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
  link.subselect = SelectNode(select);
  link.location = location;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_SUB_LINK;
  n.sub_link = &link;
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

PgQuery__Node* SyntheticNodes::Equals(PgQuery__Node* l, PgQuery__Node* r) {
  PgQuery__AExpr& a = a_exprs_.emplace_back(PgQuery__AExpr PG_QUERY__A__EXPR__INIT);
  a.kind = PG_QUERY__A__EXPR__KIND__AEXPR_OP;
  std::vector<PgQuery__Node*> name{ColumnRef("", "=")->column_ref->fields[0]};  // a String node
  a.name = Array(name, a.n_name);
  a.lexpr = l;
  a.rexpr = r;
  a.location = -1;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_A_EXPR;
  n.a_expr = &a;
  return &n;
}

PgQuery__Node* SyntheticNodes::FuncCall(const std::string& name, const std::vector<PgQuery__Node*>& args) {
  PgQuery__FuncCall& f = calls_.emplace_back(PgQuery__FuncCall PG_QUERY__FUNC_CALL__INIT);
  PgQuery__Node* name_node = ColumnRef("", name)->column_ref->fields[0];  // a String node
  std::vector<PgQuery__Node*> names{name_node};
  f.funcname = Array(names, f.n_funcname);
  f.args = Array(args, f.n_args);
  f.funcformat = PG_QUERY__COERCION_FORM__COERCE_EXPLICIT_CALL;
  f.location = -1;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
  n.func_call = &f;
  return &n;
}

PgQuery__Node* SyntheticNodes::RangeFunction(PgQuery__Node* call, const std::string& alias,
                                             const std::vector<std::string>& columns) {
  PgQuery__Alias& a = aliases_.emplace_back(PgQuery__Alias PG_QUERY__ALIAS__INIT);
  a.aliasname = Text(alias);
  std::vector<PgQuery__Node*> names;
  for (const std::string& c : columns) names.push_back(ColumnRef("", c)->column_ref->fields[0]);
  a.colnames = Array(names, a.n_colnames);
  PgQuery__RangeFunction& rf = range_functions_.emplace_back(PgQuery__RangeFunction PG_QUERY__RANGE_FUNCTION__INIT);
  std::vector<PgQuery__Node*> pair{call};
  std::vector<PgQuery__Node*> functions{List(pair)};
  rf.functions = Array(functions, rf.n_functions);
  rf.alias = &a;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_RANGE_FUNCTION;
  n.range_function = &rf;
  return &n;
}

PgQuery__Node* SyntheticNodes::LateralSubselect(PgQuery__SelectStmt* select, const std::string& alias) {
  PgQuery__Alias& a = aliases_.emplace_back(PgQuery__Alias PG_QUERY__ALIAS__INIT);
  a.aliasname = Text(alias);
  PgQuery__RangeSubselect& rs = range_subselects_.emplace_back(PgQuery__RangeSubselect PG_QUERY__RANGE_SUBSELECT__INIT);
  rs.lateral = true;
  rs.subquery = SelectNode(select);
  rs.alias = &a;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_RANGE_SUBSELECT;
  n.range_subselect = &rs;
  return &n;
}

PgQuery__WithClause* SyntheticNodes::With(const std::vector<PgQuery__Node*>& ctes, bool recursive) {
  if (ctes.empty()) return nullptr;
  PgQuery__WithClause& w = withs_.emplace_back(PgQuery__WithClause PG_QUERY__WITH_CLAUSE__INIT);
  w.ctes = Array(ctes, w.n_ctes);
  w.recursive = recursive;
  w.location = -1;
  return &w;
}

const PgQuery__SelectStmt* SyntheticNodes::SelectWithCtes(const PgQuery__SelectStmt* select,
                                                          const PgQuery__WithClause* with) {
  if (with == nullptr || with->n_ctes == 0) return select;
  std::vector<PgQuery__Node*> ctes(with->ctes, with->ctes + with->n_ctes);
  bool recursive = with->recursive;
  if (select->with_clause) {
    ctes.insert(ctes.end(), select->with_clause->ctes, select->with_clause->ctes + select->with_clause->n_ctes);
    recursive = recursive || select->with_clause->recursive;
  }
  PgQuery__SelectStmt& copy = selects_.emplace_back(*select);
  copy.with_clause = With(ctes, recursive);
  return &copy;
}

PgQuery__Node* SyntheticNodes::CteWithQuery(const PgQuery__CommonTableExpr* cte, PgQuery__Node* query) {
  PgQuery__CommonTableExpr& c = ctes_.emplace_back(*cte);
  c.ctequery = query;
  PgQuery__Node& n = nodes_.emplace_back(PgQuery__Node PG_QUERY__NODE__INIT);
  n.node_case = PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR;
  n.common_table_expr = &c;
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
