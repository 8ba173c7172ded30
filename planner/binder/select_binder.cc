#include "planner/binder/select_binder.h"

#include <fmt/format.h>

#include "planner/binder/expr_binder.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"
#include "planner/catalog/system_views.h"
#include "planner/binder/table_scope.h"

namespace caracal::planner {

namespace {

// PostgreSQL's FigureColname: the header of an output column without an alias.
int FigureColname(const PgQuery__Node* n, std::string& name) {
  if (!n) return 0;
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
      const PgQuery__ColumnRef* c = n->column_ref;
      for (size_t i = c->n_fields; i-- > 0;)
        if (c->fields[i]->node_case == PG_QUERY__NODE__NODE_STRING) {
          name = StringValue(c->fields[i]);
          return 2;
        }
      return 0;
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      name = StringValue(n->func_call->funcname[n->func_call->n_funcname - 1]);
      return 2;
    case PG_QUERY__NODE__NODE_A_EXPR:
      if (n->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF) {
        name = "nullif";
        return 2;
      }
      return 0;
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
      int strength = FigureColname(n->type_cast->arg, name);
      if (strength <= 1) {
        const PgQuery__TypeName* t = n->type_cast->type_name;
        name = StringValue(t->names[t->n_names - 1]);
        return 1;
      }
      return strength;
    }
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
      int strength = FigureColname(n->case_expr->defresult, name);
      if (strength <= 1) {
        name = "case";
        return 1;
      }
      return strength;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: name = "coalesce"; return 2;
    case PG_QUERY__NODE__NODE_SUB_LINK: {
      const PgQuery__SubLink* link = n->sub_link;
      switch (link->sub_link_type) {
        case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: name = "exists"; return 2;
        case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: name = "array"; return 2;
        case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK: {
          // (SELECT x ...): the subquery's one column's name.
          const PgQuery__Node* sub = link->subselect;
          if (sub == nullptr || sub->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return 0;
          const PgQuery__SelectStmt* select = sub->select_stmt;
          while (select->op != PG_QUERY__SET_OPERATION__SETOP_NONE && select->larg) select = select->larg;
          if (select->n_target_list != 1) return 0;
          const PgQuery__ResTarget* t = select->target_list[0]->res_target;
          if (t->name && *t->name) {
            name = t->name;
            return 2;
          }
          return FigureColname(t->val, name);
        }
        default: return 0;
      }
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
      name = n->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
      return 2;
    default: return 0;
  }
}

}  // namespace

std::optional<int> SelectListPosition(const PgQuery__Node* n) {
  if (n->node_case == PG_QUERY__NODE__NODE_A_CONST && n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
    return n->a_const->ival->ival;
  return std::nullopt;
}

std::optional<std::string> BareColumnName(const PgQuery__Node* n) {
  if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF || n->column_ref->n_fields != 1) return std::nullopt;
  if (n->column_ref->fields[0]->node_case != PG_QUERY__NODE__NODE_STRING) return std::nullopt;
  return StringValue(n->column_ref->fields[0]);
}

SortKey SortKeyFor(const PgQuery__SortBy* sb) {
  if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) throw NotSupported("ORDER BY ... USING");
  SortKey key;
  key.descending = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
  key.nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
                        ? key.descending
                        : sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
  return key;
}

std::string OutputColumnName(const PgQuery__ResTarget* target) {
  if (target->name && *target->name) return target->name;
  std::string name;
  if (FigureColname(target->val, name) == 0) return "?column?";
  return name;
}

namespace {

// Turns an expression over input rows into one over groups: GROUP BY expressions become
// kGroupKey slots, aggregate calls kAggregate slots; any other column is an error.
class GroupRewriter {
 public:
  GroupRewriter(SelectPlan& plan) : plan_(plan) {}

