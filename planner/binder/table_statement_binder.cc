#include "planner/binder/query_binder.h"
#include "planner/binder/select_binder.h"
#include "planner/binder/table_statement_binder.h"

#include "planner/binder/row_triggers.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/binder/coerce.h"
#include "planner/types/domain_type.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/sql_error.h"
#include "planner/catalog/system_views.h"
#include "planner/binder/table_scope.h"

namespace caracal::planner {

std::string RefName(const PgQuery__RangeVar* rv) { return rv->alias ? rv->alias->aliasname : rv->relname; }

namespace {

// Whether a statement after data-modifying WITH queries may meet the rows they change: a
// plain INSERT only adds rows (a key one of them adds or keeps fails as it would in
// PostgreSQL).
bool MeetsChangedRows(const PgQuery__InsertStmt* stmt) { return stmt->on_conflict_clause != nullptr; }
bool MeetsChangedRows(const PgQuery__UpdateStmt*) { return true; }
bool MeetsChangedRows(const PgQuery__DeleteStmt*) { return true; }

// `stmt` (an INSERT, UPDATE or DELETE) after the data-modifying queries of its WITH, by
// `bind` (with_queries.cc).
template <typename S>
std::vector<StmtPtr> AfterWithWrites(TableStatementBinder& binder, const S* stmt,
                                     std::vector<StmtPtr> (TableStatementBinder::*bind)(const S*)) {
  SyntheticNodes nodes;
  S* main = nodes.Copy(*stmt);
  main->with_clause = nullptr;
  return binder.BindWithWrites(stmt->with_clause, &main->base, MeetsChangedRows(stmt) ? stmt->relation : nullptr,
                               [&](TableStatementBinder& b, PgQuery__WithClause* with) {
                                 main->with_clause = with;
                                 return (b.*bind)(main);
                               });
}

}  // namespace

int TargetColumn(const TableInfo& table, const PgQuery__ResTarget* target, bool allow_element) {
  if (target->n_indirection > 0 && !allow_element)
    throw NotSupported("assignment to an array element or field", target->location);
  int c = table.ColumnIndex(target->name);
  if (c < 0)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", target->name, table.name),
                   target->location);
  return c;
}

PgQuery__Node* SetValueNode(const PgQuery__ResTarget* t, SyntheticNodes& nodes) {
  if (!t->val || t->val->node_case != PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) return t->val;
  const PgQuery__MultiAssignRef* m = t->val->multi_assign_ref;
  const PgQuery__Node* source = m->source;
  const size_t column = static_cast<size_t>(m->colno - 1);
  auto mismatch = [&](int location) {
    return SqlError(sqlstate::kSyntaxError, "number of columns does not match number of values", location);
  };
  if (source->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
    const PgQuery__RowExpr* row = source->row_expr;
    if (row->n_args != static_cast<size_t>(m->ncolumns)) throw mismatch(row->location);
    return row->args[column];
  }
  if (source->node_case == PG_QUERY__NODE__NODE_SUB_LINK && source->sub_link->subselect &&
      source->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    const PgQuery__SelectStmt* select = source->sub_link->subselect->select_stmt;
    if (select->op != PG_QUERY__SET_OPERATION__SETOP_NONE || select->n_target_list == 0)
      throw NotSupported("SET (a, b) = (a set operation or VALUES)", NodeLocation(source));
    if (select->n_target_list != static_cast<size_t>(m->ncolumns)) throw mismatch(NodeLocation(source));
    // The same query with only this column's output: each column reads the same snapshot,
    // so together they are the one row PostgreSQL's sub-SELECT gives (more than one row
    // fails, no row gives NULLs, as there).
    PgQuery__SelectStmt* one = nodes.Copy(*select);
    one->target_list = nodes.Array({select->target_list[column]}, one->n_target_list);
    return nodes.ScalarSubquery(one, source->sub_link->location);
  }
  throw SqlError(sqlstate::kSyntaxError, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression",
                 NodeLocation(source));
}

