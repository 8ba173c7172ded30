// SelectPlan: a bound ad-hoc SELECT over at most one table, read from the last committed
// snapshot. Binding resolves names and types, splits the query into its row stage
// (WHERE, over kColumn slots), its group stage (GROUP BY keys and aggregates; HAVING and
// the outputs then read kGroupKey/kAggregate slots) and its output stage (ORDER BY on
// output or hidden columns, OFFSET/LIMIT).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "planner/plan/access_path.h"
#include "planner/catalog/catalog.h"
#include "planner/expr/aggregate.h"
#include "planner/expr/expr.h"
#include "planner/expr/expr_eval.h"

namespace caracal::planner {

struct OutputColumn {
  std::string name;
  SqlType type;
};

struct SortKey {
  int output;  // index into SelectPlan::outputs
  bool descending = false;
  bool nulls_first = false;
};

struct AggregateSpec {
  AggFunc func;
  ExprPtr arg;     // over kColumn slots; null for count(*)
  SqlType type;    // result type
  bool distinct = false;  // agg(DISTINCT x)
  int8_t sort = 0;        // array_agg(x ORDER BY x [DESC]): 1 / -1; 0: input order
  ExprPtr filter;         // FILTER (WHERE filter), over kColumn slots; null: none
  ExprPtr delimiter;      // string_agg's second argument; null for the others
  // ORDER BY keys other than the value (Expr::order), over kColumn slots.
  std::vector<ExprPtr> order_keys;
  std::vector<uint8_t> order;

  // The aggregate a kAggRef calls (its argument, delimiter, keys and filter copied).
  static AggregateSpec Of(const Expr& aggref);
  // Whether `aggref` calls this very aggregate (one result serves both).
  bool Computes(const Expr& aggref) const;
  Accumulator NewAccumulator() const {
    Accumulator acc(func, arg ? arg->type : SqlType::Of(TypeId::kInt8), type, distinct, sort);
    if (!order.empty()) {
      std::vector<SqlType> key_types;
      for (const ExprPtr& k : order_keys) key_types.push_back(k->type);
      acc.OrderBy(order, std::move(key_types));
    }
    return acc;
  }
  // Adds the row `ctx` reads, if it passes the FILTER.
  void Feed(Accumulator& acc, const EvalContext& ctx) const {
    if (filter && !EvalCondition(*filter, ctx)) return;
    if (!order_keys.empty()) {
      std::vector<Datum> keys;
      keys.reserve(order_keys.size());
      for (const ExprPtr& k : order_keys) keys.push_back(Eval(*k, ctx));
      acc.AddOrdered(Eval(*arg, ctx), delimiter ? Eval(*delimiter, ctx) : Datum::Null(), std::move(keys));
    } else if (delimiter) {
      acc.AddDelimited(Eval(*arg, ctx), Eval(*delimiter, ctx));
    } else {
      acc.Add(arg ? Eval(*arg, ctx) : Datum::Bool(true));
    }
  }
};

struct SelectPlan {
  const TableInfo* table = nullptr;  // null: SELECT without FROM (one empty input row)
  std::string table_ref;             // alias or table name, for messages
  ExprPtr where;
  AccessPath access;
  // With has_residual: what of `where` a row must still satisfy when the access path's
  // range is exact (KeyRange::exact); null: nothing. Without it, `where` is checked whole.
  ExprPtr residual;
  bool has_residual = false;

  bool grouped = false;
  std::vector<ExprPtr> group_by;          // over kColumn slots
  std::vector<AggregateSpec> aggregates;  // over kColumn slots
  ExprPtr having;                         // over kGroupKey / kAggregate slots

  // Visible columns first (columns.size() of them), then hidden ORDER BY expressions.
  std::vector<ExprPtr> outputs;
  std::vector<OutputColumn> columns;
  std::vector<SortKey> sort;
  // SELECT DISTINCT: of rows equal in every output (NULLs equal), only the first is
  // kept, before ORDER BY, OFFSET and LIMIT. Every output is then visible.
  bool distinct = false;
  ExprPtr limit, offset;  // bigint, row-independent; null: none
};

}  // namespace caracal::planner
