#include "planner/binder/query_binder.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/binder/json_operators.h"
#include "planner/binder/select_binder.h"
#include "planner/catalog/system_views.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

namespace {

ExprPtr IdSlot(int id, const SqlType& type, int location = -1) { return MakeSlot(Slot{SlotSpace::kTuple, id}, type, location); }

}  // namespace

bool ContainsNode(const ProtobufCMessage* m, const std::function<bool(const PgQuery__Node*)>& match) {
  if (m == nullptr) return false;
  if (m->descriptor == &pg_query__node__descriptor && match(reinterpret_cast<const PgQuery__Node*>(m))) return true;
  const ProtobufCMessageDescriptor* d = m->descriptor;
  for (unsigned i = 0; i < d->n_fields; ++i) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    if (f.type != PROTOBUF_C_TYPE_MESSAGE) continue;
    const char* base = reinterpret_cast<const char*>(m);
    // A oneof's members share one pointer: only the set case's is valid.
    if ((f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *reinterpret_cast<const uint32_t*>(base + f.quantifier_offset) != f.id)
      continue;
    if (f.label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *reinterpret_cast<const size_t*>(base + f.quantifier_offset);
      auto items = *reinterpret_cast<ProtobufCMessage* const* const*>(base + f.offset);
      for (size_t k = 0; k < n; ++k)
        if (ContainsNode(items[k], match)) return true;
    } else {
      auto sub = *reinterpret_cast<const ProtobufCMessage* const*>(base + f.offset);
      if (ContainsNode(sub, match)) return true;
    }
  }
  return false;
}

namespace {

// Where PostgreSQL reports an expression: its leftmost token (an operator's left operand).
int LeftmostLocation(const PgQuery__Node* n) {
  if (n && n->node_case == PG_QUERY__NODE__NODE_A_EXPR && n->a_expr->lexpr) return LeftmostLocation(n->a_expr->lexpr);
  return NodeLocation(n);
}

ExprPtr BindCount(const PgQuery__Node* n, QueryBlock& block, const char* clause) {
  ExprBinder binder(&block, &block.builder.catalog);
  binder.AllowAggregates(false, clause);
  ExprPtr e = Coerce(binder.Bind(n), SqlType::Of(TypeId::kInt8), CastContext::kAssignment);
  if (e->References(SlotSpace::kTuple))
    throw SqlError("42P10", fmt::format("argument of {} must not contain variables", clause), e->location);
  return e;
}

// A Project node computing `exprs` over `child`'s tuple.
QueryNodePtr Project(QueryNodePtr child, std::vector<ExprPtr> exprs) {
  auto p = std::make_unique<QueryNode>();
  p->kind = QueryNodeKind::kProject;
  for (const auto& e : exprs) p->types.push_back(e->type);
  p->exprs = std::move(exprs);
  p->children.push_back(std::move(child));
  return p;
}

// Casts the columns of `bound` to `types` where they differ (a projection on top).
void CastColumns(QueryBuilder::Bound& bound, const std::vector<SqlType>& types) {
  bool differs = false;
  for (size_t i = 0; i < types.size(); ++i) differs = differs || !(bound.columns[i].type == types[i]);
  if (!differs) return;
  if (bound.node->kind == QueryNodeKind::kProject) {
    // In place: a literal is converted (and a bad one reported where it is written) now.
    for (size_t i = 0; i < types.size(); ++i) {
      if (bound.columns[i].type == types[i]) continue;
      ExprPtr& e = bound.node->exprs[i];
      e = Coerce(std::move(e), types[i], CastContext::kImplicit);
      bound.node->types[i] = types[i];
      bound.columns[i].type = types[i];
    }
    return;
  }
  std::vector<ExprPtr> exprs;
  for (size_t i = 0; i < types.size(); ++i) {
    ExprPtr slot = IdSlot(static_cast<int>(i), bound.columns[i].type);
    exprs.push_back(bound.columns[i].type == types[i] ? std::move(slot) : Coerce(std::move(slot), types[i], CastContext::kImplicit));
    bound.columns[i].type = types[i];
  }
  bound.node = Project(std::move(bound.node), std::move(exprs));
}

// ORDER BY / LIMIT over a finished query's output columns (a set operation's, VALUES'):
// only output names and positions may be sorted on.
void ApplyOuterSortAndLimit(const PgQuery__SelectStmt* s, QueryBuilder::Bound& bound, QueryBlock& scope, const char* what,
                            bool set_operation) {
  if (s->n_sort_clause > 0) {
    auto sort = std::make_unique<QueryNode>();
    sort->kind = QueryNodeKind::kSort;
    for (const auto& c : bound.columns) sort->types.push_back(c.type);
    for (size_t i = 0; i < s->n_sort_clause; ++i) {
      const PgQuery__SortBy* sb = s->sort_clause[i]->sort_by;
      SortKey key = SortKeyFor(sb);
      std::optional<int> output;
      if (auto pos = SelectListPosition(sb->node)) {
        if (*pos < 1 || *pos > static_cast<int>(bound.columns.size()))
          throw SqlError(sqlstate::kInvalidColumnReference, fmt::format("ORDER BY position {} is not in select list", *pos),
                         NodeLocation(sb->node));
        output = *pos - 1;
      } else if (auto bare = BareColumnName(sb->node)) {
        for (size_t c = 0; c < bound.columns.size() && !output; ++c)
          if (bound.columns[c].name == *bare) output = static_cast<int>(c);
        if (!output)
          throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", *bare), NodeLocation(sb->node));
      }
      if (!output && set_operation)
        throw SqlError(sqlstate::kFeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause", LeftmostLocation(sb->node))
            .WithDetail("Only result column names can be used, not expressions or functions.")
            .WithHint("Add the expression/function to every SELECT, or move the UNION into a FROM clause.");
      if (!output) throw NotSupported(fmt::format("ORDER BY expressions over {}", what), LeftmostLocation(sb->node));
      key.output = *output;
      sort->sort.push_back(key);
    }
    sort->children.push_back(std::move(bound.node));
    bound.node = std::move(sort);
  }
  if (s->limit_count || s->limit_offset) {
    auto limit = std::make_unique<QueryNode>();
    limit->kind = QueryNodeKind::kLimit;
    limit->types = bound.node->types;
    if (s->limit_count) limit->limit = BindCount(s->limit_count, scope, "LIMIT");
    if (s->limit_offset) limit->offset = BindCount(s->limit_offset, scope, "OFFSET");
    limit->children.push_back(std::move(bound.node));
    bound.node = std::move(limit);
  }
}

const char* SetOpName(PgQuery__SetOperation op) {
  switch (op) {
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT: return "INTERSECT";
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT: return "EXCEPT";
    default: return "UNION";
  }
}

// Turns an expression over FROM ids into one over a grouped query's ids: GROUP BY
// expressions become their key's id, aggregate calls their aggregate's id; any other FROM
// column is an error.
class GroupRewriter {
 public:
  GroupRewriter(QueryBlock& block, const std::vector<ExprPtr>& group_by, const std::vector<int>& key_ids,
                std::vector<AggregateSpec>& aggregates, std::vector<int>& agg_ids)
      : block_(block), group_by_(group_by), key_ids_(key_ids), aggregates_(aggregates), agg_ids_(agg_ids) {}

  ExprPtr Rewrite(ExprPtr e) {
    for (size_t i = 0; i < group_by_.size(); ++i)
      if (e->Equals(*group_by_[i])) return IdSlot(key_ids_[i], e->type, e->location);
    if (e->kind == ExprKind::kAggRef) return IdSlot(AggregateId(*e), e->type, e->location);
    if (e->kind == ExprKind::kSlot && e->slot.space == SlotSpace::kTuple && e->slot.index < from_ids_)
      throw SqlError(sqlstate::kGroupingError,
                     fmt::format("column \"{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                                 block_.IdName(e->slot.index)),
                     e->location);
    for (auto& a : e->args) a = Rewrite(std::move(a));
    return e;
  }
  void SetFromIds(int n) { from_ids_ = n; }

 private:
  int AggregateId(const Expr& agg) {
    for (size_t i = 0; i < aggregates_.size(); ++i)
      if (aggregates_[i].Computes(agg)) return agg_ids_[i];
    aggregates_.push_back(AggregateSpec::Of(agg));
    agg_ids_.push_back(block_.NewId(agg.type, "", "aggregate"));
    return agg_ids_.back();
  }

  QueryBlock& block_;
  const std::vector<ExprPtr>& group_by_;
  const std::vector<int>& key_ids_;
  std::vector<AggregateSpec>& aggregates_;
  std::vector<int>& agg_ids_;
  int from_ids_ = 0;
};

void BindWithClause(QueryBlock& block, const PgQuery__WithClause* with);

// generate_series(a, b [, step]) over integers or timestamps, or unnest(array [, ...]): its arguments
// coerced, its output columns' types. Throws PostgreSQL's "function ... does not exist".
std::vector<SqlType> TypeTableFunction(const std::string& name, std::vector<ExprPtr>& args, int location,
                                       TableFunction& function) {
  auto no_function = [&]() {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i]->type.BaseName();
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), location)
        .WithHint("No function matches the given name and argument types. You might need to add explicit type casts.");
  };
  std::vector<SqlType> types;
  if (name == "generate_series") {
    function = TableFunction::kGenerateSeries;
    if (args.size() != 2 && args.size() != 3) no_function();
    // generate_series(timestamp[tz], timestamp[tz], interval): the bounds' common type
    // (timestamptz when either is, or when both are untyped), stepping by the interval.
    const bool times = std::any_of(args.begin(), args.end(), [](const ExprPtr& a) { return a->type.is_datetime(); });
    if (times) {
      if (args.size() != 3) no_function();
      SqlType t = SqlType::Of(TypeId::kTimestampTz);
      if (args[0]->type.id == TypeId::kTimestamp || args[1]->type.id == TypeId::kTimestamp) t = SqlType::Of(TypeId::kTimestamp);
      if (args[0]->type.id == TypeId::kTimestampTz || args[1]->type.id == TypeId::kTimestampTz) t = SqlType::Of(TypeId::kTimestampTz);
      for (size_t i = 0; i < 2; ++i) {
        ExprPtr& a = args[i];
        if (!a->type.is_unknown() && CastContextFor(a->type, t) != CastContext::kImplicit && a->type.id != t.id) no_function();
        a = Coerce(std::move(a), t, CastContext::kImplicit);
      }
      if (!args[2]->type.is_unknown() && args[2]->type.id != TypeId::kInterval) no_function();
      args[2] = Coerce(std::move(args[2]), SqlType::Of(TypeId::kInterval), CastContext::kImplicit);
      types.push_back(t);
      return types;
    }
    SqlType t = SqlType::Of(TypeId::kInt4);
    for (const auto& a : args) {
      if (a->type.is_unknown()) continue;
      if (a->type.id == TypeId::kNumeric)
        throw NotSupported(fmt::format("generate_series over {}", a->type.BaseName()), location);
      if (!a->type.is_integer()) no_function();
      t = PromoteNumeric(t, a->type.Base());
    }
    if (t.id == TypeId::kInt2) t = SqlType::Of(TypeId::kInt4);
    for (auto& a : args) a = Coerce(std::move(a), t, CastContext::kImplicit);
    types.push_back(t);
    return types;
  }
  function = TableFunction::kUnnest;
  if (args.empty()) no_function();
  for (auto& a : args) {
    if (!a->type.is_array()) no_function();
    types.push_back(a->type.Element());
  }
  return types;
}

