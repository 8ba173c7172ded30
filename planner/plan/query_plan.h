// QueryPlan: a bound query of any shape (joins, subqueries, CTEs, set operations, window
// functions, VALUES, functions in FROM) as a tree of QueryNodes that exec/query_exec runs
// and exec/explain_query prints. Single-table SELECTs keep their SelectPlan (select_plan.h),
// which procedures compile; this plan is interpreted.
//
// Every node hands its parent *tuples*: vectors of Datums of `types.size()` columns.
// Expressions evaluated at a node read their input tuple as kTuple slots (positions in it),
// the correlation values given to the (sub)query as kOuter slots, and, in a scan's filter,
// the table row as kColumn slots. A node that runs once per row of a join's left input (an
// index nested loop's scan, a LATERAL subquery, a function over columns to its left) also
// reads that left tuple as kTuple slots.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"
#include "planner/plan/access_path.h"
#include "planner/plan/select_plan.h"

namespace caracal::planner {

struct QueryNode;
using QueryNodePtr = std::unique_ptr<QueryNode>;

enum class QueryNodeKind : uint8_t {
  kResult,         // one empty tuple (SELECT without FROM)
  kScan,           // a table's rows (access path, filter), its `columns`
  kValues,         // `rows` of expressions
  kFunctionScan,   // generate_series / unnest over `args`, [WITH ORDINALITY]
  kSubqueryScan,   // children[0]'s first types.size() columns, run with `params`
  kCteScan,        // CTE `cte`, materialized on first use
  kWorkTableScan,  // the rows of recursive CTE `cte`'s previous iteration
  kJoin,           // children[0] (left) joined with children[1] (right)
  kFilter,         // children[0]'s tuples for which `condition` is true
  kAggregate,      // group keys then aggregate values, one tuple per group
  kWindow,         // children[0]'s tuples, each with its window function values appended
  kProject,        // `exprs` over children[0]'s tuples
  kDistinct,       // the first tuple of each set equal in `distinct_keys` (all columns if empty)
  kSort,           // `sort` keys (positions in the tuple)
  kLimit,          // OFFSET `offset` LIMIT `limit`
  kSetOp,          // UNION / INTERSECT / EXCEPT [ALL] of children[0] and children[1]
  kRecursiveUnion, // WITH RECURSIVE: children[0], then children[1] until it adds nothing
  kProjectSet,     // children[0]'s tuples, each repeated for the rows of `set_functions`
                   // (one column each, NULL past a shorter one's end; none when all are empty)
};

enum class JoinKind : uint8_t { kInner, kLeft, kFull };  // RIGHT joins are LEFT joins swapped
enum class JoinMethod : uint8_t {
  kNestedLoop,       // the right side materialized once (or run per left tuple: `parameterized`)
  kHash,             // a hash table of the right side on `right_keys`, probed with `left_keys`
  kIndexNestedLoop,  // the right side is a scan whose key the left tuple binds
};
enum class SetOpKind : uint8_t { kUnion, kIntersect, kExcept };
enum class TableFunction : uint8_t { kGenerateSeries, kUnnest };

// A set-returning function in a select list (one column).
struct SetFunctionCall {
  TableFunction function = TableFunction::kGenerateSeries;
  std::vector<ExprPtr> args;  // over the input tuple
};

struct WindowSpec {
  std::vector<ExprPtr> partition_by;  // over the input tuple
  std::vector<ExprPtr> order_by;
  std::vector<SortKey> order;  // `output` indexes order_by
  // ROWS/RANGE frame: the default (RANGE UNBOUNDED PRECEDING .. CURRENT ROW, peers
  // included) or the whole partition (`whole_partition`: no ORDER BY, or an explicit
  // UNBOUNDED FOLLOWING frame), or ROWS with offsets.
  bool rows_mode = false;
  bool whole_partition = false;
  int64_t start_offset = INT64_MIN;  // ROWS: relative to the current row; INT64_MIN: unbounded
  int64_t end_offset = 0;            // INT64_MAX: unbounded
};

struct WindowCall {
  WindowFunc func = WindowFunc::kRowNumber;
  AggregateSpec agg;          // func == kAgg
  std::vector<ExprPtr> args;  // lag/lead/ntile/nth_value/first_value/last_value arguments
  int window = 0;             // index into QueryNode::windows
  SqlType type;
};

struct QueryNode {
  QueryNodeKind kind = QueryNodeKind::kResult;
  std::vector<SqlType> types;  // of the output tuple's columns
  std::vector<QueryNodePtr> children;
  // Correlation values: kSubqueryScan / kFunctionScan evaluate them over the left tuple of a
  // join (or the outer values) and run with them as their kOuter slots.
  std::vector<ExprPtr> params;
  // Runs once per left tuple of the join above (reads it as kTuple slots).
  bool parameterized = false;

  // Leaves: the FROM item's name and column names (EXPLAIN).
  std::string alias;
  std::vector<std::string> names;

