// WITH with data-modifying queries (WITH d AS (DELETE ... RETURNING ...) INSERT ... SELECT
// ... FROM d): each INSERT / UPDATE / DELETE of the WITH runs first, in order, as the
// statements it is bound to anyway; the rows it returns are kept in hidden array
// variables, and the rest of the statement reads them through its WITH query, now
// `SELECT <its RETURNING list> FROM unnest(<the arrays>) AS <target>(<columns>)`.
//
// PostgreSQL runs all the parts on one snapshot, so no part sees another's changes except
// through RETURNING. Run one after another they would; so a table a WITH query changes
// may not be read or changed by any other part of the statement (refused, never a
// different answer).
//
// An UPDATE's or DELETE's rows are those its query collects (the general loop form:
// every row it changes, with all its columns); RETURNING is then a query over them, and
// writes keyed by it are classified from that query like any read. An INSERT's rows are
// appended by its writes (`append_returning`), so a later write keyed by them is refused
// by the analysis, as a key from any RETURNING is.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "planner/binder/hidden_scope.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool IsDataModifying(const PgQuery__Node* query) { return query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT; }

const PgQuery__RangeVar* TargetOf(const PgQuery__Node* stmt) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT: return stmt->insert_stmt->relation;
    case PG_QUERY__NODE__NODE_UPDATE_STMT: return stmt->update_stmt->relation;
    case PG_QUERY__NODE__NODE_DELETE_STMT: return stmt->delete_stmt->relation;
    default: return nullptr;
  }
}

// The names `m` gives FROM items that are not WITH queries of `with` (the tables it reads).
std::set<std::string> TablesNamed(const ProtobufCMessage* m, const std::set<std::string>& ctes) {
  std::set<std::string> out;
  ContainsNode(m, [&](const PgQuery__Node* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR && !ctes.contains(n->range_var->relname)) out.insert(n->range_var->relname);
    return false;
  });
  return out;
}

// The first FROM item of `m` that names `name` (a WITH query), if any.
const PgQuery__RangeVar* FromItemNaming(const ProtobufCMessage* m, const std::string& name) {
  const PgQuery__RangeVar* found = nullptr;
  ContainsNode(m, [&](const PgQuery__Node* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR && n->range_var->relname == name) found = n->range_var;
    return found != nullptr;
  });
  return found;
}

// Refuses `m` naming WITH query `cte` as a FROM item: it returns no rows to read.
void RequireUnnamed(const ProtobufCMessage* m, const std::string& cte) {
  if (const PgQuery__RangeVar* ref = FromItemNaming(m, cte))
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("WITH query \"{}\" does not have a RETURNING clause", cte),
                   ref->location);
}

// Refuses a statement whose parts could see each other's changes (see above). `main` is
// the statement without its WITH clause.
void RequireSeparateTables(const PgQuery__WithClause* with, const ProtobufCMessage* main, const PgQuery__RangeVar* main_target) {
  std::set<std::string> ctes;
  for (size_t i = 0; i < with->n_ctes; ++i) ctes.insert(with->ctes[i]->common_table_expr->ctename);
  // Each part's tables: the WITH queries', then the main statement's.
  std::vector<std::set<std::string>> parts;
  for (size_t i = 0; i < with->n_ctes; ++i) {
    const PgQuery__Node* query = with->ctes[i]->common_table_expr->ctequery;
    parts.push_back(TablesNamed(&query->base, ctes));
    if (const PgQuery__RangeVar* target = TargetOf(query)) parts.back().insert(target->relname);
  }
  parts.push_back(TablesNamed(main, ctes));
  if (main_target) parts.back().insert(main_target->relname);
  for (size_t i = 0; i < with->n_ctes; ++i) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    const PgQuery__RangeVar* target = TargetOf(cte->ctequery);
    if (target == nullptr) continue;
    for (size_t j = 0; j < parts.size(); ++j)
      if (j != i && parts[j].contains(target->relname))
        throw NotSupported(fmt::format("changing table {} in WITH query \"{}\" while another part of the statement reads or "
                                       "changes it",
                                       target->relname, cte->ctename),
                           cte->location)
            .WithHint("PostgreSQL runs every part on the same snapshot; here they run in order. Split the statement, "
                      "or read the changed rows through RETURNING.");
  }
}

