// Set-based DML as a loop over a query (see table_statement_binder.h): UPDATE ... FROM,
// DELETE ... USING, INSERT ... SELECT and statements with subqueries. The query and the
// per-row statement are both bound from parse trees derived from the user's
// (SyntheticNodes), by the same binders as any query and any single-row write.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/binder/coerce.h"
#include "planner/binder/hidden_scope.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/row_triggers.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/catalog/system_views.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

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

// A RowImage's arrays from loop `l`, whose query has each table column at `column_of` and
// the image's FROM-item columns from `first_from_column` on.
void TakeImage(TableStatementBinder::RowImage& image, const std::vector<int>& column_of, size_t first_from_column, const Loop& l) {
  for (int c : column_of) image.arrays.push_back(l.read->into[static_cast<size_t>(c)]);
  for (size_t k = 0; k < image.from_columns.size(); ++k) {
    image.from_arrays.push_back(l.read->into[first_from_column + k]);
    image.from_types.push_back(l.read->query->columns[first_from_column + k].type);
  }
}

// `names`: what the statement inside the loop calls each column (qualifier, name); empty:
// hidden names only.
Loop BeginLoop(QueryPlan plan, const NameScope* variables, DmlLoopHost& host,
               const std::vector<std::pair<std::string, std::string>>& names = {}) {
  static const SqlType int4 = SqlType::Of(TypeId::kInt4);
  Loop l;
  l.read = std::make_unique<Stmt>();
  l.read->kind = StmtKind::kSelectInto;
  l.read->collect = true;
  l.read->query = TransactionQuery(std::move(plan), "in a data-changing statement");
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
    // Named as the statement names the column where it does (EXPLAIN PROCEDURE's keys read
    // `i = u.id`); the name is only ever looked up through this scope.
    // Otherwise `$` and the query's name for it when that is unique.
    std::string name = c < names.size() ? names[c].first + "." + names[c].second : fmt::format("$dml_value_{}", c);
    if (c >= names.size() && columns[c].name != "?column?" &&
        std::ranges::count_if(columns, [&](const OutputColumn& o) { return o.name == columns[c].name; }) == 1)
      name = "$" + columns[c].name;
    const int value = host.AddVariable(name, columns[c].type, VariableKind::kTemp);
    if (c < names.size()) l.scope->Add(names[c].first, names[c].second, value, columns[c].type);
    else l.scope->Add("", name, value, columns[c].type);
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

// The loop's statements: the read, the loop (ending with `tail`, whose last statement is
// the write), and
// FOUND / ROW_COUNT from the rows the writes changed (a write may find no row).
std::vector<StmtPtr> FinishLoop(Loop& l, std::vector<StmtPtr> tail, DmlLoopHost& host) {
  static const SqlType int8 = SqlType::Of(TypeId::kInt8);
  auto assign = [](int target, ExprPtr value) {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::kAssign;
    s->target = target;
    s->value = std::move(value);
    return s;
  };
  std::vector<StmtPtr> out;
  out.push_back(std::move(l.read));
  for (StmtPtr& s : tail) l.loop->body.push_back(std::move(s));
  const int row_count = host.RowCountVariable();
  int changed = -1;
  if (row_count >= 0) {
    // Each write sets ROW_COUNT to the rows it changed: their sum.
    changed = host.AddVariable("$dml_changed", int8, VariableKind::kTemp);
    out.push_back(assign(changed, MakeConst(Datum::Int(0), int8)));
    auto sum = MakeExpr(ExprKind::kArith, int8);
    sum->op = Op::kAdd;
    sum->args.push_back(VariableRef(changed, int8));
    sum->args.push_back(VariableRef(row_count, int8));
    l.loop->body.push_back(assign(changed, std::move(sum)));
  }
  out.push_back(std::move(l.loop));
  if (changed < 0) return out;
  if (int found = host.FoundVariable(); found >= 0) {
    auto any = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
    any->op = Op::kGt;
    any->args.push_back(VariableRef(changed, int8));
    any->args.push_back(MakeConst(Datum::Int(0), int8));
    out.push_back(assign(found, std::move(any)));
  }
  out.push_back(assign(row_count, VariableRef(changed, int8)));
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

std::vector<StmtPtr> Statements(StmtPtr s) {
  std::vector<StmtPtr> out;
  out.push_back(std::move(s));
  return out;
}

// A FROM / USING item whose columns are named in the statement (unnest(a, b) AS u(x, y),
// (VALUES ...) AS v(x, y), (SELECT ...) AS s(x, y)).
struct NamedFromItem {
  std::string alias;
  std::vector<std::string> columns;
};

std::optional<std::vector<NamedFromItem>> NamedFromItems(PgQuery__Node* const* items, size_t n) {
  std::vector<NamedFromItem> out;
  for (size_t i = 0; i < n; ++i) {
    const PgQuery__Alias* alias = nullptr;
    if (items[i]->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION) alias = items[i]->range_function->alias;
    else if (items[i]->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT) alias = items[i]->range_subselect->alias;
    if (alias == nullptr || alias->n_colnames == 0) return std::nullopt;
    out.push_back({alias->aliasname, NameList(alias->colnames, alias->n_colnames)});
  }
  return out;
}

// How the statement's names reach the target table's columns.
class TargetNames {
 public:
  TargetNames(const TableInfo& table, std::string ref, const std::vector<NamedFromItem>& from)
      : table_(table), ref_(std::move(ref)), from_(from) {}

  // The target column `n` names (ref.col, or a bare col no FROM item has), else -1.
  int ColumnOf(const PgQuery__Node* n) const {
    if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return -1;
    const PgQuery__ColumnRef* ref = n->column_ref;
    if (ref->n_fields == 2 && StringValue(ref->fields[0]) == ref_) return table_.ColumnIndex(StringValue(ref->fields[1]));
    if (ref->n_fields == 1 && !InFromItems(StringValue(ref->fields[0]))) return table_.ColumnIndex(StringValue(ref->fields[0]));
    return -1;
  }
  // Whether `n` may read the target row: a reference qualified by it, or a bare name that
  // is one of its columns (a variable of that name would be ambiguous there anyway).
  bool Mentions(const PgQuery__Node* n) const {
    return ContainsNode(&n->base, [&](const PgQuery__Node* x) {
      if (x->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
      const PgQuery__ColumnRef* ref = x->column_ref;
      if (ref->n_fields >= 2) return StringValue(ref->fields[0]) == ref_;
      return ref->n_fields == 1 && table_.ColumnIndex(StringValue(ref->fields[0])) >= 0;
    });
  }

 private:
  bool InFromItems(const std::string& name) const {
    for (const NamedFromItem& f : from_)
      for (const std::string& c : f.columns)
        if (c == name) return true;
    return false;
  }
  const TableInfo& table_;
  const std::string ref_;
  const std::vector<NamedFromItem>& from_;
};

void ParseConjuncts(PgQuery__Node* n, std::vector<PgQuery__Node*>& out) {
  if (n == nullptr) return;
  if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR && n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
    for (size_t i = 0; i < n->bool_expr->n_args; ++i) ParseConjuncts(n->bool_expr->args[i], out);
    return;
  }
  out.push_back(n);
}

// The rows of an UPDATE ... FROM / DELETE ... USING whose FROM items are all named
// (NamedFromItem) and whose WHERE fixes every primary-key column of the target by `=` to
// an expression over them, constants and variables: the query then reads only the FROM
// items (DISTINCT ON the key: each target row once), and each row's write finds its
// target row by key with the statement's own WHERE and SET, the FROM items' columns read
// from the loop's variables. Without a table among the FROM items, keys computed from the
// parameters stay known before the call runs (unnest of an array parameter is a `loop`
// key set, not a `dependent` read). nullopt when the statement has another shape.
struct KeyedByFrom {
  PgQuery__SelectStmt* query = nullptr;
  std::vector<std::pair<std::string, std::string>> names;  // each query column's (alias, column)
};

bool IsBareStar(const PgQuery__Node* target) {
  const PgQuery__Node* v = target->res_target->val;
  return v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && v->column_ref->n_fields == 1 &&
         v->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

// RETURNING with each bare `*` followed by the FROM items' columns, as PostgreSQL expands it.
void ExpandReturningStar(SyntheticNodes& nodes, const KeyedByFrom& keyed, PgQuery__Node**& list, size_t& n) {
  std::vector<PgQuery__Node*> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(list[i]);
    if (!IsBareStar(list[i])) continue;
    for (const auto& [alias, column] : keyed.names) out.push_back(nodes.Target(nodes.ColumnRef(alias, column), column));
  }
  list = nodes.Array(out, n);
}

void RejectReturningStar(PgQuery__Node* const* list, size_t n, size_t from_items) {
  for (size_t i = 0; i < n && from_items > 0; ++i)
    if (IsBareStar(list[i])) throw NotSupported("RETURNING * here").WithHint("Name the columns to return.");
}

std::optional<KeyedByFrom> KeyFromItems(SyntheticNodes& nodes, const TableInfo& table, const PgQuery__RangeVar* relation,
                                         PgQuery__Node* const* items, size_t n, PgQuery__Node* where) {
  std::optional<std::vector<NamedFromItem>> from = NamedFromItems(items, n);
  if (!from) return std::nullopt;
  TargetNames names(table, RefName(relation), *from);
  std::vector<PgQuery__Node*> conjuncts, free, keys(table.primary_key.size(), nullptr);
  ParseConjuncts(where, conjuncts);
  for (PgQuery__Node* c : conjuncts) {
    if (!names.Mentions(c)) {
      free.push_back(c);
      continue;
    }
    if (c->node_case != PG_QUERY__NODE__NODE_A_EXPR) continue;
    const PgQuery__AExpr* e = c->a_expr;
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || e->n_name != 1 || StringValue(e->name[0]) != "=") continue;
    for (auto [column_side, value_side] : {std::pair{e->lexpr, e->rexpr}, std::pair{e->rexpr, e->lexpr}}) {
      const int column = names.ColumnOf(column_side);
      if (column < 0 || names.Mentions(value_side)) continue;
      for (size_t k = 0; k < keys.size(); ++k)
        if (table.primary_key[k] == column && keys[k] == nullptr) keys[k] = value_side;
    }
  }
  for (PgQuery__Node* k : keys)
    if (k == nullptr) return std::nullopt;
  // DISTINCT ON reads an integer constant as a column position, and a constant key part
  // tells no rows apart: only the others dedupe (none left: the other shape).
  std::erase_if(keys, [](const PgQuery__Node* k) { return k->node_case == PG_QUERY__NODE__NODE_A_CONST; });
  if (keys.empty()) return std::nullopt;
  KeyedByFrom out;
  std::vector<PgQuery__Node*> targets;
  for (const NamedFromItem& f : *from)
    for (const std::string& c : f.columns) {
      targets.push_back(nodes.Target(nodes.ColumnRef(f.alias, c)));
      out.names.emplace_back(f.alias, c);
    }
  out.query = nodes.NewSelect();
  out.query->target_list = nodes.Array(targets, out.query->n_target_list);
  out.query->distinct_clause = nodes.Array(keys, out.query->n_distinct_clause);
  std::vector<PgQuery__Node*> from_items(items, items + n);
  out.query->from_clause = nodes.Array(from_items, out.query->n_from_clause);
  out.query->where_clause = nodes.And(free);
  return out;
}

// A source query `u JOIN t1 ON ... LEFT JOIN t2 ON ...`: a named FROM item joined, inner
// or left, to tables each of whose primary key its ON clause fixes by `=` to values of the
// items before it. Each row of `u` then meets at most one row of each table: the join is
// a point lookup per row.
struct LookupJoin {
  PgQuery__RangeVar* range = nullptr;
  const TableInfo* table = nullptr;
  PgQuery__Node* on = nullptr;
  bool inner = false;
};
struct LookupJoins {
  PgQuery__Node* driver = nullptr;
  NamedFromItem names;
  std::vector<LookupJoin> joins;
};

std::optional<LookupJoins> AsLookupJoins(const PgQuery__SelectStmt* s, const Catalog& catalog) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || s->with_clause || s->n_from_clause != 1 || s->where_clause ||
      s->n_group_clause > 0 || s->having_clause || s->n_distinct_clause > 0 || s->n_sort_clause > 0 || s->limit_count ||
      s->limit_offset || s->n_window_clause > 0 || s->n_values_lists > 0 || s->n_locking_clause > 0 ||
      NodeContainsSubquery(&s->base))
    return std::nullopt;
  for (size_t i = 0; i < s->n_target_list; ++i)
    if (ContainsNode(&s->target_list[i]->base, [](const PgQuery__Node* n) { return n->node_case == PG_QUERY__NODE__NODE_A_STAR; }))
      return std::nullopt;
  LookupJoins out;
  PgQuery__Node* node = s->from_clause[0];
  while (node->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) {
    const PgQuery__JoinExpr* j = node->join_expr;
    if ((j->jointype != PG_QUERY__JOIN_TYPE__JOIN_INNER && j->jointype != PG_QUERY__JOIN_TYPE__JOIN_LEFT) || j->is_natural ||
        j->n_using_clause > 0 || j->quals == nullptr || j->alias || j->rarg->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
      return std::nullopt;
    PgQuery__RangeVar* range = j->rarg->range_var;
    const TableInfo* table = catalog.FindTable(range->relname);
    if (table == nullptr || IsSystemView(*table) || (range->schemaname && *range->schemaname)) return std::nullopt;
    out.joins.push_back({range, table, j->quals, j->jointype == PG_QUERY__JOIN_TYPE__JOIN_INNER});
    node = j->larg;
  }
  if (out.joins.empty()) return std::nullopt;
  std::ranges::reverse(out.joins);
  std::optional<std::vector<NamedFromItem>> driver = NamedFromItems(&node, 1);
  if (!driver) return std::nullopt;
  out.driver = node;
  out.names = (*driver)[0];
  std::vector<NamedFromItem> before{out.names};
  for (const LookupJoin& j : out.joins) {
    TargetNames names(*j.table, RefName(j.range), before);
    std::vector<PgQuery__Node*> conjuncts;
    ParseConjuncts(j.on, conjuncts);
    std::set<int> fixed;
    for (PgQuery__Node* c : conjuncts) {
      if (c->node_case != PG_QUERY__NODE__NODE_A_EXPR) continue;
      const PgQuery__AExpr* e = c->a_expr;
      if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || e->n_name != 1 || StringValue(e->name[0]) != "=") continue;
      for (auto [column_side, value_side] : {std::pair{e->lexpr, e->rexpr}, std::pair{e->rexpr, e->lexpr}}) {
        const int column = names.ColumnOf(column_side);
        if (column >= 0 && !names.Mentions(value_side)) fixed.insert(column);
      }
    }
    if (j.table->HasRowIdentity()) return std::nullopt;
    for (int k : j.table->primary_key)
      if (!fixed.count(k)) return std::nullopt;
    NamedFromItem item{RefName(j.range), {}};
    for (const CatalogColumn& c : j.table->columns) item.columns.push_back(c.name);
    before.push_back(std::move(item));
  }
  return out;
}

}  // namespace

