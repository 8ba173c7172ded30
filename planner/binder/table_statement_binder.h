// TableStatementBinder: binds the SQL statements that touch a table - INSERT, UPDATE,
// DELETE and SELECT - into procedure IR statements (procedure_ir.h), for the PL/pgSQL
// binder (the embedded SQL of a body, names resolving to the procedure's variables
// through `variables`) and for ad-hoc DML (no variables). One binder for both, so an
// ad-hoc statement and the same statement inside a procedure mean the same thing.
//
// Shapes produced (codegen/ and the write-set analysis rely on them):
//   INSERT: one kInsert per VALUES row, in order; `row_values` has one expression per
//     table column (schema order), already coerced, defaults filled in; ON CONFLICT
//     (the primary key, or no target with DO NOTHING) sets `on_conflict`, the DO UPDATE
//     `assignments` (over kColumn = the existing row, kExcluded = the proposed row) and
//     `conflict_filter`.
//   UPDATE / DELETE: `where_key` from the WHERE clause (point, key-prefix range, or a
//     full scan when no primary-key prefix is fixed), `filter` = the whole WHERE clause
//     (re-checked on every addressed row); UPDATE `assignments` coerced to the columns.
//   SELECT: `select` (the bound query; kVariable slots allowed) and `select_key` (the
//     primary-key path its rows come from).
//   RETURNING: `returning` over the written row's columns and the variables.
//   UPDATE ... FROM, DELETE ... USING, INSERT ... SELECT, and UPDATE / DELETE / INSERT
//   with a subquery (dml_loop.cc), as a loop:
//     a kSelectInto `collect` of a query (QueryPlan) of the rows' keys and new values into
//       hidden array variables and their count;
//     a kForRange over them whose body assigns each row's values to hidden variables and
//       writes that row by its primary key (the statement bound as above, without FROM);
//     FOUND / ROW_COUNT set from the count afterwards (when the procedure has them).
//   An UPDATE or DELETE reads the rows it changes in the query, each once (DISTINCT ON its
//   key: a row joined to several FROM rows is changed once, as in PostgreSQL). The writes'
//   keys come from the query, so the analysis classifies them `dependent`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/binder/expr_binder.h"
#include "planner/plan/procedure_ir.h"

struct ProtobufCMessage;
struct PgQuery__InsertStmt;
struct PgQuery__UpdateStmt;
struct PgQuery__DeleteStmt;
struct PgQuery__SelectStmt;
struct PgQuery__ResTarget;
struct PgQuery__RangeVar;
struct PgQuery__WithClause;
struct PgQuery__Node;

namespace caracal::planner {

class SyntheticNodes;

// What the loop forms of set-based DML need from the procedure they are bound into.
class DmlLoopHost {
 public:
  virtual ~DmlLoopHost() = default;
  // A new frame slot.
  virtual int AddVariable(std::string name, SqlType type, VariableKind kind) = 0;
  // FOUND's and ROW_COUNT's slots (-1: the procedure has none).
  virtual int FoundVariable() = 0;
  virtual int RowCountVariable() = 0;
  // Whether a loop form may have RETURNING (ad-hoc DML: each row is a result row; a
  // procedure's RETURNING ... INTO: each row assigns the targets).
  virtual bool AllowsReturning() const = 0;
  // Asks for ROW_COUNT to be kept even where nothing reads it: a statement after WITH
  // queries that write counts only its own rows (an ad-hoc statement's command tag).
  virtual void KeepRowCount() { RowCountVariable(); }
  // How many trigger functions are being bound around the statement (0: none): a write
  // in a trigger function fires the triggers of its own table, bound one level deeper.
  virtual int TriggerDepth() const { return 0; }
  // A trigger function bound for one of the statement's writes: the procedure keeps it
  // (ProcedureIr::trigger_routines), to be analysed with it.
  virtual void AddTriggerRoutine(std::shared_ptr<ProcedureIr> routine) = 0;
};

class TableStatementBinder {
 public:
  // `variables` may be null (ad-hoc statements); `loops` null: the loop forms are refused.
  TableStatementBinder(const Catalog& catalog, const NameScope* variables, DmlLoopHost* loops = nullptr)
      : catalog_(catalog), variables_(variables), loops_(loops) {}

