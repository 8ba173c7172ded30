#include "planner/exec/insert_select.h"

#include <fmt/format.h>

#include <optional>
#include <set>

#include "engine/types/key.h"
#include "engine/types/row_value.h"
#include "planner/binder/generated_columns.h"
#include "planner/binder/coerce.h"
#include "planner/expr/domain_check.h"
#include "planner/types/domain_type.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/catalog/constraint_errors.h"
#include "planner/catalog/row_identity.h"
#include "planner/exec/explain_query.h"
#include "planner/exec/query_exec.h"
#include "planner/exec/foreign_keys.h"
#include "planner/exec/snapshot_source.h"
#include "planner/exec/unique_load_check.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/types/cast.h"
#include "planner/types/sql_error.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::planner {

namespace {

// Whether the INSERT leaves a column whose default draws from a sequence to its default:
// a load logs rows, not sequence advances, so such an INSERT runs as a transaction.
bool DrawsDefaults(const PgQuery__InsertStmt* stmt, const Catalog& catalog) {
  const TableInfo* table = stmt->relation ? catalog.FindTable(stmt->relation->relname) : nullptr;
  if (table == nullptr) return false;
  for (const CatalogColumn& c : table->columns) {
    if (DefaultSequence(c) == nullptr) continue;
    if (stmt->n_cols == 0) return false;  // every column given
    bool given = false;
    for (size_t i = 0; i < stmt->n_cols; ++i)
      given = given || c.name == stmt->cols[i]->res_target->name;
    if (!given) return true;
  }
  return false;
}

}  // namespace