// Binds one SELECT block (no set operation at its top).
class BlockBinder {
 public:
  // `set_operand`: an arm of a set operation, whose untyped literals the operation types.
  BlockBinder(QueryBlock& block, const PgQuery__SelectStmt* s, bool set_operand)
      : block_(block), s_(s), catalog_(block.builder.catalog), set_operand_(set_operand) {}

  QueryBuilder::Bound Bind();

 private:
  std::unique_ptr<FromTree> BindFromItem(const PgQuery__Node* n);
  std::unique_ptr<FromTree> BindRangeVar(const PgQuery__RangeVar* rv);
  std::unique_ptr<FromTree> BindRangeSubselect(const PgQuery__RangeSubselect* rs);
  std::unique_ptr<FromTree> BindRangeFunction(const PgQuery__RangeFunction* rf);
  std::unique_ptr<FromTree> BindJoin(const PgQuery__JoinExpr* j);
  // Adds a leaf with columns `names`/`types` under `alias`.
  std::unique_ptr<FromTree> BindView(const ViewInfo& view, const std::string& alias, const PgQuery__RangeVar* rv);
  std::unique_ptr<FromTree> AddLeaf(FromLeaf leaf, const std::string& alias, const std::vector<std::string>& names,
                                    const std::vector<SqlType>& types, const PgQuery__Alias* alias_node, int location);
  void ExpandStar(const PgQuery__ColumnRef* ref);
  void CheckLockingClauses(const PgQuery__SelectStmt* s, bool aggregates, bool windows) const;
  ExprBinder MakeBinder() {
    ExprBinder binder(&block_, &catalog_);
    binder.SetSubqueries(&block_);
    return binder;
  }

  QueryBlock& block_;
  const PgQuery__SelectStmt* s_;
  const Catalog& catalog_;
  std::vector<std::unique_ptr<FromTree>> from_;
  // SELECT * order: per top-level FROM item, (name, id) of its columns.
  std::vector<std::vector<std::pair<std::string, int>>> star_;
  std::map<const FromTree*, std::vector<std::pair<std::string, int>>> tree_star_;
  std::vector<ExprPtr> outputs_;
  std::vector<OutputColumn> columns_;
  bool set_operand_;
};

std::unique_ptr<FromTree> BlockBinder::AddLeaf(FromLeaf leaf, const std::string& alias, const std::vector<std::string>& names,
                                               const std::vector<SqlType>& types, const PgQuery__Alias* alias_node,
                                               int location) {
  std::vector<std::string> shown = names;
  if (alias_node && alias_node->n_colnames > 0) {
    if (alias_node->n_colnames > names.size())
      throw SqlError(sqlstate::kInvalidColumnReference,
                     fmt::format("table \"{}\" has {} columns available but {} columns specified", alias, names.size(),
                                 alias_node->n_colnames),
                     location);
    for (size_t i = 0; i < alias_node->n_colnames; ++i) shown[i] = StringValue(alias_node->colnames[i]);
  }
  for (const RangeEntry& r : block_.ranges)
    if (!alias.empty() && r.alias == alias)
      throw SqlError("42712", fmt::format("table name \"{}\" specified more than once", alias));
  const int leaf_index = static_cast<int>(block_.leaves.size());
  RangeEntry range;
  range.alias = alias;
  auto tree = std::make_unique<FromTree>();
  tree->leaf = leaf_index;
  tree->leaves.push_back(leaf_index);
  std::vector<std::pair<std::string, int>> star;
  const bool keep_ids = !leaf.ids.empty();
  for (size_t i = 0; i < shown.size(); ++i) {
    int id = keep_ids ? leaf.ids[i] : block_.NewId(types[i], alias, shown[i]);
    if (!keep_ids) leaf.ids.push_back(id);
    if (block_.id_leaf.size() <= static_cast<size_t>(id)) block_.id_leaf.resize(static_cast<size_t>(id) + 1, -1);
    block_.id_leaf[static_cast<size_t>(id)] = leaf_index;
    range.columns.push_back(RangeColumn{shown[i], id, false});
    star.emplace_back(shown[i], id);
  }
  leaf.alias = alias;
  if (leaf.node) {
    leaf.node->alias = alias;
    leaf.node->names = shown;
  }
  block_.leaves.push_back(std::move(leaf));
  block_.ranges.push_back(std::move(range));
  tree_star_[tree.get()] = std::move(star);
  return tree;
}

std::unique_ptr<FromTree> BlockBinder::BindRangeVar(const PgQuery__RangeVar* rv) {
  if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname), rv->location);
  const std::string name = rv->relname;
  const std::string alias = rv->alias ? rv->alias->aliasname : name;
  const bool qualified = rv->schemaname && *rv->schemaname;
  // A CTE (or the recursive CTE's own work table) hides a table of the same name.
  for (const CteScope* scope = &block_.cte_scope; scope && !qualified; scope = scope->parent) {
    if (scope->work_table && scope->work_table->name == name) {
      FromLeaf leaf;
      leaf.node = std::make_unique<QueryNode>();
      leaf.node->kind = QueryNodeKind::kWorkTableScan;
      leaf.node->cte = scope->work_table->cte;
      leaf.node->cte_name = name;
      leaf.node->types = scope->work_table->types;
      return AddLeaf(std::move(leaf), alias, scope->work_table->names, scope->work_table->types, rv->alias, rv->location);
    }
    for (const auto& [cte_name, index] : scope->ctes) {
      if (cte_name != name) continue;
      FromLeaf leaf;
      leaf.node = std::make_unique<QueryNode>();
      leaf.node->kind = QueryNodeKind::kCteScan;
      leaf.node->cte = index;
      leaf.node->cte_name = name;
      std::vector<std::string> names;
      for (const auto& c : block_.builder.plan.cte_columns[static_cast<size_t>(index)]) {
        names.push_back(c.name);
        leaf.node->types.push_back(c.type);
      }
      std::vector<SqlType> types = leaf.node->types;
      return AddLeaf(std::move(leaf), alias, names, types, rv->alias, rv->location);
    }
  }
  const TableInfo* table = catalog_.FindTable(name);
  if (!table) {
    if (const ViewInfo* view = catalog_.FindView(name)) return BindView(*view, alias, rv);
    if (FindSystemView(name)) throw NotSupported("system views in a join, subquery or WITH query", rv->location);
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name), rv->location);
  }
  FromLeaf leaf;
  leaf.table = table;
  std::vector<std::string> names;
  std::vector<SqlType> types;
  for (const CatalogColumn& c : table->columns) {
    names.push_back(c.name);
    types.push_back(c.type);
  }
  return AddLeaf(std::move(leaf), alias, names, types, rv->alias, rv->location);
}