  std::vector<StmtPtr> BindInsert(const PgQuery__InsertStmt* stmt);
  // Names the VALUES of an INSERT see instead of `variables` (which ON CONFLICT and
  // RETURNING keep seeing): a set-based INSERT's loop variables for its query's columns.
  void set_values_scope(const NameScope* scope) { values_scope_ = scope; }
  std::vector<StmtPtr> BindUpdate(const PgQuery__UpdateStmt* stmt);
  std::vector<StmtPtr> BindDelete(const PgQuery__DeleteStmt* stmt);
  // Whether the writes bound from here on fire the table's triggers (TRUNCATE's DELETEs
  // fire none). With triggers to fire, a write needs `loops` (binder/row_triggers.h).
  void set_fire_triggers(bool fire) { fire_triggers_ = fire; }
  // `kind`: kSelectInto (SELECT ... INTO, PERFORM) or kReturnQuery.
  StmtPtr BindSelect(const PgQuery__SelectStmt* stmt, StmtKind kind);
  // A SELECT whose WITH has data-modifying queries: their writes, then the SELECT as
  // `kind` (an ad-hoc statement's kReturnQuery, a procedure's kSelectInto; its columns
  // are returning_columns()).
  std::vector<StmtPtr> BindSelectWithWrites(const PgQuery__SelectStmt* stmt, StmtKind kind);

  // WITH with data-modifying queries (with_queries.cc): each one's writes in order, its
  // RETURNING rows kept in hidden arrays; then the main statement, bound by `bind_main`
  // with a binder that sees those arrays and the WITH clause left (each data-modifying
  // query replaced by a query of its rows). `main` is the statement without its WITH;
  // `main_target` the table it changes rows of, if any.
  using MainStatementBinder = std::function<std::vector<StmtPtr>(TableStatementBinder& binder, PgQuery__WithClause* with)>;
  std::vector<StmtPtr> BindWithWrites(const PgQuery__WithClause* with, const ProtobufCMessage* main,
                                      const PgQuery__RangeVar* main_target, const MainStatementBinder& bind_main);

  // The RETURNING columns' names of the last statement bound (for ad-hoc DML results).
  const std::vector<OutputColumn>& returning_columns() const { return returning_columns_; }

  // The rows a WITH query's UPDATE / DELETE changes: for each table column, the array
  // variable of its values in the new (UPDATE) or old (DELETE) rows, in the loop's order;
  // and for each column of another FROM / USING item its RETURNING names (`from_columns`,
  // qualifier and name, given by the caller), the array of that item's value in the row
  // that joined each changed row (`from_arrays`, of `from_types`' element types).
  struct RowImage {
    std::vector<int> arrays;
    std::vector<std::pair<std::string, std::string>> from_columns;
    std::vector<int> from_arrays;
    std::vector<SqlType> from_types;
  };