// INSERT ... SELECT ... FROM u JOIN t ON <t's key> ...: a loop over the rows of `u` alone
// (unnest of parameters: keys known before the call runs), each row looking up its
// tables' rows by key with a SELECT INTO (prefetchable when the key is), skipping the
// row when an inner join's lookup finds nothing, then inserting the select list's values,
// as the row-at-a-time version of the same statement would.
std::optional<std::vector<StmtPtr>> TableStatementBinder::BindInsertByLookups(const PgQuery__InsertStmt* stmt) {
  const PgQuery__SelectStmt* source = stmt->select_stmt->select_stmt;
  std::optional<LookupJoins> lookups = AsLookupJoins(source, catalog_);
  if (!lookups) return std::nullopt;
  SyntheticNodes nodes;
  // The rows of u.
  std::vector<PgQuery__Node*> targets;
  std::vector<std::pair<std::string, std::string>> names;
  for (const std::string& c : lookups->names.columns) {
    targets.push_back(nodes.Target(nodes.ColumnRef(lookups->names.alias, c)));
    names.emplace_back(lookups->names.alias, c);
  }
  PgQuery__SelectStmt* rows = nodes.NewSelect();
  rows->target_list = nodes.Array(targets, rows->n_target_list);
  std::vector<PgQuery__Node*> from{lookups->driver};
  rows->from_clause = nodes.Array(from, rows->n_from_clause);
  Loop l = BeginLoop(PlanQuery(rows, catalog_, {}, variables_), variables_, *loops_, names);

  // Which joined tables a node may read: t.c, or a bare c that is one of t's columns and
  // not one of u's.
  auto mentions = [&](const PgQuery__Node* node, const LookupJoin& j) {
    const std::string alias = RefName(j.range);
    return ContainsNode(&node->base, [&](const PgQuery__Node* n) {
      if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
      const PgQuery__ColumnRef* ref = n->column_ref;
      if (ref->n_fields >= 2) return StringValue(ref->fields[ref->n_fields - 2]) == alias;
      const std::string name = StringValue(ref->fields[0]);
      return j.table->ColumnIndex(name) >= 0 && std::ranges::find(lookups->names.columns, name) == lookups->names.columns.end();
    });
  };
  // A select-list value that reads only one inner-joined table (and u, variables) is
  // computed by that table's lookup, on the row it finds (`CASE d WHEN 1 THEN s_dist_01
  // ... END` copies one string, not ten); the rest read the lookups' columns. (A LEFT
  // join's row may be missing, where PostgreSQL would compute the value over NULLs: those
  // values stay in the INSERT.)
  std::vector<PgQuery__Node*> values;
  for (size_t i = 0; i < source->n_target_list; ++i) values.push_back(source->target_list[i]->res_target->val);
  std::vector<int> value_lookup(values.size(), -1);
  for (size_t i = 0; i < values.size(); ++i) {
    int only = -1, count = 0;
    for (size_t k = 0; k < lookups->joins.size(); ++k)
      if (mentions(values[i], lookups->joins[k])) {
        only = static_cast<int>(k);
        ++count;
      }
    if (count == 1 && lookups->joins[static_cast<size_t>(only)].inner) value_lookup[i] = only;
  }
  // The columns the lookups still have to copy out: those the ON clauses and the values
  // left to the INSERT name.
  std::vector<const PgQuery__Node*> users;
  for (size_t i = 0; i < values.size(); ++i)
    if (value_lookup[i] < 0) users.push_back(values[i]);
  for (const LookupJoin& j : lookups->joins) users.push_back(j.on);
  auto used = [&](const std::string& alias, const std::string& column) {
    return std::ranges::any_of(users, [&](const PgQuery__Node* u) {
      return ContainsNode(&u->base, [&](const PgQuery__Node* n) {
        if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
        const PgQuery__ColumnRef* ref = n->column_ref;
        const std::string last = StringValue(ref->fields[ref->n_fields - 1]);
        if (last != column) return false;
        return ref->n_fields == 1 || StringValue(ref->fields[ref->n_fields - 2]) == alias;
      });
    });
  };

  std::vector<StmtPtr> tail;
  for (size_t k = 0; k < lookups->joins.size(); ++k) {
    const LookupJoin& j = lookups->joins[k];
    // SELECT t.key, t.<used columns>, <its values> INTO <variables> FROM t WHERE <ON>; the
    // key (never NULL in a row) says whether there was one.
    const std::string alias = RefName(j.range);
    const int key_column = j.table->primary_key[0];
    std::vector<int> read_columns;
    for (size_t c = 0; c < j.table->columns.size(); ++c)
      if (static_cast<int>(c) == key_column || used(alias, j.table->columns[c].name)) read_columns.push_back(static_cast<int>(c));
    std::vector<PgQuery__Node*> columns;
    for (int c : read_columns) columns.push_back(nodes.Target(nodes.ColumnRef(alias, j.table->columns[static_cast<size_t>(c)].name)));
    std::vector<size_t> own_values;
    for (size_t i = 0; i < values.size(); ++i)
      if (value_lookup[i] == static_cast<int>(k)) {
        columns.push_back(nodes.Target(values[i]));
        own_values.push_back(i);
      }
    PgQuery__SelectStmt* lookup = nodes.NewSelect();
    lookup->target_list = nodes.Array(columns, lookup->n_target_list);
    std::vector<PgQuery__Node*> table{nodes.FromItem(j.range)};
    lookup->from_clause = nodes.Array(table, lookup->n_from_clause);
    lookup->where_clause = j.on;
    StmtPtr read = TableStatementBinder(catalog_, l.scope.get()).BindSelect(lookup, StmtKind::kSelectInto);
    const std::vector<OutputColumn>& outputs = QueryColumns(*read);
    for (size_t c = 0; c < read_columns.size(); ++c) {
      const CatalogColumn& column = j.table->columns[static_cast<size_t>(read_columns[c])];
      const int v = loops_->AddVariable(alias + "." + column.name, outputs[c].type, VariableKind::kTemp);
      read->into.push_back(v);
      l.scope->Add(alias, column.name, v, outputs[c].type);
    }
    for (size_t n = 0; n < own_values.size(); ++n) {
      const SqlType& type = outputs[read_columns.size() + n].type;
      const std::string name = fmt::format("$value_{}", own_values[n] + 1);
      const int v = loops_->AddVariable(name, type, VariableKind::kTemp);
      read->into.push_back(v);
      l.scope->Add("", name, v, type);
      values[own_values[n]] = nodes.ColumnRef("", name);
    }
    const int found = read->into[0];
    const SqlType found_type = outputs[0].type;
    tail.push_back(std::move(read));
    if (j.inner) {
      auto skip = std::make_unique<Stmt>();
      skip->kind = StmtKind::kContinue;
      auto missing = MakeExpr(ExprKind::kIsNull, SqlType::Of(TypeId::kBool));
      missing->args.push_back(VariableRef(found, found_type));
      skip->conds.push_back(std::move(missing));
      tail.push_back(std::move(skip));
    }
  }
  // INSERT INTO target (cols) VALUES (<the select list>) [ON CONFLICT ...] [RETURNING ...].
  PgQuery__SelectStmt* row = nodes.NewSelect();
  std::vector<PgQuery__Node*> lists{nodes.List(values)};
  row->values_lists = nodes.Array(lists, row->n_values_lists);
  PgQuery__InsertStmt* insert = nodes.NewInsert();
  *insert = *stmt;
  insert->select_stmt = nodes.SelectNode(row);
  TableStatementBinder row_binder(catalog_, variables_);
  row_binder.set_values_scope(l.scope.get());
  std::vector<StmtPtr> writes = row_binder.BindValuesInsert(insert);
  returning_columns_ = row_binder.returning_columns();
  tail.push_back(std::move(writes[0]));
  return FinishLoop(l, std::move(tail), *loops_);
}