int SetColumn(const TableInfo& table, const PgQuery__ResTarget* target, std::set<int>& assigned, bool refuse_key,
              bool allow_element) {
  int c = TargetColumn(table, target, allow_element);
  if (!assigned.insert(c).second)
    throw SqlError(sqlstate::kSyntaxError, fmt::format("multiple assignments to same column \"{}\"", target->name),
                   target->location);
  if (refuse_key && std::ranges::find(table.primary_key, c) != table.primary_key.end())
    throw NotSupported("UPDATE of a primary-key column", target->location)
        .WithHint("DELETE the row and INSERT it with the new key.");
  return c;
}

namespace {

}  // namespace

void CheckIdentityValue(const CatalogColumn& column, const PgQuery__InsertStmt* stmt, const PgQuery__Node* value) {
  if (column.generated && !(value && value->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT))
    throw SqlError("428C9", fmt::format("cannot insert a non-DEFAULT value into column \"{}\"", column.name))
        .WithDetail(fmt::format("Column \"{}\" is a generated column.", column.name));
  if (column.identity != CatalogColumn::Identity::kAlways) return;
  if (value && value->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) return;
  if (stmt->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE) return;
  throw SqlError("428C9", fmt::format("cannot insert a non-DEFAULT value into column \"{}\"", column.name))
      .WithDetail(fmt::format("Column \"{}\" is an identity column defined as GENERATED ALWAYS.", column.name))
      .WithHint("Use OVERRIDING SYSTEM VALUE to override.");
}