// Of `ctes` (with `originals`, the user's queries for them), those `m` reads, directly or
// through one another: a WITH query a part does not read adds nothing to it (and the
// rows of an INSERT would make its keys unknown).
std::vector<PgQuery__Node*> ReadBy(const ProtobufCMessage* m, const std::vector<PgQuery__Node*>& ctes,
                                   const std::vector<const PgQuery__Node*>& originals) {
  std::vector<bool> read(ctes.size(), false);
  auto names = [](const ProtobufCMessage* part, const std::string& name) { return FromItemNaming(part, name) != nullptr; };
  // A WITH query reads only those before it (and itself, recursively): one pass backwards.
  for (size_t i = ctes.size(); i-- > 0;) {
    const std::string name = ctes[i]->common_table_expr->ctename;
    read[i] = names(m, name);
    for (size_t j = i + 1; j < ctes.size() && !read[i]; ++j) read[i] = read[j] && names(&originals[j]->base, name);
  }
  std::vector<PgQuery__Node*> out;
  for (size_t i = 0; i < ctes.size(); ++i)
    if (read[i]) out.push_back(ctes[i]);
  return out;
}

// The statements of `stmts` that write a row (in loops too).
void ForEachWrite(std::vector<StmtPtr>& stmts, const std::function<void(Stmt&)>& fn) {
  for (StmtPtr& s : stmts) {
    if (s->kind == StmtKind::kInsert || s->kind == StmtKind::kUpdate || s->kind == StmtKind::kDelete) fn(*s);
    ForEachWrite(s->body, fn);
  }
}

}  // namespace

bool HasDataModifyingCte(const PgQuery__WithClause* with) {
  if (with == nullptr) return false;
  for (size_t i = 0; i < with->n_ctes; ++i)
    if (IsDataModifying(with->ctes[i]->common_table_expr->ctequery)) return true;
  return false;
}