bool IsDmlLoop(const PgQuery__UpdateStmt* stmt) {
  return stmt->n_from_clause > 0 || stmt->with_clause || HasSubLink(&stmt->base);
}
bool IsDmlLoop(const PgQuery__DeleteStmt* stmt) {
  return stmt->n_using_clause > 0 || stmt->with_clause || HasSubLink(&stmt->base);
}
bool IsDmlLoop(const PgQuery__InsertStmt* stmt) {
  if (stmt->with_clause && stmt->select_stmt) return true;
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

std::vector<StmtPtr> TableStatementBinder::BindUpdateLoop(const PgQuery__UpdateStmt* stmt, RowImage* image) {
  RequireLoops(stmt->n_from_clause > 0 ? "UPDATE ... FROM"
               : stmt->with_clause     ? "UPDATE with WITH"
                                       : "UPDATE with a subquery",
               stmt->n_returning_list);
  const TableInfo& table = ResolveTable(stmt->relation);
  if (image != nullptr && table.HasTriggers(TriggerInfo::kUpdate))
    throw NotSupported(fmt::format("an UPDATE of table \"{}\", which has triggers, in a data-modifying WITH query", table.name))
        .WithHint("Run the UPDATE ... RETURNING as a statement of its own.");
  const std::string ref = RefName(stmt->relation);
  SyntheticNodes nodes;
  if (image == nullptr && !HasSubLink(&stmt->base))
    if (std::optional<KeyedByFrom> keyed = KeyFromItems(nodes, table, stmt->relation, stmt->from_clause, stmt->n_from_clause,
                                                        stmt->where_clause)) {
      keyed->query->with_clause = stmt->with_clause;
      Loop l = BeginLoop(PlanQuery(keyed->query, catalog_, {}, variables_), variables_, *loops_, keyed->names);
      PgQuery__UpdateStmt* update = nodes.NewUpdate();
      *update = *stmt;
      update->with_clause = nullptr;
      update->n_from_clause = 0;
      update->from_clause = nullptr;
      ExpandReturningStar(nodes, *keyed, update->returning_list, update->n_returning_list);
      TableStatementBinder row_binder(catalog_, l.scope.get());
      StmtPtr write = row_binder.BindSimpleUpdate(update);
      returning_columns_ = row_binder.returning_columns();
      return FinishLoop(l, Statements(std::move(write)), *loops_);
    }
  RejectReturningStar(stmt->returning_list, stmt->n_returning_list, stmt->n_from_clause);
  // The loop below writes each row by its primary key.
  if (table.HasRowIdentity())
    throw NotSupported(fmt::format("{} on table \"{}\", which has no primary key,",
                                   stmt->n_from_clause > 0 ? "UPDATE ... FROM" : stmt->with_clause ? "UPDATE with WITH" : "UPDATE with a subquery",
                                   table.name))
        .WithHint("Give the table a primary key, or write it with a WHERE on its own columns.");
  // The query: each row's key, then the new value of each SET column but DEFAULT ones
  // (with `image`, then every other column).
  std::vector<PgQuery__Node*> targets, keys;
  // The query's columns take the key's and the SET columns' types (SET v = NULL too).
  std::vector<std::pair<std::string, SqlType>> types;
  std::vector<int> column_of(table.columns.size(), -1);  // the query's column of each table column
  auto add_column = [&](int c, PgQuery__Node* value) {
    column_of[static_cast<size_t>(c)] = static_cast<int>(targets.size());
    targets.push_back(nodes.Target(value));
    types.emplace_back(table.columns[static_cast<size_t>(c)].name, table.columns[static_cast<size_t>(c)].type);
  };
  for (int k : table.primary_key) keys.push_back(nodes.ColumnRef(ref, table.columns[static_cast<size_t>(k)].name));
  for (size_t k = 0; k < keys.size(); ++k) add_column(table.primary_key[k], keys[k]);
  std::set<int> assigned;
  std::vector<const PgQuery__ResTarget*> set;
  std::vector<PgQuery__Node*> set_values;  // each entry's value (SetValueNode)
  for (size_t i = 0; i < stmt->n_target_list; ++i) {
    const PgQuery__ResTarget* t = stmt->target_list[i]->res_target;
    const int column = SetColumn(table, t, assigned, true);
    set.push_back(t);
    set_values.push_back(SetValueNode(t, nodes));
    if (set_values.back()->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
      if (image) throw NotSupported("SET ... = DEFAULT in a data-modifying WITH query", t->location);
      continue;
    }
    add_column(column, set_values.back());
  }
  if (image)
    for (size_t c = 0; c < table.columns.size(); ++c) {
      // The image reads the row before the write; a generated column's new value is
      // computed only by the write itself (binder/generated_columns.h).
      if (table.columns[c].generated)
        throw NotSupported(fmt::format("an UPDATE of table \"{}\", which has generated columns, in a data-modifying WITH "
                                       "query", table.name))
            .WithHint("Run the UPDATE ... RETURNING as a statement of its own.");
      if (column_of[c] < 0) add_column(static_cast<int>(c), nodes.ColumnRef(ref, table.columns[c].name));
    }
  const size_t first_from_column = targets.size();
  if (image)
    for (const auto& [qualifier, column] : image->from_columns) {
      targets.push_back(nodes.Target(nodes.ColumnRef(qualifier, column)));
      types.emplace_back("", SqlType{});  // keeps its own type
    }
  PgQuery__SelectStmt* query = nodes.NewSelect();
  query->target_list = nodes.Array(targets, query->n_target_list);
  query->distinct_clause = nodes.Array(keys, query->n_distinct_clause);
  std::vector<PgQuery__Node*> from{nodes.FromItem(stmt->relation)};
  for (size_t i = 0; i < stmt->n_from_clause; ++i) from.push_back(stmt->from_clause[i]);
  query->from_clause = nodes.Array(from, query->n_from_clause);
  query->where_clause = stmt->where_clause;
  query->with_clause = stmt->with_clause;
  Loop l = BeginLoop(PlanInsertSource(query, catalog_, {}, types, variables_), variables_, *loops_);
  if (image) TakeImage(*image, column_of, first_from_column, l);

  // Each row: UPDATE ref SET column = its value variable (or DEFAULT), by its key.
  std::vector<PgQuery__Node*> assignments;
  size_t value = table.primary_key.size();
  for (size_t i = 0; i < set.size(); ++i) {
    PgQuery__Node* v = set_values[i]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT ? set_values[i]
                                                                                        : nodes.ColumnRef("", l.value_names[value++]);
    assignments.push_back(nodes.Target(v, set[i]->name));
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
  return FinishLoop(l, Statements(std::move(write)), *loops_);
}

std::vector<StmtPtr> TableStatementBinder::BindDeleteLoop(const PgQuery__DeleteStmt* stmt, RowImage* image) {
  RequireLoops(stmt->n_using_clause > 0 ? "DELETE ... USING"
               : stmt->with_clause      ? "DELETE with WITH"
                                        : "DELETE with a subquery",
               stmt->n_returning_list);
  const TableInfo& table = ResolveTable(stmt->relation);
  if (image != nullptr && table.HasTriggers(TriggerInfo::kDelete))
    throw NotSupported(fmt::format("a DELETE from table \"{}\", which has triggers, in a data-modifying WITH query", table.name))
        .WithHint("Run the DELETE ... RETURNING as a statement of its own.");
  const std::string ref = RefName(stmt->relation);
  SyntheticNodes nodes;
  if (image == nullptr && !HasSubLink(&stmt->base))
    if (std::optional<KeyedByFrom> keyed = KeyFromItems(nodes, table, stmt->relation, stmt->using_clause, stmt->n_using_clause,
                                                        stmt->where_clause)) {
      keyed->query->with_clause = stmt->with_clause;
      Loop l = BeginLoop(PlanQuery(keyed->query, catalog_, {}, variables_), variables_, *loops_, keyed->names);
      PgQuery__DeleteStmt* remove = nodes.NewDelete();
      *remove = *stmt;
      remove->with_clause = nullptr;
      remove->n_using_clause = 0;
      remove->using_clause = nullptr;
      ExpandReturningStar(nodes, *keyed, remove->returning_list, remove->n_returning_list);
      TableStatementBinder row_binder(catalog_, l.scope.get());
      StmtPtr write = row_binder.BindSimpleDelete(remove);
      returning_columns_ = row_binder.returning_columns();
      return FinishLoop(l, Statements(std::move(write)), *loops_);
    }
  RejectReturningStar(stmt->returning_list, stmt->n_returning_list, stmt->n_using_clause);
  // The loop below writes each row by its primary key.
  if (table.HasRowIdentity())
    throw NotSupported(fmt::format("{} on table \"{}\", which has no primary key,",
                                   stmt->n_using_clause > 0 ? "DELETE ... USING" : stmt->with_clause ? "DELETE with WITH" : "DELETE with a subquery",
                                   table.name))
        .WithHint("Give the table a primary key, or write it with a WHERE on its own columns.");
  // The query: each row's key (with `image`, then every other column).
  std::vector<PgQuery__Node*> targets, keys;
  std::vector<int> column_of(table.columns.size(), -1);
  for (int k : table.primary_key) keys.push_back(nodes.ColumnRef(ref, table.columns[static_cast<size_t>(k)].name));
  for (size_t k = 0; k < keys.size(); ++k) {
    column_of[static_cast<size_t>(table.primary_key[k])] = static_cast<int>(targets.size());
    targets.push_back(nodes.Target(keys[k]));
  }
  if (image)
    for (size_t c = 0; c < table.columns.size(); ++c)
      if (column_of[c] < 0) {
        column_of[c] = static_cast<int>(targets.size());
        targets.push_back(nodes.Target(nodes.ColumnRef(ref, table.columns[c].name)));
      }
  const size_t first_from_column = targets.size();
  if (image)
    for (const auto& [qualifier, column] : image->from_columns) targets.push_back(nodes.Target(nodes.ColumnRef(qualifier, column)));
  PgQuery__SelectStmt* query = nodes.NewSelect();
  query->target_list = nodes.Array(targets, query->n_target_list);
  query->distinct_clause = nodes.Array(keys, query->n_distinct_clause);
  std::vector<PgQuery__Node*> from{nodes.FromItem(stmt->relation)};
  for (size_t i = 0; i < stmt->n_using_clause; ++i) from.push_back(stmt->using_clause[i]);
  query->from_clause = nodes.Array(from, query->n_from_clause);
  query->where_clause = stmt->where_clause;
  query->with_clause = stmt->with_clause;
  Loop l = BeginLoop(PlanQuery(query, catalog_, {}, variables_), variables_, *loops_);
  if (image) TakeImage(*image, column_of, first_from_column, l);

  PgQuery__DeleteStmt* remove = nodes.NewDelete();
  remove->relation = stmt->relation;
  remove->returning_list = stmt->returning_list;
  remove->n_returning_list = stmt->n_returning_list;
  TableStatementBinder row_binder(catalog_, l.scope.get());
  StmtPtr write = row_binder.BindSimpleDelete(remove);
  returning_columns_ = row_binder.returning_columns();
  KeyByLoopValues(*write, l);
  return FinishLoop(l, Statements(std::move(write)), *loops_);
}

std::vector<StmtPtr> TableStatementBinder::BindInsertLoop(const PgQuery__InsertStmt* stmt) {
  RequireLoops("INSERT ... SELECT", stmt->n_returning_list);
  const TableInfo& table = ResolveTable(stmt->relation);
  if (!stmt->with_clause)
    if (std::optional<std::vector<StmtPtr>> by_lookups = BindInsertByLookups(stmt)) return std::move(*by_lookups);
  // The query's columns take the target columns' types, its untyped literals too.
  std::vector<std::pair<std::string, SqlType>> targets;
  for (size_t i = 0; i < stmt->n_cols; ++i) {
    const CatalogColumn& c = table.columns[static_cast<size_t>(TargetColumn(table, stmt->cols[i]->res_target))];
    targets.emplace_back(c.name, c.type);
  }
  if (stmt->n_cols == 0)
    for (const CatalogColumn& c : table.columns) targets.emplace_back(c.name, c.type);
  SyntheticNodes nodes;
  const PgQuery__SelectStmt* source = nodes.SelectWithCtes(stmt->select_stmt->select_stmt, stmt->with_clause);
  Loop l = BeginLoop(PlanInsertSource(source, catalog_, {}, targets, variables_), variables_, *loops_);
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
  insert->override = stmt->override;
  TableStatementBinder row_binder(catalog_, variables_);
  row_binder.set_values_scope(l.scope.get());
  std::vector<StmtPtr> writes = row_binder.BindValuesInsert(insert);
  returning_columns_ = row_binder.returning_columns();
  return FinishLoop(l, Statements(std::move(writes[0])), *loops_);
}

namespace {

// The frame slot of loop `l`'s value variable for its query's column `column`.
int LoopSlot(const Loop& l, size_t column) {
  return l.scope->Lookup(std::span(&l.value_names[column], 1), -1)->slot.index;
}

// The query of a triggered write's rows: each row's key (DISTINCT ON it), then every
// column's old value, then `values` (an UPDATE's SET values); `from` and `where` as the
// statement's.
PgQuery__SelectStmt* TriggeredRowsQuery(SyntheticNodes& nodes, const TableInfo& table, PgQuery__RangeVar* relation,
                                        std::vector<PgQuery__Node*> values, PgQuery__Node* const* from_items, size_t n_from,
                                        PgQuery__Node* where, PgQuery__WithClause* with) {
  const std::string ref = RefName(relation);
  std::vector<PgQuery__Node*> targets, keys;
  for (int k : table.primary_key) keys.push_back(nodes.ColumnRef(ref, table.columns[static_cast<size_t>(k)].name));
  for (PgQuery__Node* k : keys) targets.push_back(nodes.Target(k));
  for (const CatalogColumn& c : table.columns) targets.push_back(nodes.Target(nodes.ColumnRef(ref, c.name)));
  for (PgQuery__Node* v : values) targets.push_back(nodes.Target(v));
  PgQuery__SelectStmt* query = nodes.NewSelect();
  query->target_list = nodes.Array(targets, query->n_target_list);
  query->distinct_clause = nodes.Array(keys, query->n_distinct_clause);
  std::vector<PgQuery__Node*> from{nodes.FromItem(relation)};
  for (size_t i = 0; i < n_from; ++i) from.push_back(from_items[i]);
  query->from_clause = nodes.Array(from, query->n_from_clause);
  query->where_clause = where;
  query->with_clause = with;
  return query;
}

void RefuseRowIdentity(const TableInfo& table, const char* what) {
  if (table.HasRowIdentity())
    throw NotSupported(fmt::format("{} table \"{}\", which has no primary key and has row triggers,", what, table.name))
        .WithHint("Give the table a primary key.");
}

}  // namespace

// A triggered write of one row named by its key (NamesOneRow): its loop over the query's
// row, which runs at most once, as `i := 1; IF rows >= 1 THEN <body> END IF`, so that
// the analysis sees a write of a key it knows under a condition, not in a loop whose
// count it cannot know.
void RunAtMostOnce(std::vector<StmtPtr>& stmts) {
  auto loop = std::ranges::find_if(stmts, [](const StmtPtr& s) { return s->kind == StmtKind::kForRange; });
  if (loop == stmts.end()) return;
  Stmt& s = **loop;
  auto any = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
  any->op = Op::kGe;
  any->args.push_back(std::move(s.upper));
  any->args.push_back(MakeConst(Datum::Int(1), SqlType::Of(TypeId::kInt4)));
  auto once = std::make_unique<Stmt>();
  once->kind = StmtKind::kIf;
  once->conds.push_back(std::move(any));
  once->blocks.push_back(std::move(s.body));
  auto first = std::make_unique<Stmt>();
  first->kind = StmtKind::kAssign;
  first->target = s.target;
  first->value = std::move(s.lower);
  *loop = std::move(first);
  stmts.insert(loop + 1, std::move(once));
}

bool TableStatementBinder::NamesOneRow(const PgQuery__UpdateStmt* stmt) {
  if (stmt->n_from_clause > 0 || stmt->with_clause || HasSubLink(&stmt->base) || !stmt->where_clause) return false;
  PgQuery__UpdateStmt probe = *stmt;
  probe.n_returning_list = 0;
  return BindSimpleUpdate(&probe)->where_key.kind == KeyAccess::Kind::kPoint;
}

bool TableStatementBinder::NamesOneRow(const PgQuery__DeleteStmt* stmt) {
  if (stmt->n_using_clause > 0 || stmt->with_clause || HasSubLink(&stmt->base) || !stmt->where_clause) return false;
  PgQuery__DeleteStmt probe = *stmt;
  probe.n_returning_list = 0;
  return BindSimpleDelete(&probe)->where_key.kind == KeyAccess::Kind::kPoint;
}

std::vector<StmtPtr> TableStatementBinder::BindTriggeredUpdate(const PgQuery__UpdateStmt* stmt, const std::vector<std::string>& set) {
  const TableInfo& table = ResolveTable(stmt->relation);
  if (loops_ == nullptr) throw NotSupported(fmt::format("an UPDATE of table \"{}\", which has triggers, here", table.name));
  RequireLoops("an UPDATE of a table with triggers", stmt->n_returning_list);
  RefuseRowIdentity(table, "UPDATE of");
  RejectReturningStar(stmt->returning_list, stmt->n_returning_list, stmt->n_from_clause);
  SyntheticNodes nodes;
  std::set<int> assigned;
  std::vector<int> set_columns;
  std::vector<PgQuery__Node*> values;
  std::vector<std::pair<std::string, SqlType>> types;
  for (int k : table.primary_key) types.emplace_back(table.columns[static_cast<size_t>(k)].name, table.columns[static_cast<size_t>(k)].type);
  for (const CatalogColumn& c : table.columns) types.emplace_back(c.name, c.type);
  for (size_t i = 0; i < stmt->n_target_list; ++i) {
    const PgQuery__ResTarget* t = stmt->target_list[i]->res_target;
    const int column = SetColumn(table, t, assigned, true);
    PgQuery__Node* value = SetValueNode(t, nodes);
    if (value->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
      throw NotSupported(fmt::format("SET ... = DEFAULT in an UPDATE of table \"{}\", which has row triggers,", table.name), t->location);
    set_columns.push_back(column);
    values.push_back(value);
    types.emplace_back(table.columns[static_cast<size_t>(column)].name, table.columns[static_cast<size_t>(column)].type);
  }
  const bool one_row = NamesOneRow(stmt);
  PgQuery__SelectStmt* query = TriggeredRowsQuery(nodes, table, stmt->relation, values, stmt->from_clause, stmt->n_from_clause,
                                                  stmt->where_clause, stmt->with_clause);
  Loop l = BeginLoop(PlanInsertSource(query, catalog_, {}, types, variables_), variables_, *loops_);
  const size_t keys = table.primary_key.size(), n = table.columns.size();

  TriggerWeaver weaver(catalog_, table, *loops_, variables_);
  std::vector<StmtPtr> tail;
  std::vector<int> old_row;
  for (size_t c = 0; c < n; ++c) old_row.push_back(LoopSlot(l, keys + c));
  const std::vector<int> new_row = weaver.RowVariables("new");
  for (size_t c = 0; c < n; ++c) {
    auto at = std::ranges::find(set_columns, static_cast<int>(c));
    const int from = at == set_columns.end() ? old_row[c] : LoopSlot(l, keys + n + static_cast<size_t>(at - set_columns.begin()));
    const SqlType type = table.columns[c].type.WithoutDomain();
    auto assign = std::make_unique<Stmt>();
    assign->kind = StmtKind::kAssign;
    assign->target = new_row[c];
    assign->value = MakeSlot(Slot{SlotSpace::kVariable, from}, type);
    tail.push_back(std::move(assign));
    l.scope->Add("", fmt::format("$new.{}", table.columns[c].name), new_row[c], type);
  }
  const int skip = weaver.NewSkipVariable(tail);
  Block before;
  weaver.BeforeRow(TriggerInfo::kUpdate, set, new_row, old_row, skip, before);
  const bool changes_row = !before.empty();
  for (StmtPtr& s : before) tail.push_back(std::move(s));

  // Each row: UPDATE ref SET column = its NEW value, by its key: the SET columns, or with
  // BEFORE triggers (which may change any) every column but the key and generated ones.
  std::vector<PgQuery__Node*> assignments;
  for (size_t c = 0; c < n; ++c) {
    const CatalogColumn& column = table.columns[c];
    const bool in_set = std::ranges::find(set_columns, static_cast<int>(c)) != set_columns.end();
    const bool key = std::ranges::find(table.primary_key, static_cast<int>(c)) != table.primary_key.end();
    if (!in_set && (!changes_row || key || column.generated || column.identity == CatalogColumn::Identity::kAlways)) continue;
    assignments.push_back(nodes.Target(nodes.ColumnRef("", fmt::format("$new.{}", column.name)), column.name.c_str()));
  }
  Block write;
  if (changes_row) {
    // A BEFORE trigger may not move the row to another key (the write is by the key).
    auto moved = MakeExpr(ExprKind::kOr, SqlType::Of(TypeId::kBool));
    for (int k : table.primary_key) {
      const SqlType type = table.columns[static_cast<size_t>(k)].type.WithoutDomain();
      auto ne = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
      ne->op = Op::kNe;
      ne->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, new_row[static_cast<size_t>(k)]}, type));
      ne->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, old_row[static_cast<size_t>(k)]}, type));
      moved->args.push_back(std::move(ne));
    }
    auto raise = std::make_unique<Stmt>();
    raise->kind = StmtKind::kRaise;
    raise->level = RaiseLevel::kException;
    raise->sqlstate = sqlstate::kFeatureNotSupported;
    raise->message = fmt::format("a BEFORE UPDATE trigger that changes the primary key of a row of table \"{}\" is not supported",
                                 table.name);
    auto check = std::make_unique<Stmt>();
    check->kind = StmtKind::kIf;
    check->conds.push_back(std::move(moved));
    check->blocks.emplace_back();
    check->blocks.back().push_back(std::move(raise));
    write.push_back(std::move(check));
  }
  if (!assignments.empty()) {
    PgQuery__UpdateStmt* update = nodes.NewUpdate();
    update->relation = stmt->relation;
    update->target_list = nodes.Array(assignments, update->n_target_list);
    update->returning_list = stmt->returning_list;
    update->n_returning_list = stmt->n_returning_list;
    TableStatementBinder row_binder(catalog_, l.scope.get());
    // A statement that names one row by its whole key writes that key, which the write
    // set then knows before the call runs; any other writes the keys its query read.
    if (one_row) update->where_clause = stmt->where_clause;
    StmtPtr row_write = row_binder.BindSimpleUpdate(update);
    returning_columns_ = row_binder.returning_columns();
    if (!one_row) KeyByLoopValues(*row_write, l);
    write.push_back(std::move(row_write));
  }
  weaver.AfterRow(TriggerInfo::kUpdate, set, new_row, old_row, write);
  tail.push_back(weaver.UnlessSkipped(skip, std::move(write)));
  std::vector<StmtPtr> out = FinishLoop(l, std::move(tail), *loops_);
  if (one_row) RunAtMostOnce(out);
  return out;
}

