// QueryBlock: the binder's state for one SELECT block (internal to query_binder.cc and
// join_planner.cc). Every column a block can read - a table's, a subquery's, a function's,
// a USING join's merged column, later a group key, an aggregate or a window function's
// value - gets a block-wide *id*; bound expressions read it as Slot{kTuple, id}. Planning
// then lays the ids out in each node's tuple and rewrites the slots to positions.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/binder/expr_binder.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/query_plan.h"

struct PgQuery__SelectStmt;

namespace caracal::planner {

class QueryBuilder;

// A name a FROM item offers: `alias.name`, and `name` unless hidden (a column a USING join
// merged: only the merged column answers to the bare name).
struct RangeColumn {
  std::string name;
  int id = -1;
  bool hidden = false;
};

struct RangeEntry {
  std::string alias;  // empty: not qualifiable (a join's merged USING columns)
  std::vector<RangeColumn> columns;
};

// A FROM item that produces tuples itself: a table (scanned at planning time, when its
// filter is known) or a prepared node (subquery, VALUES, function, CTE).
struct FromLeaf {
  const TableInfo* table = nullptr;
  std::string alias;
  QueryNodePtr node;     // non-table leaves
  std::vector<int> ids;  // the ids of its columns: a table's in schema order, else the node's
  bool lateral = false;  // `node` reads columns of leaves to its left (its params)
};

// The FROM clause as written: a leaf, or a join of two subtrees.
struct FromTree {
  int leaf = -1;
  JoinKind kind = JoinKind::kInner;
  std::unique_ptr<FromTree> left, right;
  ExprPtr quals;                                   // ON, over ids; null: none (CROSS)
  std::vector<std::pair<int, ExprPtr>> computed;   // FULL JOIN USING: id := COALESCE(l, r)
  std::vector<int> leaves;                         // every leaf below
};

// How the planner estimates a table's size (rows); may be empty: every table counts 1000.
using TableRowEstimator = std::function<size_t(const TableInfo&)>;

class QueryBlock;

// A subquery's link to the block around it: the ranges [0, visible) of `parent` it may
// read, and the values it reads there (in the parent's ids), which it sees as kOuter 0..n-1.
// Every block of the subquery (the arms of a UNION) shares it.
struct Frame {
  QueryBlock* parent = nullptr;
  int visible = 0;
  std::vector<ExprPtr> params;
};

// The CTEs in scope: a WITH clause's, then those around it.
struct CteScope {
  const CteScope* parent = nullptr;
  std::vector<std::pair<std::string, int>> ctes;  // name -> QueryPlan::ctes index
  // A recursive CTE's own name while its recursive arm is bound: a work table scan.
  struct WorkTable {
    std::string name;
    int cte = -1;
    std::vector<std::string> names;
    std::vector<SqlType> types;
  };
  std::optional<WorkTable> work_table;
};

class QueryBlock : public NameScope, public SubqueryBinder {
 public:
  // `frame` (null at the top): the link to the block around this one; `outer`: names
  // beyond the query (a procedure's variables; may be null); `ctes`: the CTEs in scope.
  QueryBlock(QueryBuilder& builder, Frame* frame, const NameScope* outer, const CteScope* ctes)
      : builder(builder), frame(frame), outer(outer), cte_scope{ctes, {}, std::nullopt} {}

  // NameScope
  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override;
  std::optional<NameBinding> LookupParameter(int number, int location) const override;
  std::optional<Slot> NowSlot() const override { return outer ? outer->NowSlot() : std::nullopt; }
  std::optional<RecordBinding> LookupRecord(const std::string& name) const override;
  int LowerBound(const Slot& slot) const override;
  // SubqueryBinder
  SubqueryBinder::Bound BindSubquery(const PgQuery__Node* select, int location) override;
  void CoerceColumn(int subplan, size_t column, const SqlType& type) override;
  ExprPtr BindWindowCall(const PgQuery__FuncCall* f, ExprBinder& binder) override;
  ExprPtr BindSetReturningCall(const PgQuery__FuncCall* f, ExprBinder& binder) override;

  // A new id of `type`, named `qualifier.name` in grouping errors.
  int NewId(const SqlType& type, std::string qualifier, std::string name);
  const SqlType& IdType(int id) const { return id_types_[id]; }
  const std::string& IdName(int id) const { return id_names_[id]; }
  size_t id_count() const { return id_types_.size(); }

  // Resolution with the ranges [0, visible) of this block.
  std::optional<NameBinding> Resolve(std::span<const std::string> names, int location, int visible) const;

  QueryBuilder& builder;
  Frame* frame;
  const NameScope* outer;
  CteScope cte_scope;  // this block's WITH (parent: the CTEs around it)
  std::vector<RangeEntry> ranges;
  std::vector<FromLeaf> leaves;
  std::vector<int> id_leaf;  // the leaf that produces an id (-1: computed above the scans)
  // Window function calls of the target list / ORDER BY (kWindowRef subplan = index).
  std::vector<WindowCall> window_calls;
  std::vector<WindowSpec> window_specs;
  // Set-returning functions of the select list, and the ids of their columns.
  std::vector<SetFunctionCall> set_functions;
  std::vector<int> set_function_ids;
  const PgQuery__SelectStmt* stmt = nullptr;  // for named windows (WINDOW w AS ...)

 private:
  std::vector<SqlType> id_types_;
  std::vector<std::string> id_names_;
};

// Plans the FROM clause and WHERE conjuncts (over ids) into one node; `layout` receives the
// id at each position of the node's tuple. Only ids in `used` need to come out of a scan.
QueryNodePtr PlanFrom(QueryBlock& block, std::vector<std::unique_ptr<FromTree>> items, std::vector<ExprPtr> conjuncts,
                      const std::vector<bool>& used, const TableRowEstimator& estimate, std::vector<int>& layout);

// `e` with each kTuple id replaced by its position in `layout`. Throws if one is missing.
ExprPtr RemapToLayout(ExprPtr e, const std::vector<int>& layout);

// Marks in `used` every id `e` reads.
void MarkUsed(const Expr& e, std::vector<bool>& used);

}  // namespace caracal::planner