namespace {

// GENERATED ALWAYS AS IDENTITY: an UPDATE may only set the column to DEFAULT.
void CheckIdentityUpdate(const CatalogColumn& column, const PgQuery__Node* value) {
  if (column.generated && value->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
    throw SqlError("428C9", fmt::format("column \"{}\" can only be updated to DEFAULT", column.name))
        .WithDetail(fmt::format("Column \"{}\" is a generated column.", column.name));
  if (column.identity != CatalogColumn::Identity::kAlways || value->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) return;
  throw SqlError("428C9", fmt::format("column \"{}\" can only be updated to DEFAULT", column.name))
      .WithDetail(fmt::format("Column \"{}\" is an identity column defined as GENERATED ALWAYS.", column.name));
}

// Puts the statement's transaction timestamp where a DEFAULT says now().
void UseTransactionNow(Expr& e, const NameScope* scope) {
  if (e.kind == ExprKind::kFunc && e.func == Func::kNow) {
    std::optional<Slot> now = scope ? scope->NowSlot() : std::nullopt;
    if (!now) return;  // a bulk load: the wall clock
    e.kind = ExprKind::kSlot;
    e.slot = *now;
    return;
  }
  for (ExprPtr& a : e.args) UseTransactionNow(*a, scope);
}

ExprPtr ColumnDefault(const CatalogColumn& column, const NameScope* scope) {
  if (const DomainType* domain = column.type.domain; domain && !column.default_expr) {
    // The domain's DEFAULT, else NULL, checked against the domain (a NOT NULL domain
    // refuses a row that leaves its column out, as in PostgreSQL).
    ExprPtr e = domain->default_expr() ? domain->default_expr()->Clone() : MakeConst(Datum::Null(), domain->base());
    UseTransactionNow(*e, scope);
    return Coerce(std::move(e), column.type, CastContext::kAssignment, column.name);
  }
  if (!column.default_expr) return MakeConst(Datum::Null(), column.type);
  ExprPtr e = column.default_expr->Clone();
  UseTransactionNow(*e, scope);
  return e;
}

// A value for `column`: DEFAULT, or the expression with assignment coercion.
ExprPtr BindColumnValue(ExprBinder& binder, const PgQuery__Node* node, const CatalogColumn& column,
                        const NameScope* scope) {
  if (node->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) return ColumnDefault(column, scope);
  return binder.BindAssignment(node, column.type, column.name);
}

// The new value of SET entry `t` of `column`: BindColumnValue's, or for `col[i] = v` the
// column's old value with element i set (Func::kArraySet, as PL/pgSQL's `var[i] := v`),
// so the statement assigns the whole column as any other.
ExprPtr BindSetValue(ExprBinder& binder, const PgQuery__ResTarget* t, const CatalogColumn& column, const NameScope* scope) {
  if (t->n_indirection == 0) {
    SyntheticNodes nodes;
    return BindColumnValue(binder, SetValueNode(t, nodes), column, scope);
  }
  const PgQuery__Node* step = t->indirection[0];
  if (step->node_case != PG_QUERY__NODE__NODE_A_INDICES)
    throw NotSupported("assignment to a field of a column", t->location);
  if (!column.type.is_array())
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("cannot subscript type {} because it does not support subscripting", column.type.BaseName()),
                   t->location);
  if (t->n_indirection > 1 || step->a_indices->is_slice)
    throw NotSupported("assignment to an array slice or a nested element", t->location);
  if (t->val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
    throw NotSupported("assignment of DEFAULT to an array element", t->location);
  SyntheticNodes nodes;
  std::vector<ExprPtr> args;
  args.push_back(binder.Bind(nodes.ColumnRef("", column.name)));
  args.push_back(binder.BindSubscript(step->a_indices->uidx, t->location));
  args.push_back(binder.BindAssignment(t->val, column.type.Element(), column.name));
  return MakeCall(Func::kArraySet, column.type.Base(), std::move(args), t->location);
}

bool IsPrimaryKeyTarget(const TableInfo& table, const PgQuery__InferClause* infer) {
  if (infer->conname && *infer->conname) return std::string(infer->conname) == table.PrimaryKeyName();
  std::set<int> columns;
  for (size_t i = 0; i < infer->n_index_elems; ++i) {
    const PgQuery__Node* n = infer->index_elems[i];
    if (n->node_case != PG_QUERY__NODE__NODE_INDEX_ELEM || !n->index_elem->name || !*n->index_elem->name) return false;
    int c = table.ColumnIndex(n->index_elem->name);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", n->index_elem->name),
                     infer->location);
    columns.insert(c);
  }
  return columns == std::set<int>(table.primary_key.begin(), table.primary_key.end()) && !infer->where_clause;
}

// The UNIQUE index of the table an ON CONFLICT target names (by constraint name or by
// its columns), or null.
const TableInfo::UniqueIndex* MatchesUniqueIndex(const TableInfo& table, const PgQuery__InferClause* infer) {
  for (const TableInfo::UniqueIndex& u : table.unique_indexes) {
    if (infer->conname && *infer->conname) {
      if (u.name == infer->conname) return &u;
      continue;
    }
    std::set<int> columns;
    for (size_t i = 0; i < infer->n_index_elems; ++i) {
      const PgQuery__Node* n = infer->index_elems[i];
      if (n->node_case != PG_QUERY__NODE__NODE_INDEX_ELEM || !n->index_elem->name) return nullptr;
      columns.insert(table.ColumnIndex(n->index_elem->name));
    }
    if (columns == std::set<int>(u.columns.begin(), u.columns.end()) && !infer->where_clause) return &u;
  }
  return nullptr;
}

}  // namespace

KeyAccess KeyAccessOf(const AccessPath& path) {
  KeyAccess k;
  switch (path.kind) {
    case AccessPath::Kind::kPointRead: k.kind = KeyAccess::Kind::kPoint; break;
    case AccessPath::Kind::kRangeScan: k.kind = KeyAccess::Kind::kRange; break;
    case AccessPath::Kind::kFullScan: k.kind = KeyAccess::Kind::kFullScan; break;
    case AccessPath::Kind::kIndexScan:
      k.kind = KeyAccess::Kind::kIndex;
      k.index = path.index;
      break;
  }
  for (const Expr* e : path.prefix) k.key.push_back(e->Clone());
  if (path.lower) {
    k.lower = path.lower->value->Clone();
    k.lower_inclusive = path.lower->inclusive;
  }
  if (path.upper) {
    k.upper = path.upper->value->Clone();
    k.upper_inclusive = path.upper->inclusive;
  }
  return k;
}