 private:
  const TableInfo& ResolveTable(const PgQuery__RangeVar* rv) const;
  // INSERT ... VALUES / DEFAULT VALUES (BindInsert without WITH writes, loops or triggers).
  std::vector<StmtPtr> BindValuesInsert(const PgQuery__InsertStmt* stmt);
  // UPDATE / DELETE of a table with row triggers (dml_loop.cc): a loop over the rows that
  // reads every column's old value, and the triggers around each row's write.
  std::vector<StmtPtr> BindTriggeredUpdate(const PgQuery__UpdateStmt* stmt, const std::vector<std::string>& set);
  std::vector<StmtPtr> BindTriggeredDelete(const PgQuery__DeleteStmt* stmt);
  // INSERT ... VALUES ... ON CONFLICT (the primary key) into a table with row triggers
  // (row_triggers.cc): the BEFORE INSERT triggers, a read of the row the key names, then
  // the INSERT and its AFTER triggers, or DO NOTHING, or the DO UPDATE with the UPDATE
  // triggers around it, as PostgreSQL fires them.
  std::vector<StmtPtr> BindTriggeredUpsert(const PgQuery__InsertStmt* stmt);
  // Whether a statement's WHERE fixes the whole primary key (a point), with no FROM,
  // USING, WITH or subquery.
  bool NamesOneRow(const PgQuery__UpdateStmt* stmt);
  bool NamesOneRow(const PgQuery__DeleteStmt* stmt);
  void BindReturning(Stmt& s, PgQuery__Node* const* list, size_t n, const NameScope& scope);
  StmtPtr BindSimpleUpdate(const PgQuery__UpdateStmt* stmt);
  StmtPtr BindSimpleDelete(const PgQuery__DeleteStmt* stmt);
  // The loop forms (dml_loop.cc); with `image`, the rows are collected by the general form
  // (a query over the target) with every column, and the write has no RETURNING.
  std::vector<StmtPtr> BindUpdateLoop(const PgQuery__UpdateStmt* stmt, RowImage* image = nullptr);
  std::vector<StmtPtr> BindDeleteLoop(const PgQuery__DeleteStmt* stmt, RowImage* image = nullptr);
  std::vector<StmtPtr> BindInsertLoop(const PgQuery__InsertStmt* stmt);
  std::optional<std::vector<StmtPtr>> BindInsertByLookups(const PgQuery__InsertStmt* stmt);
  void RequireLoops(const char* what, size_t returning) const;

  const Catalog& catalog_;
  const NameScope* variables_;
  const NameScope* values_scope_ = nullptr;
  DmlLoopHost* loops_;
  std::vector<OutputColumn> returning_columns_;
  bool fire_triggers_ = true;
};

// Whether a write of `event` on `table` (an UPDATE SETting `set`) fires row triggers.
bool HasRowTriggers(const TableInfo& table, TriggerInfo::Event event, const std::vector<std::string>& set = {});

// A query a statement of a transaction runs (procedure queries, the collect query of
// set-based DML), refusing system views: their rows describe the catalog, not the
// transaction's snapshot. `where` ends the error: "inside a procedure", ...
std::unique_ptr<QueryPlan> TransactionQuery(QueryPlan plan, std::string_view where);

// The KeyAccess of a primary-key access path (expressions cloned).
KeyAccess KeyAccessOf(const AccessPath& path);

// The name a statement's target table answers to: its alias, else its name.
std::string RefName(const PgQuery__RangeVar* rv);
// The target column of an INSERT column list / UPDATE SET entry (42703 if none). A
// subscripted target (`col[i]`) is refused (0A000) unless `allow_element`.
int TargetColumn(const TableInfo& table, const PgQuery__ResTarget* target, bool allow_element = false);
// GENERATED ALWAYS AS IDENTITY: an INSERT's value for `column` other than DEFAULT
// (`value`; null: a query's) needs OVERRIDING SYSTEM VALUE, else 428C9. A generated
// column takes DEFAULT only (428C9).
void CheckIdentityValue(const CatalogColumn& column, const PgQuery__InsertStmt* stmt, const PgQuery__Node* value);
// The column a SET entry assigns, checked as PostgreSQL checks it: each column once
// (`assigned` collects them); with `refuse_key`, not a primary-key column (UPDATE).
int SetColumn(const TableInfo& table, const PgQuery__ResTarget* target, std::set<int>& assigned, bool refuse_key,
              bool allow_element = false);

// The value node of SET entry `t`: its own, or for `SET (a, b) = source` this column's
// part of the source: the row constructor's item, or the sub-SELECT reduced to this
// column's output as a scalar subquery (made in `nodes`). PostgreSQL's 42601 errors for
// a source of another kind or size.
PgQuery__Node* SetValueNode(const PgQuery__ResTarget* t, SyntheticNodes& nodes);

// Whether an UPDATE / DELETE / INSERT is bound as a loop (see above).
bool IsDmlLoop(const PgQuery__UpdateStmt* stmt);
bool IsDmlLoop(const PgQuery__DeleteStmt* stmt);
bool IsDmlLoop(const PgQuery__InsertStmt* stmt);

// Whether a WITH clause has an INSERT, UPDATE or DELETE among its queries.
bool HasDataModifyingCte(const PgQuery__WithClause* with);

}  // namespace caracal::planner
