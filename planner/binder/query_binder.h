// PlanQuery: binds and plans a SELECT of any shape PostgreSQL allows that we support -
// joins of any kind and number, subqueries in expressions and in FROM (LATERAL too), WITH
// [RECURSIVE], UNION / INTERSECT / EXCEPT [ALL], VALUES, generate_series / unnest in FROM,
// DISTINCT ON, window functions - into a QueryPlan (plan/query_plan.h).
#pragma once

#include "planner/binder/query_block.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/query_plan.h"

struct PgQuery__SelectStmt;
struct ProtobufCMessage;

namespace caracal::planner {

class NameScope;

// Throws SqlError. `estimate` (may be empty) sizes tables for join ordering; `outer` (may
// be null) resolves names beyond the query (a procedure's variables).
QueryPlan PlanQuery(const PgQuery__SelectStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate = {},
                    const NameScope* outer = nullptr);

// The source query of INSERT ... SELECT, its columns converted to `targets` (name, type)
// by assignment, its untyped literals typed by them (42601 with more columns than targets);
// a target without a name leaves its column as it is.
QueryPlan PlanInsertSource(const PgQuery__SelectStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate,
                           const std::vector<std::pair<std::string, SqlType>>& targets, const NameScope* outer = nullptr);

// Whether `stmt` needs PlanQuery: more than one FROM item, a join, a subquery anywhere, a
// set operation, WITH, VALUES, a function or subquery in FROM, DISTINCT ON or a window
// function. A SELECT that does not is a SelectPlan's (select_binder.h).
bool NeedsQueryPlanner(const PgQuery__SelectStmt* stmt, const Catalog& catalog);
// Whether a subquery occurs anywhere in `stmt`.
bool ContainsSubquery(const PgQuery__SelectStmt* stmt);
// Whether a subquery occurs anywhere in the parse tree message `m`.
bool NodeContainsSubquery(const ProtobufCMessage* m);
// Whether the parse tree message `m` (any parse node) holds a node for which `match` is true.
bool ContainsNode(const ProtobufCMessage* m, const std::function<bool(const PgQuery__Node*)>& match);

// One statement's binding state: the plan being built (its subplans and CTEs).
class QueryBuilder {
 public:
  QueryBuilder(const Catalog& catalog, TableRowEstimator estimate) : catalog(catalog), estimate(std::move(estimate)) {}

  struct Bound {
    QueryNodePtr node;  // its tuples are exactly the output columns
    std::vector<OutputColumn> columns;
  };
  // Binds `stmt` as a (sub)query linked to the block around it by `frame` (null: the top).
  // `set_operand`: an arm of UNION / INTERSECT / EXCEPT (its untyped literals stay
  // untyped until the operation resolves the column's type).
  Bound BindSelect(const PgQuery__SelectStmt* stmt, Frame* frame, const NameScope* outer, const CteScope* ctes,
                   bool set_operand = false);

  const Catalog& catalog;
  TableRowEstimator estimate;
  QueryPlan plan;
  // The views being bound, outermost first: one met again reads itself (42P17).
  std::vector<std::string> views_binding;
};

}  // namespace caracal::planner