const TableInfo& TableStatementBinder::ResolveTable(const PgQuery__RangeVar* rv) const {
  if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname), rv->location);
  return TableToWrite(catalog_, rv->relname, rv->location);
}

void TableStatementBinder::BindReturning(Stmt& s, PgQuery__Node* const* list, size_t n, const NameScope& scope) {
  returning_columns_.clear();
  ExprBinder binder(&scope, &catalog_);
  for (size_t i = 0; i < n; ++i) {
    const PgQuery__ResTarget* t = list[i]->res_target;
    const PgQuery__Node* v = t->val;
    if (v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        v->column_ref->fields[v->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      for (size_t c = 0; c < s.table->columns.size(); ++c) {
        const CatalogColumn& col = s.table->columns[c];
        s.returning.push_back(MakeSlot(Slot{SlotSpace::kColumn, static_cast<int>(c)}, col.type, t->location));
        returning_columns_.push_back({col.name, col.type});
      }
      continue;
    }
    ExprPtr e = binder.Bind(v);
    if (e->type.is_unknown()) e = Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kImplicit);
    returning_columns_.push_back({OutputColumnName(t), e->type});
    s.returning.push_back(std::move(e));
  }
}

bool HasRowTriggers(const TableInfo& table, TriggerInfo::Event event, const std::vector<std::string>& set) {
  return std::ranges::any_of(table.triggers, [&](const TriggerInfo& t) { return t.row && t.FiresOn(event, set); });
}

std::vector<StmtPtr> TableStatementBinder::BindInsert(const PgQuery__InsertStmt* stmt) {
  if (HasDataModifyingCte(stmt->with_clause)) return AfterWithWrites(*this, stmt, &TableStatementBinder::BindInsert);
  const TableInfo& table = ResolveTable(stmt->relation);
  const bool upsert = stmt->on_conflict_clause != nullptr && fire_triggers_ &&
                      (HasRowTriggers(table, TriggerInfo::kInsert) || HasRowTriggers(table, TriggerInfo::kUpdate));
  std::vector<StmtPtr> out = upsert ? BindTriggeredUpsert(stmt) : IsDmlLoop(stmt) ? BindInsertLoop(stmt) : BindValuesInsert(stmt);
  if (!fire_triggers_) return out;
  if (!upsert && HasRowTriggers(table, TriggerInfo::kInsert)) {
    if (loops_ == nullptr) throw NotSupported(fmt::format("an INSERT into table \"{}\", which has triggers, here", table.name));
    WeaveInsertTriggers(out, catalog_, *loops_, variables_);
  }
  // ON CONFLICT DO UPDATE fires the UPDATE statement triggers too, as in PostgreSQL.
  if (stmt->on_conflict_clause && stmt->on_conflict_clause->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE) {
    std::vector<std::string> set;
    for (size_t i = 0; i < stmt->on_conflict_clause->n_target_list; ++i)
      set.emplace_back(stmt->on_conflict_clause->target_list[i]->res_target->name);
    out = WithStatementTriggers(std::move(out), TriggerInfo::kUpdate, set, table, catalog_, loops_, variables_);
  }
  return WithStatementTriggers(std::move(out), TriggerInfo::kInsert, {}, table, catalog_, loops_, variables_);
}