  // kScan
  const TableInfo* table = nullptr;
  std::vector<int> columns;  // table columns in the output tuple, in order
  AccessPath access;
  ExprPtr filter;  // kColumn: the row; kTuple: the left tuple; null: none
  // When the key range resolves exactly, only `residual` needs checking (see SelectPlan).
  ExprPtr residual;
  bool has_residual = false;

  // kValues
  std::vector<std::vector<ExprPtr>> rows;

  // kFunctionScan
  TableFunction function = TableFunction::kGenerateSeries;
  std::vector<ExprPtr> args;  // over the left tuple / outer values
  bool ordinality = false;

  // kCteScan / kWorkTableScan / kRecursiveUnion
  int cte = -1;
  std::string cte_name;

  // kJoin
  JoinKind join = JoinKind::kInner;
  JoinMethod method = JoinMethod::kNestedLoop;
  ExprPtr condition;  // kJoin: over left ++ right; kFilter: over the input
  std::vector<ExprPtr> left_keys, right_keys;  // kHash: over each side's tuple
  bool build_left = false;                     // kHash, inner: the left side is hashed
  // kJoin: columns computed from each joined tuple and appended (a FULL JOIN's merged
  // USING columns: COALESCE(l.x, r.x)).
  std::vector<ExprPtr> computed;

  // kAggregate
  std::vector<ExprPtr> group_by;
  std::vector<AggregateSpec> aggregates;
  // GROUP BY GROUPING SETS / ROLLUP / CUBE: the group_by positions each set groups by (the
  // others are NULL in its rows); the sets' rows come in this order of sets for each
  // input row's first group. Empty: one set of every key (plain GROUP BY).
  std::vector<std::vector<int>> grouping_sets;

  // kWindow
  std::vector<WindowSpec> windows;
  std::vector<WindowCall> window_calls;

  // kProject
  std::vector<ExprPtr> exprs;

  // kProjectSet
  std::vector<SetFunctionCall> set_functions;

  // kDistinct (DISTINCT ON: the keys, over the input; empty: every column)
  std::vector<ExprPtr> distinct_keys;

  // kSort
  std::vector<SortKey> sort;  // `output`: a position in the tuple

  // kLimit
  ExprPtr limit, offset;

  // kSetOp / kRecursiveUnion
  SetOpKind set_op = SetOpKind::kUnion;
  bool all = false;
};

// A statement's plan: the tree, its subplans (kSubquery expressions' subplan indexes) and its
// CTEs (kCteScan's cte indexes), each a tree of the same kind.
struct QueryPlan {
  QueryNodePtr root;
  std::vector<OutputColumn> columns;  // the root's first columns.size() columns are the result
  std::vector<QueryNodePtr> subplans;
  std::vector<bool> subplan_correlated;  // runs with correlation values (no caching)
  struct Cte {
    std::string name;
    QueryNodePtr plan;
    bool recursive = false;
  };
  std::vector<Cte> ctes;
  std::vector<std::vector<OutputColumn>> cte_columns;  // while binding: each CTE's columns
};

// Calls fn(ExprT&) for every expression of `plan`: its nodes', its subplans' and its CTEs'
// (a scan's access path values are pointers into its filter, so they are covered). For
// analyses that ask what a query reads (its kVariable slots) or whether it may raise.
template <typename NodeT, typename F>
void ForEachNodeExpr(NodeT& node, F&& fn) {
  auto one = [&](auto& p) {
    if (p) fn(*p);
  };
  auto all = [&](auto& v) {
    for (auto& e : v) one(e);
  };
  auto aggregate = [&](auto& a) {
    one(a.arg);
    one(a.filter);
    one(a.delimiter);
  };
  all(node.params);
  one(node.filter);
  one(node.residual);
  for (auto& row : node.rows) all(row);
  all(node.args);
  one(node.condition);
  all(node.left_keys);
  all(node.right_keys);
  all(node.computed);
  all(node.group_by);
  for (auto& a : node.aggregates) aggregate(a);
  for (auto& w : node.windows) {
    all(w.partition_by);
    all(w.order_by);
  }
  for (auto& c : node.window_calls) {
    aggregate(c.agg);
    all(c.args);
  }
  all(node.exprs);
  for (auto& f : node.set_functions) all(f.args);
  all(node.distinct_keys);
  one(node.limit);
  one(node.offset);
  for (auto& child : node.children) ForEachNodeExpr(*child, fn);
}

template <typename PlanT, typename F>
void ForEachQueryExpr(PlanT& plan, F&& fn) {
  if (plan.root) ForEachNodeExpr(*plan.root, fn);
  for (auto& sub : plan.subplans) ForEachNodeExpr(*sub, fn);
  for (auto& cte : plan.ctes)
    if (cte.plan) ForEachNodeExpr(*cte.plan, fn);
}

// The tables `plan` reads (its scans', its subplans' and CTEs'), each once, in plan order.
std::vector<const TableInfo*> TablesRead(const QueryPlan& plan);
// Their names, comma-separated ("" when it reads none), as EXPLAIN PROCEDURE lists them.
std::string TableNamesRead(const QueryPlan& plan);

}  // namespace caracal::planner