// A view: its query bound afresh as a subquery named after it (or the alias), seeing
// nothing of the query around it; its columns take the names the view gave them.
std::unique_ptr<FromTree> BlockBinder::BindView(const ViewInfo& view, const std::string& alias, const PgQuery__RangeVar* rv) {
  const PgQuery__SelectStmt* query = view.parse->statement(0)->view_stmt->query->select_stmt;
  std::vector<std::string>& binding = block_.builder.views_binding;
  if (std::ranges::find(binding, view.name) != binding.end())
    throw SqlError("42P17", fmt::format("infinite recursion detected in rules for relation \"{}\"", view.name));
  binding.push_back(view.name);
  struct Pop {
    std::vector<std::string>& binding;
    ~Pop() { binding.pop_back(); }
  } pop{binding};
  QueryBuilder::Bound bound = [&] {
    try {
      return block_.builder.BindSelect(query, nullptr, nullptr, nullptr);
    } catch (SqlError& e) {
      if (e.sqlstate() == "42P17") throw;  // already named where it happened
      // The error is in the view's text, not in this statement's.
      e.ShiftLocation(-1);
      throw e.WithContext(fmt::format("while binding view \"{}\"", view.name));
    }
  }();
  FromLeaf leaf;
  leaf.node = std::make_unique<QueryNode>();
  leaf.node->kind = QueryNodeKind::kSubqueryScan;
  std::vector<std::string> names;
  std::vector<SqlType> types;
  for (size_t i = 0; i < bound.columns.size(); ++i) {
    names.push_back(i < view.column_names.size() ? view.column_names[i] : bound.columns[i].name);
    types.push_back(bound.columns[i].type);
  }
  leaf.node->types = types;
  leaf.node->children.push_back(std::move(bound.node));
  return AddLeaf(std::move(leaf), alias, names, types, rv->alias, rv->location);
}

std::unique_ptr<FromTree> BlockBinder::BindRangeSubselect(const PgQuery__RangeSubselect* rs) {
  const PgQuery__SelectStmt* sub = rs->subquery->select_stmt;
  if (!rs->alias) throw SqlError(sqlstate::kSyntaxError, "subquery in FROM must have an alias", NodeLocation(rs->subquery))
                      .WithHint("For example, FROM (SELECT ...) [AS] foo.");
  Frame frame{&block_, rs->lateral ? static_cast<int>(block_.ranges.size()) : 0, {}};
  QueryBuilder::Bound bound = block_.builder.BindSelect(sub, &frame, block_.outer, &block_.cte_scope);
  FromLeaf leaf;
  leaf.node = std::make_unique<QueryNode>();
  leaf.node->kind = QueryNodeKind::kSubqueryScan;
  std::vector<std::string> names;
  std::vector<SqlType> types;
  for (const auto& c : bound.columns) {
    names.push_back(c.name);
    types.push_back(c.type);
  }
  leaf.node->types = types;
  leaf.node->children.push_back(std::move(bound.node));
  for (const auto& p : frame.params) leaf.lateral = leaf.lateral || p->References(SlotSpace::kTuple);
  leaf.node->params = std::move(frame.params);
  return AddLeaf(std::move(leaf), rs->alias->aliasname, names, types, rs->alias, NodeLocation(rs->subquery));
}

std::unique_ptr<FromTree> BlockBinder::BindRangeFunction(const PgQuery__RangeFunction* rf) {
  if (rf->is_rowsfrom || rf->n_functions != 1) throw NotSupported("ROWS FROM (...)");
  const PgQuery__List* item = rf->functions[0]->list;
  if (item->n_items > 1 && item->items[1] != nullptr && item->items[1]->node_case == PG_QUERY__NODE__NODE_LIST)
    throw NotSupported("a column definition list for a function in FROM");
  const PgQuery__Node* call = item->items[0];
  if (call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) throw NotSupported("this kind of function call in FROM");
  const PgQuery__FuncCall* f = call->func_call;
  const std::string name = StringValue(f->funcname[f->n_funcname - 1]);
  ExprBinder binder = MakeBinder();
  binder.AllowAggregates(false, "functions in FROM");
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < f->n_args; ++i) args.push_back(binder.Bind(f->args[i]));
  FromLeaf leaf;
  leaf.node = std::make_unique<QueryNode>();
  QueryNode& node = *leaf.node;
  node.kind = QueryNodeKind::kFunctionScan;
  std::vector<std::string> names;
  std::vector<SqlType> types;
  // The set-returning json functions are unnest over arrays made from their argument;
  // their columns have names of their own (value, key), which an alias does not change.
  const bool json = IsJsonSetFunction(name);
  if (json) {
    RewriteJsonSetFunction(name, args, f->location, names);
    types = TypeTableFunction("unnest", args, f->location, node.function);
  } else if (name == "generate_series" || name == "unnest") {
    types = TypeTableFunction(name, args, f->location, node.function);
    names.assign(types.size(), name);
  } else {
    if (!catalog_.FindProcedures(name).empty())
      throw NotSupported(fmt::format("the user function {}() in a FROM clause with other items", name), f->location)
          .WithHint("A call is one transaction: call it on its own, as SELECT * FROM f(...).");
    throw NotSupported(fmt::format("the function {}() in FROM", name), f->location);
  }
  const std::string alias = rf->alias ? rf->alias->aliasname : name;
  // A function returning one column names it after its alias (FROM generate_series(1,3) AS g).
  if (names.size() == 1 && rf->alias && rf->alias->n_colnames == 0 && !json) names[0] = alias;
  if (rf->ordinality) {
    names.push_back("ordinality");
    types.push_back(SqlType::Of(TypeId::kInt8));
    node.ordinality = true;
  }
  node.types = types;
  for (const auto& a : args) leaf.lateral = leaf.lateral || a->References(SlotSpace::kTuple);
  node.args = std::move(args);
  return AddLeaf(std::move(leaf), alias, names, types, rf->alias, f->location);
}

std::unique_ptr<FromTree> BlockBinder::BindJoin(const PgQuery__JoinExpr* j) {
  if (j->alias) throw NotSupported("an alias for a join (JOIN ... ) AS name");
  JoinKind kind = JoinKind::kInner;
  bool right = false;
  switch (j->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER: kind = JoinKind::kInner; break;
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT: kind = JoinKind::kLeft; break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT: kind = JoinKind::kLeft; right = true; break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL: kind = JoinKind::kFull; break;
    default: throw NotSupported("this kind of join");
  }
  auto tree = std::make_unique<FromTree>();
  tree->left = BindFromItem(j->larg);
  tree->right = BindFromItem(j->rarg);
  tree->kind = kind;
  const auto& lstar = tree_star_.at(tree->left.get());
  const auto& rstar = tree_star_.at(tree->right.get());
  std::vector<std::pair<std::string, int>> star;
  std::vector<std::string> using_names;
  if (j->is_natural) {
    for (const auto& [n, id] : lstar)
      for (const auto& [rn, rid] : rstar)
        if (n == rn && std::find(using_names.begin(), using_names.end(), n) == using_names.end()) using_names.push_back(n);
  }
  for (size_t i = 0; i < j->n_using_clause; ++i) using_names.push_back(StringValue(j->using_clause[i]));
  std::vector<ExprPtr> quals;
  std::set<int> merged_left, merged_right;
  for (const std::string& u : using_names) {
    auto find = [&](const std::vector<std::pair<std::string, int>>& side, const char* which) {
      int found = -1;
      for (const auto& [n, id] : side) {
        if (n != u) continue;
        if (found >= 0)
          throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("common column name \"{}\" appears more than once in {} table", u, which));
        found = id;
      }
      if (found < 0)
        throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" specified in USING clause does not exist in {} table", u, which));
      return found;
    };
    const int l = find(lstar, "left"), r = find(rstar, "right");
    merged_left.insert(l);
    merged_right.insert(r);
    const SqlType lt = block_.IdType(l), rt = block_.IdType(r);
    std::vector<SqlType> both{lt, rt};
    SqlType common = CommonType(both, "JOIN/USING", -1);
    quals.push_back(MakeOperator("=", IdSlot(l, lt), IdSlot(r, rt), -1));
    int merged;
    if (kind == JoinKind::kFull || !((right ? rt : lt) == common)) {
      ExprPtr value;
      if (kind == JoinKind::kFull) {
        std::vector<ExprPtr> items;
        items.push_back(Coerce(IdSlot(l, lt), common, CastContext::kImplicit));
        items.push_back(Coerce(IdSlot(r, rt), common, CastContext::kImplicit));
        value = MakeExpr(ExprKind::kCoalesce, common, -1);
        value->args = std::move(items);
      } else {
        value = Coerce(IdSlot(right ? r : l, right ? rt : lt), common, CastContext::kImplicit);
      }
      merged = block_.NewId(common, "", u);
      tree->computed.emplace_back(merged, std::move(value));
    } else {
      merged = right ? r : l;
    }
    for (RangeEntry& range : block_.ranges)
      for (RangeColumn& c : range.columns)
        if (c.id == l || c.id == r) c.hidden = true;
    star.emplace_back(u, merged);
    RangeEntry entry;
    entry.columns.push_back(RangeColumn{u, merged, false});
    block_.ranges.push_back(std::move(entry));
  }
  for (const auto& c : lstar)
    if (!merged_left.count(c.second)) star.push_back(c);
  for (const auto& c : rstar)
    if (!merged_right.count(c.second)) star.push_back(c);
  if (j->quals) {
    ExprBinder binder = MakeBinder();
    binder.AllowAggregates(false, "JOIN conditions");
    quals.push_back(binder.BindCondition(j->quals, "JOIN/ON"));
  }
  if (!quals.empty()) {
    if (quals.size() == 1) {
      tree->quals = std::move(quals[0]);
    } else {
      tree->quals = MakeExpr(ExprKind::kAnd, SqlType::Of(TypeId::kBool), -1);
      tree->quals->args = std::move(quals);
    }
  }
  if (right) std::swap(tree->left, tree->right);
  tree->leaves = tree->left->leaves;
  tree->leaves.insert(tree->leaves.end(), tree->right->leaves.begin(), tree->right->leaves.end());
  tree_star_[tree.get()] = std::move(star);
  return tree;
}