std::vector<StmtPtr> TableStatementBinder::BindValuesInsert(const PgQuery__InsertStmt* stmt) {
  const TableInfo& table = ResolveTable(stmt->relation);
  // Target columns: the list, or every column in order.
  std::vector<int> targets;
  if (stmt->n_cols > 0) {
    std::set<int> seen;
    for (size_t i = 0; i < stmt->n_cols; ++i) {
      const PgQuery__ResTarget* t = stmt->cols[i]->res_target;
      int c = TargetColumn(table, t);
      if (!seen.insert(c).second)
        throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", t->name),
                       t->location);
      targets.push_back(c);
    }
  } else {
    for (size_t c = 0; c < table.columns.size(); ++c) targets.push_back(static_cast<int>(c));
  }

  // The rows: VALUES lists, or DEFAULT VALUES (no select statement).
  std::vector<std::vector<const PgQuery__Node*>> rows;
  const NameScope* values_scope = values_scope_ ? values_scope_ : variables_;
  SyntheticNodes expanded;  // `r.*` of a PL/pgSQL record: its fields
  if (stmt->select_stmt) {
    if (stmt->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) throw NotSupported("this INSERT source");
    const PgQuery__SelectStmt* source = stmt->select_stmt->select_stmt;
    if (source->n_values_lists == 0) throw NotSupported("INSERT ... SELECT here");
    for (size_t r = 0; r < source->n_values_lists; ++r) {
      const PgQuery__List* items = source->values_lists[r]->list;
      std::vector<const PgQuery__Node*> row;
      for (size_t i = 0; i < items->n_items; ++i) {
        const PgQuery__Node* item = items->items[i];
        const PgQuery__ColumnRef* ref = item->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? item->column_ref : nullptr;
        std::optional<RecordBinding> record;
        if (ref && values_scope && ref->n_fields == 2 && ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
            ref->fields[1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
          record = values_scope->LookupRecord(ref->fields[0]->string->sval);
        if (!record) {
          row.push_back(item);
          continue;
        }
        for (const auto& field : record->fields) row.push_back(expanded.ColumnRef(ref->fields[0]->string->sval, field.first));
      }
      if (row.size() > targets.size())
        throw SqlError(sqlstate::kSyntaxError, "INSERT has more expressions than target columns",
                       NodeLocation(row[targets.size()]));
      if (row.size() < targets.size() && stmt->n_cols > 0)
        throw SqlError(sqlstate::kSyntaxError, "INSERT has more target columns than expressions",
                       stmt->cols[row.size()]->res_target->location);
      rows.push_back(std::move(row));
    }
  } else {
    rows.emplace_back();
  }

  const PgQuery__OnConflictClause* conflict = stmt->on_conflict_clause;
  OnConflict on_conflict = OnConflict::kNone;
  std::string conflict_index;  // a UNIQUE index as the DO NOTHING target
  if (conflict) {
    if (conflict->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE) on_conflict = OnConflict::kDoUpdate;
    else on_conflict = OnConflict::kDoNothing;
    if (!conflict->infer && on_conflict == OnConflict::kDoUpdate)
      throw SqlError(sqlstate::kSyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name",
                     conflict->location)
          .WithHint("For example, ON CONFLICT (column_name).");
    if (conflict->infer && !IsPrimaryKeyTarget(table, conflict->infer)) {
      if (const TableInfo::UniqueIndex* u = MatchesUniqueIndex(table, conflict->infer)) {
        if (on_conflict == OnConflict::kDoUpdate)
          throw SqlError(sqlstate::kFeatureNotSupported,
                         "ON CONFLICT DO UPDATE on a UNIQUE index other than the primary key is not supported yet",
                         conflict->infer->location)
              .WithHint("Name the primary key's columns as the target, or use DO NOTHING.");
        conflict_index = u->name;
      }
    }
    if (conflict->infer && !IsPrimaryKeyTarget(table, conflict->infer) && conflict_index.empty())
      throw SqlError(sqlstate::kInvalidColumnReference,
                     "there is no unique or exclusion constraint matching the ON CONFLICT specification",
                     conflict->infer->location);
  }

  std::vector<StmtPtr> out;
  ExprBinder values_binder(values_scope_ ? values_scope_ : variables_, &catalog_);
  for (const auto& row : rows) {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::kInsert;
    s->table = &table;
    s->row_values.resize(table.columns.size());
    for (size_t i = 0; i < row.size(); ++i) {
      const CatalogColumn& column = table.columns[targets[i]];
      CheckIdentityValue(column, stmt, row[i]);
      // OVERRIDING USER VALUE: an identity column takes its sequence's value anyway.
      if (stmt->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE &&
          column.identity != CatalogColumn::Identity::kNone)
        continue;
      s->row_values[targets[i]] = BindColumnValue(values_binder, row[i], column, variables_);
    }
    for (size_t c = 0; c < table.columns.size(); ++c)
      if (!s->row_values[c]) s->row_values[c] = ColumnDefault(table.columns[c], variables_);
    s->on_conflict = on_conflict;
    s->conflict_any_index = conflict && !conflict->infer;
    s->conflict_index = conflict_index;
    if (on_conflict == OnConflict::kDoUpdate) {
      TableScope scope(table, RefName(stmt->relation), variables_, true);
      ExprBinder binder(&scope, &catalog_);
      std::set<int> assigned;
      for (size_t i = 0; i < conflict->n_target_list; ++i) {
        const PgQuery__ResTarget* t = conflict->target_list[i]->res_target;
        CheckIdentityUpdate(table.columns[static_cast<size_t>(TargetColumn(table, t, true))], t->val);
        int c = SetColumn(table, t, assigned, false, true);
        s->assignments.emplace_back(c, BindSetValue(binder, t, table.columns[c], variables_));
      }
      for (int c : table.primary_key)
        if (assigned.count(c))
          throw NotSupported("ON CONFLICT DO UPDATE of a primary-key column", conflict->location);
      if (conflict->where_clause) s->conflict_filter = binder.BindCondition(conflict->where_clause, "WHERE");
    }
    if (stmt->n_returning_list > 0) {
      TableScope scope(table, RefName(stmt->relation), variables_);
      BindReturning(*s, stmt->returning_list, stmt->n_returning_list, scope);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<StmtPtr> TableStatementBinder::BindUpdate(const PgQuery__UpdateStmt* stmt) {
  if (HasDataModifyingCte(stmt->with_clause)) return AfterWithWrites(*this, stmt, &TableStatementBinder::BindUpdate);
  const TableInfo& table = ResolveTable(stmt->relation);
  std::vector<std::string> set;
  for (size_t i = 0; i < stmt->n_target_list; ++i)
    if (const char* name = stmt->target_list[i]->res_target->name) set.emplace_back(name);
  std::vector<StmtPtr> out;
  if (fire_triggers_ && HasRowTriggers(table, TriggerInfo::kUpdate, set)) out = BindTriggeredUpdate(stmt, set);
  else if (IsDmlLoop(stmt)) out = BindUpdateLoop(stmt);
  else out.push_back(BindSimpleUpdate(stmt));
  if (!fire_triggers_) return out;
  return WithStatementTriggers(std::move(out), TriggerInfo::kUpdate, set, table, catalog_, loops_, variables_);
}

std::vector<StmtPtr> TableStatementBinder::BindDelete(const PgQuery__DeleteStmt* stmt) {
  if (HasDataModifyingCte(stmt->with_clause)) return AfterWithWrites(*this, stmt, &TableStatementBinder::BindDelete);
  const TableInfo& table = ResolveTable(stmt->relation);
  std::vector<StmtPtr> out;
  if (fire_triggers_ && HasRowTriggers(table, TriggerInfo::kDelete)) out = BindTriggeredDelete(stmt);
  else if (IsDmlLoop(stmt)) out = BindDeleteLoop(stmt);
  else out.push_back(BindSimpleDelete(stmt));
  if (!fire_triggers_) return out;
  return WithStatementTriggers(std::move(out), TriggerInfo::kDelete, {}, table, catalog_, loops_, variables_);
}

StmtPtr TableStatementBinder::BindSimpleUpdate(const PgQuery__UpdateStmt* stmt) {
  const TableInfo& table = ResolveTable(stmt->relation);
  TableScope scope(table, RefName(stmt->relation), variables_);
  ExprBinder binder(&scope, &catalog_);
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::kUpdate;
  s->table = &table;
  std::set<int> assigned;
  for (size_t i = 0; i < stmt->n_target_list; ++i) {
    const PgQuery__ResTarget* t = stmt->target_list[i]->res_target;
    CheckIdentityUpdate(table.columns[static_cast<size_t>(TargetColumn(table, t, true))], t->val);
    int c = SetColumn(table, t, assigned, true, true);
    s->assignments.emplace_back(c, BindSetValue(binder, t, table.columns[c], variables_));
  }
  if (stmt->where_clause) {
    if (stmt->where_clause->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR) throw NotSupported("WHERE CURRENT OF");
    s->filter = binder.BindCondition(stmt->where_clause, "WHERE");
  }
  s->where_key = KeyAccessOf(ChooseAccessPath(s->filter.get(), table));
  if (stmt->n_returning_list > 0) BindReturning(*s, stmt->returning_list, stmt->n_returning_list, scope);
  return s;
}

StmtPtr TableStatementBinder::BindSimpleDelete(const PgQuery__DeleteStmt* stmt) {
  const TableInfo& table = ResolveTable(stmt->relation);
  TableScope scope(table, RefName(stmt->relation), variables_);
  ExprBinder binder(&scope, &catalog_);
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::kDelete;
  s->table = &table;
  if (stmt->where_clause) {
    if (stmt->where_clause->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR) throw NotSupported("WHERE CURRENT OF");
    s->filter = binder.BindCondition(stmt->where_clause, "WHERE");
  }
  s->where_key = KeyAccessOf(ChooseAccessPath(s->filter.get(), table));
  if (stmt->n_returning_list > 0) BindReturning(*s, stmt->returning_list, stmt->n_returning_list, scope);
  return s;
}

std::unique_ptr<QueryPlan> TransactionQuery(QueryPlan plan, std::string_view where) {
  for (const TableInfo* t : TablesRead(plan))
    if (IsSystemView(*t)) throw NotSupported(fmt::format("reading the system view {} {}", t->name, where));
  return std::make_unique<QueryPlan>(std::move(plan));
}

StmtPtr TableStatementBinder::BindSelect(const PgQuery__SelectStmt* stmt, StmtKind kind) {
  if (HasDataModifyingCte(stmt->with_clause))
    throw NotSupported("a SELECT with a data-modifying WITH query inside a procedure", stmt->with_clause->location)
        .WithHint("Write the INSERT, UPDATE or DELETE with RETURNING ... INTO first, or make the WITH's main statement the write.");
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  if (NeedsQueryPlanner(stmt, catalog_)) {
    // Planned once, when the procedure is created: join order from the rules alone (no
    // table sizes), as PostgreSQL's generic plan would be fixed for the session.
    s->query = TransactionQuery(PlanQuery(stmt, catalog_, {}, variables_), "inside a procedure");
    return s;
  }
  s->select = std::make_unique<SelectPlan>(PlanSelect(stmt, catalog_, variables_));
  s->table = s->select->table;
  if (s->table && IsSystemView(*s->table))
    throw NotSupported(fmt::format("reading the system view {} inside a procedure", s->table->name));
  if (s->table) s->select_key = KeyAccessOf(s->select->access);
  const SelectPlan& q = *s->select;
  if (q.table && q.access.kind == AccessPath::Kind::kPointRead && !q.grouped && q.sort.empty() && !q.limit &&
      !q.offset && q.where) {
    size_t conjuncts = q.where->kind == ExprKind::kAnd ? q.where->args.size() : 1;
    s->point_lookup = conjuncts == q.table->primary_key.size();
  }
  return s;
}

}  // namespace caracal::planner