  ExprPtr Rewrite(ExprPtr e) {
    for (size_t i = 0; i < plan_.group_by.size(); ++i)
      if (e->Equals(*plan_.group_by[i])) return MakeSlot(Slot{SlotSpace::kGroupKey, static_cast<int>(i)}, e->type, e->location);
    if (e->kind == ExprKind::kAggRef) return MakeSlot(Slot{SlotSpace::kAggregate, AggregateIndex(*e)}, e->type, e->location);
    if (e->kind == ExprKind::kSlot && e->slot.space == SlotSpace::kColumn) {
      const std::string& column = plan_.table->columns[e->slot.index].name;
      throw SqlError(sqlstate::kGroupingError,
                     fmt::format("column \"{}.{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                                 plan_.table_ref, column),
                     e->location);
    }
    for (auto& a : e->args) a = Rewrite(std::move(a));
    return e;
  }

 private:
  int AggregateIndex(const Expr& agg) {
    for (size_t i = 0; i < plan_.aggregates.size(); ++i)
      if (plan_.aggregates[i].Computes(agg)) return static_cast<int>(i);
    plan_.aggregates.push_back(AggregateSpec::Of(agg));
    return static_cast<int>(plan_.aggregates.size() - 1);
  }

  SelectPlan& plan_;
};

ExprPtr BindLimit(const PgQuery__Node* n, const NameScope* outer, const Catalog& catalog) {
  ExprBinder binder(outer, &catalog);
  binder.AllowAggregates(false, "LIMIT");
  return Coerce(binder.Bind(n), SqlType::Of(TypeId::kInt8), CastContext::kAssignment);
}

}  // namespace

const char* LockingClauseName(PgQuery__LockClauseStrength strength) {
  switch (strength) {
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: return "FOR KEY SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: return "FOR SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: return "FOR NO KEY UPDATE";
    default: return "FOR UPDATE";
  }
}

namespace {

// FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t] [NOWAIT | SKIP LOCKED]: checked
// as PostgreSQL checks it (CheckSelectLocking, then transformLockingClause), and then
// nothing more to do. A transaction here runs at its serial position with nothing
// running between its reads and its writes, so every row it reads is already as good as
// locked, and no other transaction holds a lock it could wait for or skip: the rows
// are those of the query without the clause.
void CheckLocking(const PgQuery__SelectStmt* s, const SelectPlan& plan) {
  for (size_t i = 0; i < s->n_locking_clause; ++i) {
    const PgQuery__LockingClause* lc = s->locking_clause[i]->locking_clause;
    const char* what = LockingClauseName(lc->strength);
    auto refuse = [&](const char* with) {
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not allowed with {}", what, with));
    };
    if (plan.distinct) refuse("DISTINCT clause");
    if (s->n_group_clause > 0) refuse("GROUP BY clause");
    if (s->having_clause) refuse("HAVING clause");
    if (plan.grouped) refuse("aggregate functions");
    for (size_t r = 0; r < lc->n_locked_rels; ++r) {
      const PgQuery__RangeVar* rv = lc->locked_rels[r]->range_var;
      if ((rv->catalogname && *rv->catalogname) || (rv->schemaname && *rv->schemaname))
        throw SqlError(sqlstate::kSyntaxError, fmt::format("{} must specify unqualified relation names", what),
                       rv->location);
      if (plan.table == nullptr || plan.table_ref != rv->relname)
        throw SqlError(sqlstate::kUndefinedTable,
                       fmt::format("relation \"{}\" in {} clause not found in FROM clause", rv->relname, what),
                       rv->location);
    }
  }
}

void CheckSupported(const PgQuery__SelectStmt* s) {
  if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) throw NotSupported("UNION/INTERSECT/EXCEPT");
  if (s->n_values_lists > 0) throw NotSupported("VALUES lists");
  if (s->with_clause) throw NotSupported("WITH queries");
  // Plain DISTINCT is one empty node; DISTINCT ON lists its expressions.
  if (s->n_distinct_clause > 1 || (s->n_distinct_clause == 1 && s->distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET))
    throw NotSupported("SELECT DISTINCT ON");
  if (s->into_clause) throw NotSupported("SELECT INTO");
  if (s->n_window_clause > 0) throw NotSupported("WINDOW clauses");
  if (s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) throw NotSupported("FETCH ... WITH TIES");
  if (s->n_from_clause > 1) throw NotSupported("joins");
}

}  // namespace