std::unique_ptr<FromTree> BlockBinder::BindFromItem(const PgQuery__Node* n) {
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: return BindRangeVar(n->range_var);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: return BindRangeSubselect(n->range_subselect);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION: return BindRangeFunction(n->range_function);
    case PG_QUERY__NODE__NODE_JOIN_EXPR: return BindJoin(n->join_expr);
    default: throw NotSupported("this kind of FROM item", NodeLocation(n));
  }
}

// GROUP BY items with GROUPING SETS / ROLLUP / CUBE as PostgreSQL expands them: each item
// a list of sets (a plain expression: one set of itself; `()`: the empty set; ROLLUP(e1,
// .., en): e1..en, e1..en-1, .., (); CUBE: every subset; GROUPING SETS (...): its items'
// sets in order), the GROUP BY the cross product of its items'. An element in parentheses,
// (a, b), is one unit. Sets are lists of keys (`key_of` binds an expression, once).
std::vector<std::vector<int>> ExpandGroupingSets(PgQuery__Node* const* items, size_t n,
                                                 const std::function<int(const PgQuery__Node*)>& key_of) {
  using Sets = std::vector<std::vector<int>>;
  static constexpr size_t kMaxSets = 4096;  // PostgreSQL's limit
  auto too_many = [](int location) {
    return SqlError("54001", fmt::format("too many grouping sets present (maximum {})", kMaxSets), location);
  };
  auto unit = [&](const PgQuery__Node* c) {
    std::vector<int> keys;
    if (c->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
      for (size_t i = 0; i < c->row_expr->n_args; ++i) keys.push_back(key_of(c->row_expr->args[i]));
    } else if (c->node_case == PG_QUERY__NODE__NODE_GROUPING_SET &&
               (c->grouping_set->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE ||
                c->grouping_set->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY)) {
      for (size_t i = 0; i < c->grouping_set->n_content; ++i) keys.push_back(key_of(c->grouping_set->content[i]));
    } else if (c->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) {
      throw NotSupported("ROLLUP, CUBE or GROUPING SETS inside ROLLUP or CUBE", c->grouping_set->location);
    } else {
      keys.push_back(key_of(c));
    }
    return keys;
  };
  std::function<Sets(const PgQuery__Node*)> expand = [&](const PgQuery__Node* g) -> Sets {
    if (g->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) return {unit(g)};
    if (g->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) return {{key_of(g)}};
    const PgQuery__GroupingSet* gs = g->grouping_set;
    std::vector<std::vector<int>> units;
    switch (gs->kind) {
      case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY: return {{}};
      case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE: return {unit(g)};
      case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS: {
        Sets out;
        for (size_t i = 0; i < gs->n_content; ++i)
          for (std::vector<int>& set : expand(gs->content[i])) out.push_back(std::move(set));
        return out;
      }
      case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP: {
        for (size_t i = 0; i < gs->n_content; ++i) units.push_back(unit(gs->content[i]));
        Sets out;
        for (size_t len = units.size() + 1; len-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < len; ++i) set.insert(set.end(), units[i].begin(), units[i].end());
          out.push_back(std::move(set));
        }
        return out;
      }
      case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE: {
        for (size_t i = 0; i < gs->n_content; ++i) units.push_back(unit(gs->content[i]));
        if (units.size() > 12) throw too_many(gs->location);
        Sets out;
        // Largest sets first, as ROLLUP lists them: the subsets by descending bit patterns.
        for (size_t mask = (size_t{1} << units.size()); mask-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < units.size(); ++i)
            if (mask & (size_t{1} << (units.size() - 1 - i))) set.insert(set.end(), units[i].begin(), units[i].end());
          out.push_back(std::move(set));
        }
        return out;
      }
      default: throw NotSupported("this kind of grouping set", gs->location);
    }
  };
  Sets result{{}};
  for (size_t i = 0; i < n; ++i) {
    Sets next;
    for (const std::vector<int>& set : expand(items[i]))
      for (const std::vector<int>& before : result) {
        std::vector<int> combined = before;
        for (int k : set)
          if (std::find(combined.begin(), combined.end(), k) == combined.end()) combined.push_back(k);
        next.push_back(std::move(combined));
        if (next.size() > kMaxSets) throw too_many(NodeLocation(items[i]));
      }
    result = std::move(next);
  }
  return result;
}

void BindWithClause(QueryBlock& block_, const PgQuery__WithClause* with) {
  QueryPlan& plan = block_.builder.plan;
  for (size_t i = 0; i < with->n_ctes; ++i) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    const std::string name = cte->ctename;
    for (const auto& [n, index] : block_.cte_scope.ctes)
      if (n == name)
        throw SqlError("42712", fmt::format("WITH query name \"{}\" specified more than once", name), cte->location);
    if (cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
      // The top level's are bound before the query (binder/with_queries.cc).
      throw SqlError(sqlstate::kFeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level",
                     cte->location);
    const PgQuery__SelectStmt* q = cte->ctequery->select_stmt;
    const int index = static_cast<int>(plan.ctes.size());
    plan.ctes.push_back(QueryPlan::Cte{name, nullptr, false});
    plan.cte_columns.emplace_back();
    auto rename = [&](std::vector<OutputColumn>& columns) {
      if (cte->n_aliascolnames > columns.size())
        throw SqlError(sqlstate::kInvalidColumnReference,
                       fmt::format("WITH query \"{}\" has {} columns available but {} columns specified", name,
                                   columns.size(), cte->n_aliascolnames),
                       cte->location);
      for (size_t c = 0; c < cte->n_aliascolnames; ++c) columns[c].name = StringValue(cte->aliascolnames[c]);
    };
    // WITH RECURSIVE name AS (base UNION [ALL] step): the step reads the work table.
    const bool self_reference =
        with->recursive && ContainsNode(&q->base, [&](const PgQuery__Node* node) {
          return node->node_case == PG_QUERY__NODE__NODE_RANGE_VAR && name == node->range_var->relname;
        });
    Frame frame{&block_, 0, {}};
    QueryBuilder::Bound bound;
    if (self_reference) {
      if (q->op != PG_QUERY__SET_OPERATION__SETOP_UNION)
        throw SqlError("42P19",
                       fmt::format("recursive query \"{}\" does not have the form non-recursive-term UNION [ALL] recursive-term", name),
                       cte->location);
      if (q->n_sort_clause > 0 || q->limit_count || q->limit_offset || q->with_clause)
        throw NotSupported("ORDER BY, LIMIT or WITH in a recursive query", cte->location);
      QueryBuilder::Bound base = block_.builder.BindSelect(q->larg, &frame, block_.outer, &block_.cte_scope);
      rename(base.columns);
      CteScope inner{&block_.cte_scope, {}, {}};
      inner.work_table = CteScope::WorkTable{name, index, {}, {}};
      for (const auto& c : base.columns) {
        inner.work_table->names.push_back(c.name);
        inner.work_table->types.push_back(c.type);
      }
      QueryBuilder::Bound step = block_.builder.BindSelect(q->rarg, &frame, block_.outer, &inner);
      if (step.columns.size() != base.columns.size())
        throw SqlError(sqlstate::kSyntaxError, "each UNION query must have the same number of columns", cte->location);
      std::vector<SqlType> types;
      for (const auto& c : base.columns) types.push_back(c.type);
      for (size_t c = 0; c < types.size(); ++c)
        if (!(step.columns[c].type.Base() == types[c].Base()) && !(step.columns[c].type == types[c]))
          CastColumns(step, types);
      auto node = std::make_unique<QueryNode>();
      node->kind = QueryNodeKind::kRecursiveUnion;
      node->types = types;
      node->cte = index;
      node->cte_name = name;
      node->all = q->all;
      node->children.push_back(std::move(base.node));
      node->children.push_back(std::move(step.node));
      bound.node = std::move(node);
      bound.columns = std::move(base.columns);
      plan.ctes[static_cast<size_t>(index)].recursive = true;
    } else {
      bound = block_.builder.BindSelect(q, &frame, block_.outer, &block_.cte_scope);
      rename(bound.columns);
    }
    if (!frame.params.empty()) throw NotSupported("a WITH query that reads columns of an outer query", cte->location);
    plan.ctes[static_cast<size_t>(index)].plan = std::move(bound.node);
    plan.cte_columns[static_cast<size_t>(index)] = std::move(bound.columns);
    block_.cte_scope.ctes.emplace_back(name, index);
  }
}

