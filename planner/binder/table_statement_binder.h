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
#pragma once

#include <string>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/binder/expr_binder.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__InsertStmt;
struct PgQuery__UpdateStmt;
struct PgQuery__DeleteStmt;
struct PgQuery__SelectStmt;
struct PgQuery__ResTarget;
struct PgQuery__RangeVar;

namespace caracal::planner {

class TableStatementBinder {
 public:
  // `variables` may be null (ad-hoc statements).
  TableStatementBinder(const Catalog& catalog, const NameScope* variables) : catalog_(catalog), variables_(variables) {}

  std::vector<StmtPtr> BindInsert(const PgQuery__InsertStmt* stmt);
  StmtPtr BindUpdate(const PgQuery__UpdateStmt* stmt);
  StmtPtr BindDelete(const PgQuery__DeleteStmt* stmt);
  // `kind`: kSelectInto (SELECT ... INTO, PERFORM) or kReturnQuery.
  StmtPtr BindSelect(const PgQuery__SelectStmt* stmt, StmtKind kind);

  // The RETURNING columns' names of the last statement bound (for ad-hoc DML results).
  const std::vector<OutputColumn>& returning_columns() const { return returning_columns_; }

 private:
  const TableInfo& ResolveTable(const PgQuery__RangeVar* rv) const;
  void BindReturning(Stmt& s, PgQuery__Node* const* list, size_t n, const NameScope& scope);

  const Catalog& catalog_;
  const NameScope* variables_;
  std::vector<OutputColumn> returning_columns_;
};

// The KeyAccess of a primary-key access path (expressions cloned).
KeyAccess KeyAccessOf(const AccessPath& path);

}  // namespace caracal::planner