std::vector<StmtPtr> TableStatementBinder::BindTriggeredDelete(const PgQuery__DeleteStmt* stmt) {
  const TableInfo& table = ResolveTable(stmt->relation);
  if (loops_ == nullptr) throw NotSupported(fmt::format("a DELETE from table \"{}\", which has triggers, here", table.name));
  RequireLoops("a DELETE from a table with triggers", stmt->n_returning_list);
  RefuseRowIdentity(table, "DELETE from");
  RejectReturningStar(stmt->returning_list, stmt->n_returning_list, stmt->n_using_clause);
  SyntheticNodes nodes;
  PgQuery__SelectStmt* query = TriggeredRowsQuery(nodes, table, stmt->relation, {}, stmt->using_clause, stmt->n_using_clause,
                                                  stmt->where_clause, stmt->with_clause);
  Loop l = BeginLoop(PlanQuery(query, catalog_, {}, variables_), variables_, *loops_);
  const size_t keys = table.primary_key.size();
  TriggerWeaver weaver(catalog_, table, *loops_, variables_);
  std::vector<StmtPtr> tail;
  std::vector<int> old_row;
  for (size_t c = 0; c < table.columns.size(); ++c) old_row.push_back(LoopSlot(l, keys + c));
  const int skip = weaver.NewSkipVariable(tail);
  weaver.BeforeRow(TriggerInfo::kDelete, {}, {}, old_row, skip, tail);
  PgQuery__DeleteStmt* remove = nodes.NewDelete();
  remove->relation = stmt->relation;
  remove->returning_list = stmt->returning_list;
  remove->n_returning_list = stmt->n_returning_list;
  TableStatementBinder row_binder(catalog_, l.scope.get());
  const bool one_row = NamesOneRow(stmt);  // as in BindTriggeredUpdate
  if (one_row) remove->where_clause = stmt->where_clause;
  StmtPtr row_write = row_binder.BindSimpleDelete(remove);
  returning_columns_ = row_binder.returning_columns();
  if (!one_row) KeyByLoopValues(*row_write, l);
  Block write;
  write.push_back(std::move(row_write));
  weaver.AfterRow(TriggerInfo::kDelete, {}, {}, old_row, write);
  tail.push_back(weaver.UnlessSkipped(skip, std::move(write)));
  std::vector<StmtPtr> out = FinishLoop(l, std::move(tail), *loops_);
  if (one_row) RunAtMostOnce(out);
  return out;
}

}  // namespace caracal::planner