bool IsInsertSelect(const PgQuery__InsertStmt* stmt, const Catalog& catalog) {
  if (!stmt->select_stmt || stmt->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
  const PgQuery__SelectStmt* source = stmt->select_stmt->select_stmt;
  // ON CONFLICT and RETURNING need each row's outcome: those run as a transaction in an
  // epoch, the query then a write per row (binder/dml_loop.cc); so does one whose rows
  // draw sequence values.
  if (stmt->on_conflict_clause || stmt->n_returning_list > 0 || HasDataModifyingCte(stmt->with_clause) ||
      DrawsDefaults(stmt, catalog))
    return false;
  // So does one into a table with triggers, which fire for each row.
  if (const TableInfo* table = catalog.FindTable(stmt->relation->relname); table && table->HasTriggers(TriggerInfo::kInsert))
    return false;
  // Plain VALUES lists are a procedure's multi-row INSERT (nextval(), RETURNING, ON CONFLICT).
  return source->n_values_lists == 0 || ContainsSubquery(source);
}

namespace {

// The target table, its target columns and the source query, bound and checked.
struct BoundInsertSelect {
  const TableInfo* table = nullptr;
  std::vector<int> targets;
  QueryPlan plan;
};

BoundInsertSelect BindInsertSelect(const PgQuery__InsertStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate) {
  const PgQuery__RangeVar* rv = stmt->relation;
  if (stmt->on_conflict_clause) throw NotSupported("INSERT ... SELECT with ON CONFLICT", rv->location);
  if (stmt->n_returning_list > 0) throw NotSupported("INSERT ... SELECT with RETURNING", rv->location);
  const TableInfo* table = &TableToWrite(catalog, rv->relname, rv->location);
  std::vector<int> targets;
  if (stmt->n_cols > 0) {
    std::set<int> seen;
    for (size_t i = 0; i < stmt->n_cols; ++i) {
      const PgQuery__ResTarget* t = stmt->cols[i]->res_target;
      if (t->n_indirection > 0) throw NotSupported("assignment to an array element or field", t->location);
      const int c = table->ColumnIndex(t->name);
      if (c < 0)
        throw SqlError(sqlstate::kUndefinedColumn,
                       fmt::format("column \"{}\" of relation \"{}\" does not exist", t->name, table->name), t->location);
      if (!seen.insert(c).second)
        throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", t->name), t->location);
      targets.push_back(c);
    }
  } else {
    for (size_t c = 0; c < table->columns.size(); ++c) targets.push_back(static_cast<int>(c));
  }
  SyntheticNodes nodes;  // the source with the WITH before INSERT: planned, then not needed
  const PgQuery__SelectStmt* source = nodes.SelectWithCtes(stmt->select_stmt->select_stmt, stmt->with_clause);
  std::vector<std::pair<std::string, SqlType>> columns;
  for (int c : targets) columns.emplace_back(table->columns[static_cast<size_t>(c)].name, table->columns[static_cast<size_t>(c)].type);
  QueryPlan plan = PlanInsertSource(source, catalog, estimate, columns);
  if (plan.columns.size() < targets.size() && stmt->n_cols > 0)
    throw SqlError(sqlstate::kSyntaxError, "INSERT has more target columns than expressions",
                   stmt->cols[plan.columns.size()]->res_target->location);
  return BoundInsertSelect{table, std::move(targets), std::move(plan)};
}

}  // namespace

ResultSet ExplainInsertSelect(const PgQuery__InsertStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate) {
  BoundInsertSelect bound = BindInsertSelect(stmt, catalog, estimate);
  ResultSet source = ExplainQueryPlan(bound.plan);
  ResultSet result;
  result.columns = source.columns;
  result.rows.push_back({"Insert on " + bound.table->name});
  for (auto& row : source.rows) result.rows.push_back({"  ->  " + row[0].value_or("")});
  // The source's own lines below its first are indented one level deeper as well.
  for (size_t i = 2; i < result.rows.size(); ++i) result.rows[i][0] = "      " + result.rows[i][0]->substr(6);
  return result;
}

int64_t InsertSelect(const PgQuery__InsertStmt* stmt, Catalog& catalog, engine::Engine& engine,
                     const TableRowEstimator& estimate) {
  BoundInsertSelect bound = BindInsertSelect(stmt, catalog, estimate);
  const TableInfo* table = bound.table;
  const std::vector<int>& targets = bound.targets;
  const QueryPlan& plan = bound.plan;
  const engine::Schema& schema = catalog.database().schema(table->id);
  std::vector<bool> given_columns(table->columns.size(), false);
  for (int c : targets) {
    given_columns[static_cast<size_t>(c)] = true;
    CheckIdentityValue(table->columns[static_cast<size_t>(c)], stmt, nullptr);
  }
  RefuseSequenceDefaults(*table, given_columns, "INSERT ... SELECT");
  int64_t inserted = 0;
  engine.RunExclusive([&] {
    std::vector<engine::RowValuePtr> rows;
    std::set<engine::Key, engine::KeyLess> keys;
    UniqueLoadCheck unique(*table, catalog.database().table(table->id));
    ForeignKeyLoadCheck references(*table);
    std::optional<LoadRowIdentities> identities;
    if (table->HasRowIdentity()) identities.emplace(catalog.database(), *table);
    SnapshotSource snapshot(catalog.database());
    const RowGenerator generated(*table);
    RunQuery(plan, snapshot, {}, [&](std::span<const Datum> values) {
      std::vector<Datum> datums(table->columns.size());
      std::vector<bool> given(table->columns.size(), false);
      for (size_t i = 0; i < values.size(); ++i) {
        const size_t c = static_cast<size_t>(targets[i]);
        given[c] = true;
        datums[c] = values[i];  // already the column's type (PlanInsertSource)
      }
      for (size_t c = 0; c < table->columns.size(); ++c)
        if (!given[c] && table->columns[c].default_expr) {
          EvalContext loaded;
          loaded.routines = snapshot.routines;  // a DEFAULT random(): the load's rows are logged, not replayed
          datums[c] = Eval(*table->columns[c].default_expr, loaded);
        } else if (!given[c] && table->columns[c].type.domain && table->columns[c].type.domain->default_expr()) {
          datums[c] = Eval(*table->columns[c].type.domain->default_expr(), EvalContext{});
        }
      for (size_t c = 0; c < table->columns.size(); ++c)
        if (!given[c] && table->columns[c].type.domain)  // given values were checked by the query's coercion
          datums[c] = CheckDomain(table->columns[c].type, std::move(datums[c]));
      generated.Compute(datums);
      std::vector<engine::Value> row;
      for (size_t c = 0; c < table->columns.size(); ++c) {
        const CatalogColumn& col = table->columns[c];
        if (datums[c].is_null() && col.not_null) throw NotNullViolation(*table, static_cast<int>(c), datums);
        row.push_back(DatumToColumnValue(datums[c], col.type));
      }
      if (identities) {
        const RowIdentity id = identities->Next();
        row.push_back(engine::Value::Int(id.xact));
        row.push_back(engine::Value::Int(id.item));
      }
      engine::RowValuePtr built = MakeRow(schema, row);
      if (!table->checks.empty()) EnforceConstraints(*table, schema, *built, datums);
      std::vector<engine::Value> key_values;
      for (int c : schema.primary_key()) key_values.push_back(row[static_cast<size_t>(c)]);
      engine::Key key = EncodePrimaryKey(schema, key_values);
      if (!keys.insert(key).second || snapshot.Read(table->id, key) != nullptr) {
        throw PrimaryKeyViolation(*table, datums);
      }
      if (!table->unique_indexes.empty()) unique.Add(*built, datums);
      if (references.needed()) references.Add(datums);
      rows.push_back(std::move(built));
      return true;
    });
    unique.CheckAgainst(snapshot);
    references.CheckAgainst(snapshot);
    for (auto& r : rows) catalog.database().LoadRow(table->id, std::move(r));
    inserted = static_cast<int64_t>(rows.size());
  });
  return inserted;
}

}  // namespace caracal::planner
