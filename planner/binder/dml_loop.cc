// Set-based DML as a loop over a query (see table_statement_binder.h): UPDATE ... FROM,
// DELETE ... USING, INSERT ... SELECT and statements with subqueries. The query and the
// per-row statement are both bound from parse trees derived from the user's
// (SyntheticNodes), by the same binders as any query and any single-row write.
#include <fmt/format.h>

#include <set>

#include "planner/binder/coerce.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/catalog/system_views.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// The hidden variables of one loop, by name, in front of the procedure's own names.
class HiddenScope final : public NameScope {
 public:
  explicit HiddenScope(const NameScope* parent) : parent_(parent) {}
  void Add(std::string name, int slot, SqlType type) { names_.push_back({std::move(name), {Slot{SlotSpace::kVariable, slot}, type}}); }
  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override {
    if (names.size() == 1)
      for (const auto& [name, binding] : names_)
        if (name == names[0]) return binding;
    return parent_ ? parent_->Lookup(names, location) : std::nullopt;
  }
  std::optional<Slot> NowSlot() const override { return parent_ ? parent_->NowSlot() : std::nullopt; }
  std::optional<NameBinding> LookupParameter(int number, int location) const override {
    return parent_ ? parent_->LookupParameter(number, location) : std::nullopt;
  }

 private:
  const NameScope* parent_;
  std::vector<std::pair<std::string, NameBinding>> names_;
};

// A loop under construction: the query read into arrays, and the loop over its rows with
// each column's value in a hidden variable (named `value_names[c]` in `scope`).
struct Loop {
  StmtPtr read;
  StmtPtr loop;
  int rows = -1;
  std::vector<std::string> value_names;
  std::unique_ptr<HiddenScope> scope;
};

ExprPtr VariableRef(int slot, const SqlType& type) { return MakeSlot(Slot{SlotSpace::kVariable, slot}, type); }

Loop BeginLoop(const PgQuery__SelectStmt* query, const Catalog& catalog, const NameScope* variables, DmlLoopHost& host) {
  static const SqlType int4 = SqlType::Of(TypeId::kInt4);
  Loop l;
  l.read = std::make_unique<Stmt>();
  l.read->kind = StmtKind::kSelectInto;
  l.read->collect = true;
  l.read->query = std::make_unique<QueryPlan>(PlanQuery(query, catalog, {}, variables));
  for (const TableInfo* t : TablesRead(*l.read->query))
    if (IsSystemView(*t)) throw NotSupported(fmt::format("reading the system view {} in a data-changing statement", t->name));
  const std::vector<OutputColumn>& columns = l.read->query->columns;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type.is_array()) throw NotSupported("an array value in a set-based INSERT, UPDATE or DELETE");
    l.read->into.push_back(host.AddVariable(fmt::format("$dml_{}", c), SqlType::ArrayOf(columns[c].type), VariableKind::kTemp));
  }
  l.rows = host.AddVariable("$dml_rows", int4, VariableKind::kTemp);
  l.read->into.push_back(l.rows);

  l.loop = std::make_unique<Stmt>();
  l.loop->kind = StmtKind::kForRange;
  l.loop->lower = MakeConst(Datum::Int(1), int4);
  l.loop->upper = VariableRef(l.rows, int4);
  l.loop->target = host.AddVariable("$dml_i", int4, VariableKind::kLoopVar);
  l.scope = std::make_unique<HiddenScope>(variables);
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string name = fmt::format("$dml_value_{}", c);
    const int value = host.AddVariable(name, columns[c].type, VariableKind::kTemp);
    l.scope->Add(name, value, columns[c].type);
    l.value_names.push_back(name);
    auto element = MakeExpr(ExprKind::kSubscript, columns[c].type);
    element->args.push_back(VariableRef(l.read->into[c], SqlType::ArrayOf(columns[c].type)));
    element->args.push_back(VariableRef(l.loop->target, int4));
    auto assign = std::make_unique<Stmt>();
    assign->kind = StmtKind::kAssign;
    assign->target = value;
    assign->value = std::move(element);
    l.loop->body.push_back(std::move(assign));
  }
  return l;
}