SelectPlan PlanSelect(const PgQuery__SelectStmt* s, const Catalog& catalog, const NameScope* outer) {
  CheckSupported(s);
  SelectPlan plan;
  plan.distinct = s->n_distinct_clause == 1;
  std::optional<TableScope> scope;
  if (s->n_from_clause == 1) {
    const PgQuery__Node* from = s->from_clause[0];
    if (from->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) throw NotSupported("joins");
    if (from->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) throw NotSupported("a subquery or function in FROM");
    const PgQuery__RangeVar* rv = from->range_var;
    if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
      throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname), rv->location);
    plan.table = catalog.FindTable(rv->relname);
    if (!plan.table) plan.table = FindSystemView(rv->relname);
    if (!plan.table)
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", rv->relname), rv->location);
    if (rv->alias && rv->alias->n_colnames > 0) throw NotSupported("a column alias list in FROM");
    plan.table_ref = rv->alias ? rv->alias->aliasname : rv->relname;
    scope.emplace(*plan.table, plan.table_ref, outer);
  }
  const NameScope* names = scope ? &*scope : outer;
  ExprBinder binder(names, &catalog);

  // Target list (aggregates allowed; checked against GROUP BY below).
  binder.AllowAggregates(true);
  for (size_t i = 0; i < s->n_target_list; ++i) {
    const PgQuery__ResTarget* t = s->target_list[i]->res_target;
    const PgQuery__Node* v = t->val;
    if (v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        v->column_ref->fields[v->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      const PgQuery__ColumnRef* ref = v->column_ref;
      if (!plan.table) throw SqlError(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid", ref->location);
      if (ref->n_fields == 2 && StringValue(ref->fields[0]) != plan.table_ref)
        throw SqlError(sqlstate::kUndefinedTable,
                       fmt::format("missing FROM-clause entry for table \"{}\"", StringValue(ref->fields[0])), ref->location);
      for (size_t c = 0; c < plan.table->columns.size(); ++c) {
        const CatalogColumn& col = plan.table->columns[c];
        plan.outputs.push_back(MakeSlot(Slot{SlotSpace::kColumn, static_cast<int>(c)}, col.type, ref->location));
        plan.columns.push_back(OutputColumn{col.name, col.type});
      }
      continue;
    }
    ExprPtr e = binder.Bind(v);
    if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    plan.columns.push_back(OutputColumn{OutputColumnName(t), e->type});
    plan.outputs.push_back(std::move(e));
  }

  if (s->where_clause) {
    binder.AllowAggregates(false, "WHERE");
    plan.where = binder.BindCondition(s->where_clause, "WHERE");
  }

  for (size_t i = 0; i < s->n_group_clause; ++i) {
    const PgQuery__Node* g = s->group_clause[i];
    if (g->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) throw NotSupported("GROUPING SETS/ROLLUP/CUBE");
    if (auto pos = SelectListPosition(g)) {
      if (*pos < 1 || *pos > static_cast<int>(plan.columns.size()))
        throw SqlError(sqlstate::kInvalidColumnReference, fmt::format("GROUP BY position {} is not in select list", *pos),
                       NodeLocation(g));
      const Expr& target = *plan.outputs[*pos - 1];
      if (target.ContainsAggregate())
        throw SqlError(sqlstate::kGroupingError, "aggregate functions are not allowed in GROUP BY", target.location);
      plan.group_by.push_back(target.Clone());
      continue;
    }
    binder.AllowAggregates(false, "GROUP BY");
    std::optional<std::string> bare = BareColumnName(g);
    if (bare && (!plan.table || plan.table->ColumnIndex(*bare) < 0)) {
      // Not an input column: an output column name (SQL92 style).
      for (size_t c = 0; c < plan.columns.size(); ++c)
        if (plan.columns[c].name == *bare && !plan.outputs[c]->ContainsAggregate()) {
          plan.group_by.push_back(plan.outputs[c]->Clone());
          bare.reset();
          break;
        }
      if (!bare) continue;
    }
    plan.group_by.push_back(binder.Bind(g));
  }

  if (s->having_clause) {
    binder.AllowAggregates(true);
    plan.having = binder.BindCondition(s->having_clause, "HAVING");
  }

  size_t visible = plan.outputs.size();
  for (size_t i = 0; i < s->n_sort_clause; ++i) {
    const PgQuery__SortBy* sb = s->sort_clause[i]->sort_by;
    SortKey key = SortKeyFor(sb);
    std::optional<int> output;
    if (auto pos = SelectListPosition(sb->node)) {
      if (*pos < 1 || *pos > static_cast<int>(visible))
        throw SqlError(sqlstate::kInvalidColumnReference, fmt::format("ORDER BY position {} is not in select list", *pos),
                       NodeLocation(sb->node));
      output = *pos - 1;
    } else if (auto bare = BareColumnName(sb->node)) {
      for (size_t c = 0; c < visible; ++c) {
        if (plan.columns[c].name != *bare) continue;
        if (output && !plan.outputs[*output]->Equals(*plan.outputs[c]))
          throw SqlError("42702", fmt::format("ORDER BY \"{}\" is ambiguous", *bare), NodeLocation(sb->node));
        if (!output) output = static_cast<int>(c);
      }
    }
    if (!output) {
      binder.AllowAggregates(true);
      ExprPtr e = binder.Bind(sb->node);
      if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
      if (plan.distinct) {
        // Sorting by anything but an output could tell apart rows DISTINCT made one.
        for (size_t c = 0; c < visible && !output; ++c)
          if (plan.outputs[c]->Equals(*e)) output = static_cast<int>(c);
        if (!output)
          throw SqlError(sqlstate::kInvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                         NodeLocation(sb->node));
      } else {
        output = static_cast<int>(plan.outputs.size());
        plan.outputs.push_back(std::move(e));
      }
    }
    key.output = *output;
    plan.sort.push_back(key);
  }

  bool has_aggregates = plan.having != nullptr;
  for (const auto& e : plan.outputs) has_aggregates = has_aggregates || e->ContainsAggregate();
  plan.grouped = has_aggregates || !plan.group_by.empty();
  if (plan.grouped) {
    GroupRewriter rewriter(plan);
    for (auto& e : plan.outputs) e = rewriter.Rewrite(std::move(e));
    if (plan.having) plan.having = rewriter.Rewrite(std::move(plan.having));
  }

  if (s->limit_count) plan.limit = BindLimit(s->limit_count, outer, catalog);
  if (s->limit_offset) plan.offset = BindLimit(s->limit_offset, outer, catalog);
  // Secondary indexes too: a transaction scans them at its position, an ad-hoc SELECT in
  // its snapshot.
  if (plan.table && !IsSystemView(*plan.table)) plan.access = ChooseAccessPath(plan.where.get(), *plan.table, &catalog);
  // Not with nextval(): the analysis hoists the calls it finds in `where`, not in a copy.
  if (plan.where && !plan.access.decided.empty() && !plan.where->Contains(ExprKind::kNextval)) {
    plan.residual = ResidualWhere(*plan.where, plan.access);
    plan.has_residual = true;
  }
  CheckLocking(s, plan);
  return plan;
}

}  // namespace caracal::planner
