// SyntheticNodes: parse-tree nodes the binder makes itself, to bind a statement it derives
// from the user's (UPDATE ... FROM as a query of the rows to update, then a point UPDATE
// per row) with the same binders, so both mean exactly what the user's SQL means. The
// nodes are libpg_query's protobuf-c structs with their descriptors set, so the generic
// walkers over the tree see them as parsed nodes; they may point into a parse tree that
// must outlive them. They live as long as this object.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "planner/parser/pg_nodes.h"

namespace caracal::planner {

class SyntheticNodes {
 public:
  // `qualifier.column` (no qualifier: `column`): a ColumnRef.
  PgQuery__Node* ColumnRef(const std::string& qualifier, const std::string& column);
  // A ResTarget of `val` named `name` (may be empty).
  PgQuery__Node* Target(PgQuery__Node* val, const std::string& name = {});
  // A RangeVar as a FROM item.
  PgQuery__Node* FromItem(PgQuery__RangeVar* range);
  // A List of `items` (a VALUES row).
  PgQuery__Node* List(const std::vector<PgQuery__Node*>& items);
  // A node array for a repeated field; `n` receives its size.
  PgQuery__Node** Array(const std::vector<PgQuery__Node*>& items, size_t& n);
  PgQuery__Node* SelectNode(PgQuery__SelectStmt* select);
  // `(select)` as a scalar subquery (an EXPR_SUBLINK) at `location`.
  PgQuery__Node* ScalarSubquery(PgQuery__SelectStmt* select, int location);
  // `items` ANDed (one item: itself; none: null).
  PgQuery__Node* And(const std::vector<PgQuery__Node*>& items);
  // `l = r`: an A_Expr.
  PgQuery__Node* Equals(PgQuery__Node* l, PgQuery__Node* r);

  // `name(args)`: a FuncCall.
  PgQuery__Node* FuncCall(const std::string& name, const std::vector<PgQuery__Node*>& args);
  // `call AS alias(columns)` as a FROM item.
  PgQuery__Node* RangeFunction(PgQuery__Node* call, const std::string& alias, const std::vector<std::string>& columns);
  // `LATERAL (select) AS alias` as a FROM item.
  PgQuery__Node* LateralSubselect(PgQuery__SelectStmt* select, const std::string& alias);
  // A WITH clause of `ctes` (CommonTableExpr nodes); null when there are none.
  PgQuery__WithClause* With(const std::vector<PgQuery__Node*>& ctes, bool recursive);
  // `select` seeing the queries of `with` too (WITH ... INSERT INTO t SELECT ...): a copy
  // whose WITH lists them before its own; `select` itself when `with` is null.
  const PgQuery__SelectStmt* SelectWithCtes(const PgQuery__SelectStmt* select, const PgQuery__WithClause* with);
  // A copy of CommonTableExpr `cte` whose query is `query`.
  PgQuery__Node* CteWithQuery(const PgQuery__CommonTableExpr* cte, PgQuery__Node* query);

  // Copies of statements (shallow: they share the original's children).
  PgQuery__SelectStmt* Copy(const PgQuery__SelectStmt& s) { return &selects_.emplace_back(s); }
  PgQuery__InsertStmt* Copy(const PgQuery__InsertStmt& s) { return &inserts_.emplace_back(s); }
  PgQuery__UpdateStmt* Copy(const PgQuery__UpdateStmt& s) { return &updates_.emplace_back(s); }
  PgQuery__DeleteStmt* Copy(const PgQuery__DeleteStmt& s) { return &deletes_.emplace_back(s); }

  PgQuery__SelectStmt* NewSelect();
  PgQuery__UpdateStmt* NewUpdate();
  PgQuery__DeleteStmt* NewDelete();
  PgQuery__InsertStmt* NewInsert();

 private:
  char* Text(const std::string& s);

  std::deque<std::string> texts_;
  std::deque<PgQuery__Node> nodes_;
  std::deque<PgQuery__String> strings_;
  std::deque<PgQuery__ColumnRef> refs_;
  std::deque<PgQuery__ResTarget> targets_;
  std::deque<PgQuery__List> lists_;
  std::deque<PgQuery__BoolExpr> bools_;
  std::deque<PgQuery__AExpr> a_exprs_;
  std::deque<PgQuery__FuncCall> calls_;
  std::deque<PgQuery__RangeFunction> range_functions_;
  std::deque<PgQuery__RangeSubselect> range_subselects_;
  std::deque<PgQuery__Alias> aliases_;
  std::deque<PgQuery__WithClause> withs_;
  std::deque<PgQuery__CommonTableExpr> ctes_;
  std::deque<PgQuery__SelectStmt> selects_;
  std::deque<PgQuery__SubLink> sublinks_;
  std::deque<PgQuery__UpdateStmt> updates_;
  std::deque<PgQuery__DeleteStmt> deletes_;
  std::deque<PgQuery__InsertStmt> inserts_;
  std::vector<std::unique_ptr<PgQuery__Node*[]>> arrays_;
};

}  // namespace caracal::planner