// The loop's statements: the read, the loop (with `write` as its last statement), and
// FOUND / ROW_COUNT from the row count.
std::vector<StmtPtr> FinishLoop(Loop& l, StmtPtr write, DmlLoopHost& host) {
  static const SqlType int4 = SqlType::Of(TypeId::kInt4);
  l.loop->body.push_back(std::move(write));
  std::vector<StmtPtr> out;
  out.push_back(std::move(l.read));
  out.push_back(std::move(l.loop));
  if (int found = host.FoundVariable(); found >= 0) {
    auto any = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
    any->op = Op::kGt;
    any->args.push_back(VariableRef(l.rows, int4));
    any->args.push_back(MakeConst(Datum::Int(0), int4));
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::kAssign;
    s->target = found;
    s->value = std::move(any);
    out.push_back(std::move(s));
  }
  if (int count = host.RowCountVariable(); count >= 0) {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::kAssign;
    s->target = count;
    s->value = Coerce(VariableRef(l.rows, int4), SqlType::Of(TypeId::kInt8), CastContext::kAssignment);
    out.push_back(std::move(s));
  }
  return out;
}

// Confines an UPDATE / DELETE bound without WHERE to the row whose primary key the loop's
// first value variables hold.
void KeyByLoopValues(Stmt& s, const Loop& l) {
  const TableInfo& table = *s.table;
  auto all = MakeExpr(ExprKind::kAnd, SqlType::Of(TypeId::kBool));
  for (size_t k = 0; k < table.primary_key.size(); ++k) {
    const int column = table.primary_key[k];
    const SqlType& type = table.columns[static_cast<size_t>(column)].type;
    std::optional<NameBinding> value = l.scope->Lookup(std::span(&l.value_names[k], 1), -1);
    auto eq = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
    eq->op = Op::kEq;
    eq->args.push_back(MakeSlot(Slot{SlotSpace::kColumn, column}, type));
    eq->args.push_back(MakeSlot(value->slot, value->type));
    all->args.push_back(std::move(eq));
  }
  s.filter = all->args.size() == 1 ? std::move(all->args[0]) : std::move(all);
  s.where_key = KeyAccessOf(ChooseAccessPath(s.filter.get(), table));
}

bool HasSubLink(const ProtobufCMessage* m) { return m != nullptr && NodeContainsSubquery(m); }

}  // namespace