// FOR UPDATE / SHARE [OF t]: checked as PostgreSQL checks it, and then nothing more to do
// (see select_binder.cc's CheckLocking: a transaction runs alone at its serial position).
void BlockBinder::CheckLockingClauses(const PgQuery__SelectStmt* s, bool aggregates, bool windows) const {
  for (size_t i = 0; i < s->n_locking_clause; ++i) {
    const PgQuery__LockingClause* lc = s->locking_clause[i]->locking_clause;
    const std::string what = LockingClauseName(lc->strength);
    auto refuse = [&](const char* with) {
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not allowed with {}", what, with));
    };
    if (s->n_distinct_clause > 0) refuse("DISTINCT clause");
    if (s->n_group_clause > 0) refuse("GROUP BY clause");
    if (s->having_clause) refuse("HAVING clause");
    if (aggregates) refuse("aggregate functions");
    if (windows) refuse("window functions");
    for (size_t r = 0; r < lc->n_locked_rels; ++r) {
      const PgQuery__RangeVar* rv = lc->locked_rels[r]->range_var;
      bool found = false;
      for (const RangeEntry& range : block_.ranges) found = found || (!range.alias.empty() && range.alias == rv->relname);
      if (!found)
        throw SqlError(sqlstate::kUndefinedTable,
                       fmt::format("relation \"{}\" in {} clause not found in FROM clause", rv->relname, what), rv->location);
    }
  }
}

void BlockBinder::ExpandStar(const PgQuery__ColumnRef* ref) {
  auto add = [&](const std::string& name, int id) {
    outputs_.push_back(IdSlot(id, block_.IdType(id), ref->location));
    columns_.push_back(OutputColumn{name, block_.IdType(id)});
  };
  if (ref->n_fields == 1) {
    if (from_.empty()) throw SqlError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid", ref->location);
    for (const auto& item : star_)
      for (const auto& [name, id] : item) add(name, id);
    return;
  }
  const std::string qualifier = StringValue(ref->fields[ref->n_fields - 2]);
  for (const RangeEntry& r : block_.ranges) {
    if (r.alias != qualifier) continue;
    for (const RangeColumn& c : r.columns) add(c.name, c.id);
    return;
  }
  // A PL/pgSQL record's fields (`SELECT OLD.*` in a trigger function).
  if (std::optional<RecordBinding> record = block_.LookupRecord(qualifier)) {
    for (const auto& [name, b] : record->fields) {
      outputs_.push_back(MakeSlot(b.slot, b.type, ref->location));
      columns_.push_back(OutputColumn{name, b.type});
    }
    return;
  }
  throw SqlError(sqlstate::kUndefinedTable, fmt::format("missing FROM-clause entry for table \"{}\"", qualifier), ref->location);
}