std::vector<StmtPtr> TableStatementBinder::BindWithWrites(const PgQuery__WithClause* with, const ProtobufCMessage* main,
                                                          const PgQuery__RangeVar* main_target,
                                                          const MainStatementBinder& bind_main) {
  RequireLoops("a data-modifying WITH query", 0);
  RequireSeparateTables(with, main, main_target);
  // The statement's own row count, not its WITH queries' as well (an ad-hoc tag).
  loops_->KeepRowCount();
  SyntheticNodes nodes;
  auto scope = std::make_unique<HiddenScope>(variables_);
  std::vector<StmtPtr> out;
  std::vector<PgQuery__Node*> rewritten;  // the WITH queries the rest of the statement sees
  std::vector<const PgQuery__Node*> originals;  // the user's query of each
  for (size_t i = 0; i < with->n_ctes; ++i) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    const PgQuery__Node* query = cte->ctequery;
    if (!IsDataModifying(query)) {
      rewritten.push_back(with->ctes[i]);
      originals.push_back(query);
      continue;
    }
    // It sees the WITH queries before it.
    PgQuery__WithClause* before = nodes.With(ReadBy(&query->base, rewritten, originals), with->recursive);
    TableStatementBinder binder(catalog_, scope.get(), loops_);
    std::vector<StmtPtr> stmts;
    PgQuery__Node** returning = nullptr;
    size_t n_returning = 0;
    // The rows it returns: `alias`(`columns`) over the arrays.
    std::string alias;
    std::vector<std::string> columns;
    std::vector<int> arrays;
    std::vector<SqlType> array_types;
    std::vector<PgQuery__Node*> targets;
    // UPDATE / DELETE: the other FROM items' columns RETURNING names, kept as $from_k.
    std::vector<std::pair<std::string, std::string>> from_columns;
    // The statement's copy, seeing the WITH queries before it, its RETURNING taken out.
    auto prepare = [&](auto* copy) {
      if (copy->with_clause) throw NotSupported("WITH inside a data-modifying WITH query", copy->with_clause->location);
      copy->with_clause = before;
      returning = std::exchange(copy->returning_list, nullptr);
      n_returning = std::exchange(copy->n_returning_list, 0);
      return copy;
    };
    switch (query->node_case) {
      case PG_QUERY__NODE__NODE_UPDATE_STMT:
      case PG_QUERY__NODE__NODE_DELETE_STMT: {
        RowImage image;
        const PgQuery__RangeVar* target = TargetOf(query);
        alias = RefName(target);
        PgQuery__UpdateStmt* update = nullptr;
        PgQuery__DeleteStmt* remove = nullptr;
        if (query->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) update = prepare(nodes.Copy(*query->update_stmt));
        else remove = prepare(nodes.Copy(*query->delete_stmt));
        // The rows kept are the target's, with the columns of other FROM / USING items that
        // RETURNING names as `item.column` (each in the row that joined).
        for (size_t r = 0; r < n_returning; ++r)
          ContainsNode(&returning[r]->base, [&](const PgQuery__Node* n) {
            if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF || n->column_ref->n_fields != 2) return false;
            const PgQuery__Node* qualifier = n->column_ref->fields[0];
            const PgQuery__Node* column = n->column_ref->fields[1];
            if (qualifier->node_case != PG_QUERY__NODE__NODE_STRING || StringValue(qualifier) == alias) return false;
            if (column->node_case != PG_QUERY__NODE__NODE_STRING)
              throw NotSupported("RETURNING another FROM item's * in a data-modifying WITH query", n->column_ref->location);
            std::pair<std::string, std::string> ref{StringValue(qualifier), StringValue(column)};
            if (std::ranges::find(image.from_columns, ref) == image.from_columns.end()) image.from_columns.push_back(ref);
            return false;
          });
        stmts = update ? binder.BindUpdateLoop(update, &image) : binder.BindDeleteLoop(remove, &image);
        const TableInfo& table = ResolveTable(target);
        for (const CatalogColumn& c : table.columns) {
          columns.push_back(c.name);
          array_types.push_back(SqlType::ArrayOf(c.type));
        }
        arrays = image.arrays;
        for (size_t k = 0; k < image.from_columns.size(); ++k) {
          columns.push_back(fmt::format("$from_{}", k));
          array_types.push_back(SqlType::ArrayOf(image.from_types[k]));
          arrays.push_back(image.from_arrays[k]);
        }
        from_columns = image.from_columns;
        for (size_t r = 0; r < n_returning; ++r) targets.push_back(returning[r]);
        break;
      }
      case PG_QUERY__NODE__NODE_INSERT_STMT: {
        // Its RETURNING stays: each write appends it to the arrays.
        PgQuery__InsertStmt* insert = prepare(nodes.Copy(*query->insert_stmt));
        insert->returning_list = returning;
        insert->n_returning_list = n_returning;
        stmts = binder.BindInsert(insert);
        // Each row it inserts appends its RETURNING values to the arrays, empty at first.
        alias = cte->ctename;
        const std::vector<OutputColumn>& returned = binder.returning_columns();
        std::vector<StmtPtr> init;
        for (size_t c = 0; c < returned.size(); ++c) {
          if (returned[c].type.is_array())
            throw NotSupported("an array value in the RETURNING of a data-modifying WITH query", cte->location);
          const SqlType type = SqlType::ArrayOf(returned[c].type);
          arrays.push_back(loops_->AddVariable(fmt::format("$with_{}_{}", cte->ctename, c), type, VariableKind::kTemp));
          array_types.push_back(type);
          auto clear = std::make_unique<Stmt>();
          clear->kind = StmtKind::kAssign;
          clear->target = arrays.back();
          clear->value = MakeConst(Datum::Array({}), type);
          init.push_back(std::move(clear));
          columns.push_back(fmt::format("$returned_{}", c));
          targets.push_back(nodes.Target(nodes.ColumnRef(alias, columns.back()), returned[c].name));
        }
        ForEachWrite(stmts, [&](Stmt& s) {
          if (s.returning.empty()) return;
          s.into = arrays;
          s.append_returning = true;
        });
        for (StmtPtr& s : stmts) init.push_back(std::move(s));
        stmts = std::move(init);
        break;
      }
      default: throw NotSupported("this statement in WITH", cte->location);
    }
    for (StmtPtr& s : stmts) out.push_back(std::move(s));
    if (n_returning == 0) {
      // Nothing to read: the rest of the statement may not name it.
      for (size_t j = i + 1; j < with->n_ctes; ++j) RequireUnnamed(&with->ctes[j]->base, cte->ctename);
      RequireUnnamed(main, cte->ctename);
      continue;
    }
    // SELECT <RETURNING list> FROM unnest(<arrays>) AS alias(columns).
    std::vector<PgQuery__Node*> array_refs;
    for (size_t c = 0; c < arrays.size(); ++c) {
      const std::string name = fmt::format("$with_{}_{}_rows", i, c);
      scope->Add("", name, arrays[c], array_types[c]);
      array_refs.push_back(nodes.ColumnRef("", name));
    }
    PgQuery__SelectStmt* rows = nodes.NewSelect();
    rows->target_list = nodes.Array(targets, rows->n_target_list);
    std::vector<PgQuery__Node*> from{nodes.RangeFunction(nodes.FuncCall("unnest", array_refs), alias, columns)};
    // Each other FROM item RETURNING names: LATERAL (SELECT alias."$from_k" AS column, ...) AS item.
    std::vector<std::string> items;
    for (const auto& [item, column] : from_columns)
      if (std::ranges::find(items, item) == items.end()) items.push_back(item);
    for (const std::string& item : items) {
      std::vector<PgQuery__Node*> values;
      for (size_t k = 0; k < from_columns.size(); ++k)
        if (from_columns[k].first == item)
          values.push_back(nodes.Target(nodes.ColumnRef(alias, fmt::format("$from_{}", k)), from_columns[k].second));
      PgQuery__SelectStmt* row = nodes.NewSelect();
      row->target_list = nodes.Array(values, row->n_target_list);
      from.push_back(nodes.LateralSubselect(row, item));
    }
    rows->from_clause = nodes.Array(from, rows->n_from_clause);
    rewritten.push_back(nodes.CteWithQuery(cte, nodes.SelectNode(rows)));
    originals.push_back(query);
  }
  TableStatementBinder binder(catalog_, scope.get(), loops_);
  std::vector<StmtPtr> stmts = bind_main(binder, nodes.With(ReadBy(main, rewritten, originals), with->recursive));
  returning_columns_ = binder.returning_columns();
  for (StmtPtr& s : stmts) out.push_back(std::move(s));
  return out;
}

std::vector<StmtPtr> TableStatementBinder::BindSelectWithWrites(const PgQuery__SelectStmt* stmt, StmtKind kind) {
  if (!HasDataModifyingCte(stmt->with_clause)) {  // a SELECT that draws sequence values
    std::vector<StmtPtr> out;
    out.push_back(BindSelect(stmt, kind));
    returning_columns_ = QueryColumns(*out.back());
    return out;
  }
  SyntheticNodes nodes;
  PgQuery__SelectStmt* main = nodes.Copy(*stmt);
  main->with_clause = nullptr;
  return BindWithWrites(stmt->with_clause, &main->base, nullptr, [&](TableStatementBinder& binder, PgQuery__WithClause* with) {
    main->with_clause = with;
    std::vector<StmtPtr> out;
    out.push_back(binder.BindSelect(main, kind));
    binder.returning_columns_ = QueryColumns(*out.back());
    return out;
  });
}

}  // namespace caracal::planner