bool IsDmlLoop(const PgQuery__UpdateStmt* stmt) { return stmt->n_from_clause > 0 || HasSubLink(&stmt->base); }
bool IsDmlLoop(const PgQuery__DeleteStmt* stmt) { return stmt->n_using_clause > 0 || HasSubLink(&stmt->base); }
bool IsDmlLoop(const PgQuery__InsertStmt* stmt) {
  if (!stmt->select_stmt || stmt->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
  const PgQuery__SelectStmt* source = stmt->select_stmt->select_stmt;
  return source->n_values_lists == 0 || HasSubLink(&source->base);
}

void TableStatementBinder::RequireLoops(const char* what, size_t returning) const {
  if (loops_ == nullptr) throw NotSupported(fmt::format("{} here", what));
  if (returning > 0 && !loops_->AllowsReturning())
    throw NotSupported(fmt::format("RETURNING of {} inside a procedure", what))
        .WithHint("Select the rows it changes first, then change them.");
}

std::vector<StmtPtr> TableStatementBinder::BindUpdateLoop(const PgQuery__UpdateStmt* stmt) {
  RequireLoops(stmt->n_from_clause > 0 ? "UPDATE ... FROM" : "UPDATE with a subquery", stmt->n_returning_list);
  const TableInfo& table = ResolveTable(stmt->relation);
  const std::string ref = RefName(stmt->relation);
  SyntheticNodes nodes;
  // The query: each row's key, then the new value of each SET column but DEFAULT ones.
  std::vector<PgQuery__Node*> targets, keys;
  for (int k : table.primary_key) keys.push_back(nodes.ColumnRef(ref, table.columns[static_cast<size_t>(k)].name));
  for (PgQuery__Node* key : keys) targets.push_back(nodes.Target(key));
  std::set<int> assigned;
  std::vector<const PgQuery__ResTarget*> set;
  for (size_t i = 0; i < stmt->n_target_list; ++i) {
    const PgQuery__ResTarget* t = stmt->target_list[i]->res_target;
    if (t->val && t->val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
      throw NotSupported("SET (a, b) = (...) assignments", t->location);
    int c = TargetColumn(table, t);
    if (!assigned.insert(c).second)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("multiple assignments to same column \"{}\"", t->name), t->location);
    for (int k : table.primary_key)
      if (k == c)
        throw NotSupported("UPDATE of a primary-key column", t->location).WithHint("DELETE the row and INSERT it with the new key.");
    set.push_back(t);
    if (t->val->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT) targets.push_back(nodes.Target(t->val));
  }
  PgQuery__SelectStmt* query = nodes.NewSelect();
  query->target_list = nodes.Array(targets, query->n_target_list);
  query->distinct_clause = nodes.Array(keys, query->n_distinct_clause);
  std::vector<PgQuery__Node*> from{nodes.FromItem(stmt->relation)};
  for (size_t i = 0; i < stmt->n_from_clause; ++i) from.push_back(stmt->from_clause[i]);
  query->from_clause = nodes.Array(from, query->n_from_clause);
  query->where_clause = stmt->where_clause;
  Loop l = BeginLoop(query, catalog_, variables_, *loops_);

  // Each row: UPDATE ref SET column = its value variable (or DEFAULT), by its key.
  std::vector<PgQuery__Node*> assignments;
  size_t value = table.primary_key.size();
  for (const PgQuery__ResTarget* t : set) {
    PgQuery__Node* v = t->val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT ? t->val : nodes.ColumnRef("", l.value_names[value++]);
    assignments.push_back(nodes.Target(v, t->name));
  }
  PgQuery__UpdateStmt* update = nodes.NewUpdate();
  update->relation = stmt->relation;
  update->target_list = nodes.Array(assignments, update->n_target_list);
  update->returning_list = stmt->returning_list;
  update->n_returning_list = stmt->n_returning_list;
  TableStatementBinder row_binder(catalog_, l.scope.get());
  StmtPtr write = row_binder.BindSimpleUpdate(update);
  returning_columns_ = row_binder.returning_columns();
  KeyByLoopValues(*write, l);
  return FinishLoop(l, std::move(write), *loops_);
}

std::vector<StmtPtr> TableStatementBinder::BindDeleteLoop(const PgQuery__DeleteStmt* stmt) {
  RequireLoops(stmt->n_using_clause > 0 ? "DELETE ... USING" : "DELETE with a subquery", stmt->n_returning_list);
  const TableInfo& table = ResolveTable(stmt->relation);
  const std::string ref = RefName(stmt->relation);
  SyntheticNodes nodes;
  std::vector<PgQuery__Node*> targets, keys;
  for (int k : table.primary_key) keys.push_back(nodes.ColumnRef(ref, table.columns[static_cast<size_t>(k)].name));
  for (PgQuery__Node* key : keys) targets.push_back(nodes.Target(key));
  PgQuery__SelectStmt* query = nodes.NewSelect();
  query->target_list = nodes.Array(targets, query->n_target_list);
  query->distinct_clause = nodes.Array(keys, query->n_distinct_clause);
  std::vector<PgQuery__Node*> from{nodes.FromItem(stmt->relation)};
  for (size_t i = 0; i < stmt->n_using_clause; ++i) from.push_back(stmt->using_clause[i]);
  query->from_clause = nodes.Array(from, query->n_from_clause);
  query->where_clause = stmt->where_clause;
  Loop l = BeginLoop(query, catalog_, variables_, *loops_);

  PgQuery__DeleteStmt* remove = nodes.NewDelete();
  remove->relation = stmt->relation;
  remove->returning_list = stmt->returning_list;
  remove->n_returning_list = stmt->n_returning_list;
  TableStatementBinder row_binder(catalog_, l.scope.get());
  StmtPtr write = row_binder.BindSimpleDelete(remove);
  returning_columns_ = row_binder.returning_columns();
  KeyByLoopValues(*write, l);
  return FinishLoop(l, std::move(write), *loops_);
}

std::vector<StmtPtr> TableStatementBinder::BindInsertLoop(const PgQuery__InsertStmt* stmt) {
  RequireLoops("INSERT ... SELECT", stmt->n_returning_list);
  ResolveTable(stmt->relation);
  SyntheticNodes nodes;
  Loop l = BeginLoop(stmt->select_stmt->select_stmt, catalog_, variables_, *loops_);
  // Each row: INSERT INTO t (cols) VALUES (its value variables) [ON CONFLICT ...].
  std::vector<PgQuery__Node*> values;
  for (const std::string& name : l.value_names) values.push_back(nodes.ColumnRef("", name));
  PgQuery__SelectStmt* row = nodes.NewSelect();
  std::vector<PgQuery__Node*> lists{nodes.List(values)};
  row->values_lists = nodes.Array(lists, row->n_values_lists);
  PgQuery__InsertStmt* insert = nodes.NewInsert();
  insert->relation = stmt->relation;
  insert->cols = stmt->cols;
  insert->n_cols = stmt->n_cols;
  insert->select_stmt = nodes.SelectNode(row);
  insert->on_conflict_clause = stmt->on_conflict_clause;
  insert->returning_list = stmt->returning_list;
  insert->n_returning_list = stmt->n_returning_list;
  TableStatementBinder row_binder(catalog_, l.scope.get());
  std::vector<StmtPtr> writes = row_binder.BindInsert(insert);
  returning_columns_ = row_binder.returning_columns();
  return FinishLoop(l, std::move(writes[0]), *loops_);
}

}  // namespace caracal::planner