QueryBuilder::Bound BlockBinder::Bind() {
  const PgQuery__SelectStmt* s = s_;
  block_.stmt = s;
  if (s->into_clause) throw NotSupported("SELECT INTO");
  if (s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) throw NotSupported("FETCH ... WITH TIES");
  if (s->with_clause) BindWithClause(block_, s->with_clause);
  for (size_t i = 0; i < s->n_from_clause; ++i) {
    from_.push_back(BindFromItem(s->from_clause[i]));
    star_.push_back(tree_star_.at(from_.back().get()));
  }
  const int from_ids = static_cast<int>(block_.id_count());

  ExprBinder binder = MakeBinder();
  binder.AllowAggregates(true);
  binder.AllowWindows(true);
  binder.AllowSetReturning(true);
  for (size_t i = 0; i < s->n_target_list; ++i) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    const PgQuery__Node* v = t->val;
    if (v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        v->column_ref->fields[v->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      ExpandStar(v->column_ref);
      continue;
    }
    ExprPtr e = binder.Bind(v);
    if (e->type.is_unknown() && !set_operand_) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    columns_.push_back(OutputColumn{OutputColumnName(t), e->type});
    outputs_.push_back(std::move(e));
  }
  binder.AllowWindows(false);
  binder.AllowSetReturning(false);

  ExprPtr where;
  if (s->where_clause) {
    binder.AllowAggregates(false, "WHERE");
    where = binder.BindCondition(s->where_clause, "WHERE");
  }

  // One GROUP BY item: a select-list position, an output name, else an expression.
  auto bind_group_item = [&](const PgQuery__Node* g) -> ExprPtr {
    if (auto pos = SelectListPosition(g)) {
      if (*pos < 1 || *pos > static_cast<int>(columns_.size()))
        throw SqlError(sqlstate::kInvalidColumnReference, fmt::format("GROUP BY position {} is not in select list", *pos),
                       NodeLocation(g));
      const Expr& target = *outputs_[static_cast<size_t>(*pos - 1)];
      if (target.ContainsAggregate())
        throw SqlError(sqlstate::kGroupingError, "aggregate functions are not allowed in GROUP BY", target.location);
      return target.Clone();
    }
    binder.AllowAggregates(false, "GROUP BY");
    std::optional<std::string> bare = BareColumnName(g);
    if (bare) {
      std::vector<std::string> names{*bare};
      bool is_input = false;
      try {
        is_input = block_.Resolve(names, -1, static_cast<int>(block_.ranges.size())).has_value();
      } catch (const SqlError&) {
        is_input = true;  // ambiguous: let Bind report it
      }
      if (!is_input)
        for (size_t c = 0; c < columns_.size(); ++c)
          if (columns_[c].name == *bare && !outputs_[c]->ContainsAggregate()) return outputs_[c]->Clone();
    }
    return binder.Bind(g);
  };
  // The keys (each distinct expression once) and, with GROUPING SETS / ROLLUP / CUBE,
  // the keys of each set.
  std::vector<ExprPtr> group_by;
  std::vector<std::vector<int>> grouping_sets;
  auto key_of = [&](const PgQuery__Node* g) {
    ExprPtr e = bind_group_item(g);
    for (size_t k = 0; k < group_by.size(); ++k)
      if (group_by[k]->Equals(*e)) return static_cast<int>(k);
    group_by.push_back(std::move(e));
    return static_cast<int>(group_by.size() - 1);
  };
  const bool has_sets = std::any_of(s->group_clause, s->group_clause + s->n_group_clause, [](const PgQuery__Node* g) {
    return g->node_case == PG_QUERY__NODE__NODE_GROUPING_SET;
  });
  if (has_sets) grouping_sets = ExpandGroupingSets(s->group_clause, s->n_group_clause, key_of);
  else
    for (size_t i = 0; i < s->n_group_clause; ++i) key_of(s->group_clause[i]);

  ExprPtr having;
  if (s->having_clause) {
    binder.AllowAggregates(true);
    having = binder.BindCondition(s->having_clause, "HAVING");
  }

  // ORDER BY: output names and positions, else expressions (hidden outputs).
  const size_t visible = outputs_.size();
  const bool distinct = s->n_distinct_clause > 0;
  const bool distinct_on = distinct && !(s->n_distinct_clause == 1 && s->distinct_clause[0]->node_case == PG_QUERY__NODE__NODE__NOT_SET);
  auto output_for = [&](const PgQuery__Node* node, bool allow_hidden, const char* clause) -> int {
    if (auto pos = SelectListPosition(node)) {
      if (*pos < 1 || *pos > static_cast<int>(visible))
        throw SqlError(sqlstate::kInvalidColumnReference, fmt::format("{} position {} is not in select list", clause, *pos),
                       NodeLocation(node));
      return *pos - 1;
    }
    std::optional<int> output;
    if (auto bare = BareColumnName(node)) {
      for (size_t c = 0; c < visible; ++c) {
        if (columns_[c].name != *bare) continue;
        if (output && !outputs_[static_cast<size_t>(*output)]->Equals(*outputs_[c]))
          throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("{} \"{}\" is ambiguous", clause, *bare), NodeLocation(node));
        if (!output) output = static_cast<int>(c);
      }
    }
    if (output) return *output;
    binder.AllowAggregates(true);
    binder.AllowWindows(true);
    ExprPtr e = binder.Bind(node);
    binder.AllowWindows(false);
    if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    for (size_t c = 0; c < outputs_.size(); ++c)
      if (outputs_[c]->Equals(*e) && (c < visible || allow_hidden)) return static_cast<int>(c);
    if (!allow_hidden) return -1;
    outputs_.push_back(std::move(e));
    return static_cast<int>(outputs_.size() - 1);
  };
  std::vector<int> distinct_on_keys;
  if (distinct_on) {
    for (size_t i = 0; i < s->n_distinct_clause; ++i) distinct_on_keys.push_back(output_for(s->distinct_clause[i], true, "DISTINCT ON"));
  }
  std::vector<SortKey> sort;
  for (size_t i = 0; i < s->n_sort_clause; ++i) {
    const PgQuery__SortBy* sb = s->sort_clause[i]->sort_by;
    SortKey key = SortKeyFor(sb);
    key.output = output_for(sb->node, !distinct || distinct_on, "ORDER BY");
    if (key.output < 0)
      throw SqlError(sqlstate::kInvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                     NodeLocation(sb->node));
    sort.push_back(key);
  }
  if (distinct_on) {
    // PostgreSQL: the leading ORDER BY keys must be the DISTINCT ON expressions (any order).
    size_t n = std::min(sort.size(), distinct_on_keys.size());
    for (size_t i = 0; i < n; ++i)
      if (std::find(distinct_on_keys.begin(), distinct_on_keys.end(), sort[i].output) == distinct_on_keys.end())
        throw SqlError(sqlstate::kInvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
                       NodeLocation(s->distinct_clause[0]));
  }

  // Planning: FROM and WHERE.
  std::vector<bool> used(block_.id_count(), false);
  for (const auto& e : outputs_) MarkUsed(*e, used);
  if (where) MarkUsed(*where, used);
  for (const auto& e : group_by) MarkUsed(*e, used);
  if (having) MarkUsed(*having, used);
  for (const WindowSpec& w : block_.window_specs) {
    for (const auto& e : w.partition_by) MarkUsed(*e, used);
    for (const auto& e : w.order_by) MarkUsed(*e, used);
  }
  for (const SetFunctionCall& f : block_.set_functions)
    for (const auto& e : f.args) MarkUsed(*e, used);
  for (const WindowCall& c : block_.window_calls) {
    for (const auto& e : c.args) MarkUsed(*e, used);
    if (c.agg.arg) MarkUsed(*c.agg.arg, used);
    if (c.agg.filter) MarkUsed(*c.agg.filter, used);
    if (c.agg.delimiter) MarkUsed(*c.agg.delimiter, used);
  }
  std::vector<ExprPtr> conjuncts;
  if (where) {
    std::vector<const Expr*> parts;
    Conjuncts(where.get(), parts);
    for (const Expr* p : parts) conjuncts.push_back(p->Clone());
  }
  std::vector<int> layout;
  QueryNodePtr node;
  if (from_.empty()) {
    node = std::make_unique<QueryNode>();
    node->kind = QueryNodeKind::kResult;
    if (!conjuncts.empty()) {
      auto filter = std::make_unique<QueryNode>();
      filter->kind = QueryNodeKind::kFilter;
      filter->condition = std::move(where);
      filter->children.push_back(std::move(node));
      node = std::move(filter);
    }
  } else {
    node = PlanFrom(block_, std::move(from_), std::move(conjuncts), used, block_.builder.estimate, layout);
  }

  // Grouping.
  bool has_aggregates = having != nullptr;
  for (const auto& e : outputs_) has_aggregates = has_aggregates || e->ContainsAggregate();
  for (const WindowCall& c : block_.window_calls) {
    for (const auto& e : c.args) has_aggregates = has_aggregates || e->ContainsAggregate();
    if (c.agg.arg) has_aggregates = has_aggregates || c.agg.arg->ContainsAggregate();
  }
  for (const SetFunctionCall& f : block_.set_functions)
    for (const auto& e : f.args) has_aggregates = has_aggregates || e->ContainsAggregate();
  for (const WindowSpec& w : block_.window_specs) {
    for (const auto& e : w.partition_by) has_aggregates = has_aggregates || e->ContainsAggregate();
    for (const auto& e : w.order_by) has_aggregates = has_aggregates || e->ContainsAggregate();
  }
  CheckLockingClauses(s, has_aggregates, !block_.window_calls.empty());
  if (has_aggregates || !group_by.empty() || !grouping_sets.empty()) {
    std::vector<int> key_ids;
    for (const auto& g : group_by) key_ids.push_back(block_.NewId(g->type, "", "group key"));
    std::vector<AggregateSpec> aggregates;
    std::vector<int> agg_ids;
    GroupRewriter rewriter(block_, group_by, key_ids, aggregates, agg_ids);
    rewriter.SetFromIds(from_ids);
    for (auto& e : outputs_) e = rewriter.Rewrite(std::move(e));
    if (having) having = rewriter.Rewrite(std::move(having));
    for (WindowSpec& w : block_.window_specs) {
      for (auto& e : w.partition_by) e = rewriter.Rewrite(std::move(e));
      for (auto& e : w.order_by) e = rewriter.Rewrite(std::move(e));
    }
    for (SetFunctionCall& f : block_.set_functions)
      for (auto& e : f.args) e = rewriter.Rewrite(std::move(e));
    for (WindowCall& c : block_.window_calls) {
      for (auto& e : c.args) e = rewriter.Rewrite(std::move(e));
      if (c.agg.arg) c.agg.arg = rewriter.Rewrite(std::move(c.agg.arg));
      if (c.agg.filter) c.agg.filter = rewriter.Rewrite(std::move(c.agg.filter));
      if (c.agg.delimiter) c.agg.delimiter = rewriter.Rewrite(std::move(c.agg.delimiter));
    }
    auto agg = std::make_unique<QueryNode>();
    agg->kind = QueryNodeKind::kAggregate;
    for (const auto& g : group_by) {
      agg->types.push_back(g->type);
      agg->group_by.push_back(RemapToLayout(g->Clone(), layout));
    }
    for (AggregateSpec& a : aggregates) {
      agg->types.push_back(a.type);
      if (a.arg) a.arg = RemapToLayout(std::move(a.arg), layout);
      if (a.filter) a.filter = RemapToLayout(std::move(a.filter), layout);
      if (a.delimiter) a.delimiter = RemapToLayout(std::move(a.delimiter), layout);
      agg->aggregates.push_back(std::move(a));
    }
    agg->grouping_sets = std::move(grouping_sets);
    agg->children.push_back(std::move(node));
    node = std::move(agg);
    layout = key_ids;
    layout.insert(layout.end(), agg_ids.begin(), agg_ids.end());
    if (having) {
      auto filter = std::make_unique<QueryNode>();
      filter->kind = QueryNodeKind::kFilter;
      filter->types = node->types;
      filter->condition = RemapToLayout(std::move(having), layout);
      filter->children.push_back(std::move(node));
      node = std::move(filter);
    }
  }

  // Window functions: their values are appended to each tuple.
  if (!block_.window_calls.empty()) {
    auto window = std::make_unique<QueryNode>();
    window->kind = QueryNodeKind::kWindow;
    window->types = node->types;
    std::vector<int> call_ids;
    for (WindowSpec& w : block_.window_specs) {
      for (auto& e : w.partition_by) e = RemapToLayout(std::move(e), layout);
      for (auto& e : w.order_by) e = RemapToLayout(std::move(e), layout);
      window->windows.push_back(std::move(w));
    }
    for (WindowCall& c : block_.window_calls) {
      for (auto& e : c.args) e = RemapToLayout(std::move(e), layout);
      if (c.agg.arg) c.agg.arg = RemapToLayout(std::move(c.agg.arg), layout);
      if (c.agg.filter) c.agg.filter = RemapToLayout(std::move(c.agg.filter), layout);
      if (c.agg.delimiter) c.agg.delimiter = RemapToLayout(std::move(c.agg.delimiter), layout);
      window->types.push_back(c.type);
      call_ids.push_back(block_.NewId(c.type, "", "window"));
      window->window_calls.push_back(std::move(c));
    }
    window->children.push_back(std::move(node));
    node = std::move(window);
    layout.insert(layout.end(), call_ids.begin(), call_ids.end());
    // kWindowRef i -> the id of call i.
    std::function<void(ExprPtr&)> replace = [&](ExprPtr& e) {
      if (e->kind == ExprKind::kWindowRef) {
        e = IdSlot(call_ids[static_cast<size_t>(e->subplan)], e->type, e->location);
        return;
      }
      for (auto& a : e->args) replace(a);
    };
    for (auto& e : outputs_) replace(e);
  }

  // Set-returning functions: after windows, before the select list (PostgreSQL's ProjectSet).
  if (!block_.set_functions.empty()) {
    auto set = std::make_unique<QueryNode>();
    set->kind = QueryNodeKind::kProjectSet;
    set->types = node->types;
    for (SetFunctionCall& f : block_.set_functions) {
      for (auto& e : f.args) e = RemapToLayout(std::move(e), layout);
      set->set_functions.push_back(std::move(f));
    }
    for (int id : block_.set_function_ids) {
      set->types.push_back(block_.IdType(id));
      layout.push_back(id);
    }
    set->children.push_back(std::move(node));
    node = std::move(set);
  }

  std::vector<ExprPtr> projected;
  for (auto& e : outputs_) projected.push_back(RemapToLayout(std::move(e), layout));
  node = Project(std::move(node), std::move(projected));

  if (distinct && !distinct_on) {
    auto d = std::make_unique<QueryNode>();
    d->kind = QueryNodeKind::kDistinct;
    d->types = node->types;
    for (size_t c = 0; c < visible; ++c) d->distinct_keys.push_back(IdSlot(static_cast<int>(c), node->types[c]));
    d->children.push_back(std::move(node));
    node = std::move(d);
  }
  if (!sort.empty() || distinct_on) {
    auto srt = std::make_unique<QueryNode>();
    srt->kind = QueryNodeKind::kSort;
    srt->types = node->types;
    srt->sort = sort;
    if (distinct_on && sort.empty())
      for (int k : distinct_on_keys) srt->sort.push_back(SortKey{k, false, false});
    srt->children.push_back(std::move(node));
    node = std::move(srt);
  }
  if (distinct_on) {
    auto d = std::make_unique<QueryNode>();
    d->kind = QueryNodeKind::kDistinct;
    d->types = node->types;
    for (int k : distinct_on_keys) d->distinct_keys.push_back(IdSlot(k, node->types[static_cast<size_t>(k)]));
    d->children.push_back(std::move(node));
    node = std::move(d);
  }
  if (s->limit_count || s->limit_offset) {
    auto limit = std::make_unique<QueryNode>();
    limit->kind = QueryNodeKind::kLimit;
    limit->types = node->types;
    if (s->limit_count) limit->limit = BindCount(s->limit_count, block_, "LIMIT");
    if (s->limit_offset) limit->offset = BindCount(s->limit_offset, block_, "OFFSET");
    limit->children.push_back(std::move(node));
    node = std::move(limit);
  }
  if (node->types.size() > visible) {
    std::vector<ExprPtr> keep;
    for (size_t c = 0; c < visible; ++c) keep.push_back(IdSlot(static_cast<int>(c), node->types[c]));
    node = Project(std::move(node), std::move(keep));
  }
  return QueryBuilder::Bound{std::move(node), std::move(columns_)};
}

QueryBuilder::Bound BindValues(const PgQuery__SelectStmt* s, QueryBlock& block) {
  ExprBinder binder(&block, &block.builder.catalog);
  binder.SetSubqueries(&block);
  binder.AllowAggregates(false, "VALUES");
  auto node = std::make_unique<QueryNode>();
  node->kind = QueryNodeKind::kValues;
  size_t width = 0;
  for (size_t r = 0; r < s->n_values_lists; ++r) {
    const PgQuery__List* list = s->values_lists[r]->list;
    if (r > 0 && list->n_items != width)
      throw SqlError(sqlstate::kSyntaxError, "VALUES lists must all be the same length", NodeLocation(list->items[0]));
    width = list->n_items;
    std::vector<ExprPtr> row;
    for (size_t c = 0; c < list->n_items; ++c) row.push_back(binder.Bind(list->items[c]));
    node->rows.push_back(std::move(row));
  }
  QueryBuilder::Bound bound;
  for (size_t c = 0; c < width; ++c) {
    std::vector<SqlType> types;
    for (const auto& row : node->rows) types.push_back(row[c]->type);
    SqlType t = CommonType(types, "VALUES", -1);
    if (t.is_unknown()) t = SqlType::Of(TypeId::kText);
    t = WithCommonTypmod(t, types);
    for (auto& row : node->rows)
      if (!(row[c]->type == t)) row[c] = Coerce(std::move(row[c]), t, CastContext::kImplicit);
    node->types.push_back(t);
    bound.columns.push_back(OutputColumn{fmt::format("column{}", c + 1), t});
  }
  bound.node = std::move(node);
  ApplyOuterSortAndLimit(s, bound, block, "VALUES", false);
  return bound;
}

}  // namespace

QueryBuilder::Bound QueryBuilder::BindSelect(const PgQuery__SelectStmt* s, Frame* frame, const NameScope* outer,
                                             const CteScope* ctes, bool set_operand) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
    QueryBlock holder(*this, frame, outer, ctes);
    if (s->with_clause) BindWithClause(holder, s->with_clause);  // seen by both arms
    const char* what = SetOpName(s->op);
    if (s->n_locking_clause > 0)
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("{} is not allowed with UNION/INTERSECT/EXCEPT",
                                 LockingClauseName(s->locking_clause[0]->locking_clause->strength)));
    Bound left = BindSelect(s->larg, frame, outer, &holder.cte_scope, true);
    Bound right = BindSelect(s->rarg, frame, outer, &holder.cte_scope, true);
    if (left.columns.size() != right.columns.size()) {
      const PgQuery__SelectStmt* r = s->rarg;
      while (r->op != PG_QUERY__SET_OPERATION__SETOP_NONE) r = r->larg;
      throw SqlError(sqlstate::kSyntaxError, fmt::format("each {} query must have the same number of columns", what),
                     r->n_target_list > 0 ? NodeLocation(r->target_list[0]->res_target->val) : -1);
    }
    std::vector<SqlType> types;
    for (size_t c = 0; c < left.columns.size(); ++c) {
      std::vector<SqlType> both{left.columns[c].type, right.columns[c].type};
      SqlType t = CommonType(both, what, -1);
      if (t.is_unknown()) t = SqlType::Of(TypeId::kText);
      types.push_back(WithCommonTypmod(t, both));
    }
    CastColumns(left, types);
    CastColumns(right, types);
    auto node = std::make_unique<QueryNode>();
    node->kind = QueryNodeKind::kSetOp;
    node->types = types;
    node->set_op = s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? SetOpKind::kIntersect
                   : s->op == PG_QUERY__SET_OPERATION__SETOP_EXCEPT  ? SetOpKind::kExcept
                                                                     : SetOpKind::kUnion;
    node->all = s->all;
    node->children.push_back(std::move(left.node));
    node->children.push_back(std::move(right.node));
    Bound bound{std::move(node), std::move(left.columns)};
    ApplyOuterSortAndLimit(s, bound, holder, what, true);
    return bound;
  }
  QueryBlock block(*this, frame, outer, ctes);
  if (s->n_values_lists > 0) return BindValues(s, block);
  QueryBuilder::Bound bound = BlockBinder(block, s, set_operand).Bind();
  return bound;
}

// --- QueryBlock -------------------------------------------------------------------------

int QueryBlock::NewId(const SqlType& type, std::string qualifier, std::string name) {
  id_types_.push_back(type);
  id_names_.push_back(qualifier.empty() ? name : qualifier + "." + name);
  return static_cast<int>(id_types_.size() - 1);
}

std::optional<NameBinding> QueryBlock::Resolve(std::span<const std::string> names, int location, int visible) const {
  const size_t n = std::min<size_t>(static_cast<size_t>(std::max(visible, 0)), ranges.size());
  if (names.size() == 1) {
    int found = -1;
    for (size_t r = 0; r < n; ++r)
      for (const RangeColumn& c : ranges[r].columns) {
        if (c.hidden || c.name != names[0]) continue;
        if (found >= 0 && found != c.id)
          throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", names[0]), location);
        found = c.id;
      }
    if (found >= 0) {
      // PL/pgSQL's default variable_conflict = error: a name both a column and a variable.
      if (outer && outer->Lookup(names, location))
        throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", names[0]), location)
            .WithDetail("It could refer to either a PL/pgSQL variable or a table column.");
      return NameBinding{Slot{SlotSpace::kTuple, found}, id_types_[static_cast<size_t>(found)]};
    }
  } else if (names.size() == 2 || names.size() == 3) {
    const std::string& qualifier = names[names.size() - 2];
    const std::string& column = names.back();
    for (size_t r = 0; r < n; ++r) {
      if (ranges[r].alias != qualifier) continue;
      for (const RangeColumn& c : ranges[r].columns)
        if (c.name == column) return NameBinding{Slot{SlotSpace::kTuple, c.id}, id_types_[static_cast<size_t>(c.id)]};
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column {}.{} does not exist", qualifier, column), location);
    }
  }
  if (frame != nullptr) {
    std::optional<NameBinding> b = frame->parent->Resolve(names, location, frame->visible);
    if (!b) return std::nullopt;
    // A procedure's variable is read from the frame by any node: not a value passed in.
    if (b->slot.space == SlotSpace::kVariable) return b;
    for (size_t i = 0; i < frame->params.size(); ++i)
      if (frame->params[i]->kind == ExprKind::kSlot && frame->params[i]->slot == b->slot)
        return NameBinding{Slot{SlotSpace::kOuter, static_cast<int>(i)}, b->type};
    frame->params.push_back(MakeSlot(b->slot, b->type, location));
    return NameBinding{Slot{SlotSpace::kOuter, static_cast<int>(frame->params.size() - 1)}, b->type};
  }
  return outer ? outer->Lookup(names, location) : std::nullopt;
}

std::optional<NameBinding> QueryBlock::Lookup(std::span<const std::string> names, int location) const {
  return Resolve(names, location, static_cast<int>(ranges.size()));
}

std::optional<RecordBinding> QueryBlock::LookupRecord(const std::string& name) const {
  // A record's fields are a procedure's variables, which a subquery reads as they are.
  if (frame != nullptr) return frame->parent->LookupRecord(name);
  return outer ? outer->LookupRecord(name) : std::nullopt;
}

int QueryBlock::LowerBound(const Slot& slot) const {
  if (slot.space != SlotSpace::kVariable) return 1;
  if (frame != nullptr) return frame->parent->LowerBound(slot);
  return outer ? outer->LowerBound(slot) : 1;
}

std::optional<NameBinding> QueryBlock::LookupParameter(int number, int location) const {
  if (frame != nullptr) {
    std::optional<NameBinding> b = frame->parent->LookupParameter(number, location);
    if (!b) return std::nullopt;
    if (b->slot.space == SlotSpace::kVariable) return b;
    frame->params.push_back(MakeSlot(b->slot, b->type, location));
    return NameBinding{Slot{SlotSpace::kOuter, static_cast<int>(frame->params.size() - 1)}, b->type};
  }
  return outer ? outer->LookupParameter(number, location) : std::nullopt;
}

SubqueryBinder::Bound QueryBlock::BindSubquery(const PgQuery__Node* select, int location) {
  if (select->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) throw NotSupported("this kind of subquery", location);
  Frame sub{this, static_cast<int>(ranges.size()), {}};
  QueryBuilder::Bound bound = builder.BindSelect(select->select_stmt, &sub, outer, &cte_scope);
  SubqueryBinder::Bound out;
  out.subplan = static_cast<int>(builder.plan.subplans.size());
  for (const auto& c : bound.columns) out.columns.push_back(c.type);
  builder.plan.subplans.push_back(std::move(bound.node));
  builder.plan.subplan_correlated.push_back(!sub.params.empty());
  out.params = std::move(sub.params);
  return out;
}

ExprPtr QueryBlock::BindSetReturningCall(const PgQuery__FuncCall* f, ExprBinder& binder) {
  const std::string name = StringValue(f->funcname[f->n_funcname - 1]);
  binder.AllowSetReturning(false);  // nested set-returning calls are not supported
  SetFunctionCall call;
  for (size_t i = 0; i < f->n_args; ++i) call.args.push_back(binder.Bind(f->args[i]));
  binder.AllowSetReturning(true);
  if (name == "unnest" && call.args.size() > 1) {
    // PostgreSQL's several-array unnest exists only in FROM.
    std::string sig;
    for (size_t i = 0; i < call.args.size(); ++i) sig += (i ? ", " : "") + call.args[i]->type.BaseName();
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function unnest({}) does not exist", sig), f->location)
        .WithHint("No function matches the given name and argument types. You might need to add explicit type casts.");
  }
  const bool json = IsJsonSetFunction(name);
  if (json) {
    std::vector<std::string> names;
    RewriteJsonSetFunction(name, call.args, f->location, names);
    if (call.args.size() > 1)
      throw NotSupported(fmt::format("{}() in a select list (it returns a record)", name), f->location)
          .WithHint(fmt::format("Call it in FROM: SELECT key, value FROM {}(...).", name));
  }
  std::vector<SqlType> types = TypeTableFunction(json ? "unnest" : name, call.args, f->location, call.function);
  const int id = NewId(types[0], "", name);
  set_functions.push_back(std::move(call));
  set_function_ids.push_back(id);
  return IdSlot(id, types[0], f->location);
}

void QueryBlock::CoerceColumn(int subplan, size_t column, const SqlType& type) {
  QueryNodePtr& node = builder.plan.subplans[static_cast<size_t>(subplan)];
  std::vector<ExprPtr> exprs;
  for (size_t c = 0; c < node->types.size(); ++c) {
    ExprPtr slot = IdSlot(static_cast<int>(c), node->types[c]);
    exprs.push_back(c == column ? Coerce(std::move(slot), type, CastContext::kImplicit) : std::move(slot));
  }
  node = Project(std::move(node), std::move(exprs));
}

// --- entry points ---------------------------------------------------------------------

QueryPlan PlanQuery(const PgQuery__SelectStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate,
                    const NameScope* outer) {
  QueryBuilder builder(catalog, estimate);
  QueryBuilder::Bound bound = builder.BindSelect(stmt, nullptr, outer, nullptr);
  builder.plan.root = std::move(bound.node);
  builder.plan.columns = std::move(bound.columns);
  return std::move(builder.plan);
}

QueryPlan PlanInsertSource(const PgQuery__SelectStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate,
                           const std::vector<std::pair<std::string, SqlType>>& targets, const NameScope* outer) {
  QueryBuilder builder(catalog, estimate);
  // Untyped literals stay untyped: the target columns type them, as PostgreSQL does.
  QueryBuilder::Bound bound = builder.BindSelect(stmt, nullptr, outer, nullptr, true);
  if (bound.columns.size() > targets.size()) {
    int location = -1;
    if (stmt->op == PG_QUERY__SET_OPERATION__SETOP_NONE && stmt->n_target_list > targets.size())
      location = NodeLocation(stmt->target_list[targets.size()]->res_target->val);
    throw SqlError(sqlstate::kSyntaxError, "INSERT has more expressions than target columns", location);
  }
  QueryNode& root = *bound.node;
  const bool in_place = root.kind == QueryNodeKind::kProject;
  std::vector<ExprPtr> exprs;
  for (size_t i = 0; i < bound.columns.size(); ++i) {
    const auto& [name, target_type] = targets[i];
    const SqlType type = name.empty() ? bound.columns[i].type : target_type;  // no name: its own type
    ExprPtr e = in_place ? std::move(root.exprs[i]) : IdSlot(static_cast<int>(i), bound.columns[i].type);
    if (!(e->type == type)) e = Coerce(std::move(e), type, CastContext::kAssignment, name);
    bound.columns[i].type = type;
    if (in_place) {
      root.types[i] = type;
      root.exprs[i] = std::move(e);
    } else {
      exprs.push_back(std::move(e));
    }
  }
  if (!in_place) bound.node = Project(std::move(bound.node), std::move(exprs));
  builder.plan.root = std::move(bound.node);
  builder.plan.columns = std::move(bound.columns);
  return std::move(builder.plan);
}

bool NodeContainsSubquery(const ProtobufCMessage* m) {
  return ContainsNode(m, [](const PgQuery__Node* n) { return n->node_case == PG_QUERY__NODE__NODE_SUB_LINK; });
}

bool ContainsSubquery(const PgQuery__SelectStmt* s) {
  return ContainsNode(&s->base, [](const PgQuery__Node* n) { return n->node_case == PG_QUERY__NODE__NODE_SUB_LINK; });
}

bool NeedsQueryPlanner(const PgQuery__SelectStmt* s, const Catalog& catalog) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE || s->with_clause || s->n_values_lists > 0 || s->n_from_clause > 1)
    return true;
  if (s->n_from_clause == 1 && s->from_clause[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR &&
      catalog.FindView(s->from_clause[0]->range_var->relname))
    return true;  // a view is a subquery
  if (s->n_distinct_clause > 1 || (s->n_distinct_clause == 1 && s->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET))
    return true;
  if (s->n_window_clause > 0) return true;
  for (size_t i = 0; i < s->n_group_clause; ++i)
    if (s->group_clause[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) return true;
  if (s->n_from_clause == 1 && s->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) {
    // SELECT ... FROM f(args) alone is a call (call_binder), unless it is a table function.
    const PgQuery__Node* from = s->from_clause[0];
    if (from->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION) return true;
    const PgQuery__RangeFunction* rf = from->range_function;
    if (rf->n_functions != 1) return true;
    const PgQuery__Node* call = rf->functions[0]->list->items[0];
    if (call->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return true;
    const std::string name = StringValue(call->func_call->funcname[call->func_call->n_funcname - 1]);
    if (name == "generate_series" || name == "unnest" || IsJsonSetFunction(name)) return true;
  }
  return ContainsNode(&s->base, [](const PgQuery__Node* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) return true;
    if (n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return false;
    const PgQuery__FuncCall* f = n->func_call;
    if (f->over != nullptr) return true;
    const std::string name = StringValue(f->funcname[f->n_funcname - 1]);
    return name == "generate_series" || name == "unnest" || IsJsonSetFunction(name);  // set-returning
  });
}

}  // namespace caracal::planner
