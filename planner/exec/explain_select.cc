#include "planner/binder/select_binder.h"
#include "planner/exec/explain_select.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "planner/analysis/expr_render.h"
#include "planner/binder/query_binder.h"
#include "planner/exec/explain_query.h"
#include "planner/exec/plan_text.h"
#include "planner/exec/select_exec.h"
#include "planner/types/sql_error.h"
#include "planner/catalog/system_views.h"

namespace caracal::planner {

namespace {

}  // namespace

std::string SortKeyText(std::string expr, const SortKey& k) {
  if (k.descending) expr += " DESC";
  if (k.nulls_first != k.descending) expr += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  return expr;
}

std::string RenderAggregate(const AggregateSpec& a, const RenderNames& names) {
  std::string args = a.arg ? RenderExpr(*a.arg, names) : "*";
  if (a.delimiter) args += ", " + RenderExpr(*a.delimiter, names);
  std::string call = fmt::format("{}({}{})", AggregateName(a.func), a.distinct ? "DISTINCT " : "", args);
  return a.filter ? fmt::format("{} FILTER (WHERE {})", call, RenderExpr(*a.filter, names)) : call;
}

void ExplainScan(PlanText& out, const TableInfo& table, const std::string& on, const AccessPath& path, const Expr* filter,
                 const RenderNames& names) {
  auto render = [&](const Expr& e) { return RenderExpr(e, names); };
  std::string cond;
  auto add = [&](const std::string& c) { cond += (cond.empty() ? "" : " AND ") + c; };
  for (size_t i = 0; i < path.prefix.size(); ++i)
    add(fmt::format("({} = {})", table.columns[static_cast<size_t>(path.key_columns[i])].name, render(*path.prefix[i])));
  if (path.prefix.size() < path.key_columns.size()) {
    const std::string& next = table.columns[static_cast<size_t>(path.key_columns[path.prefix.size()])].name;
    if (path.lower) add(fmt::format("({} {} {})", next, path.lower->inclusive ? ">=" : ">", render(*path.lower->value)));
    if (path.upper) add(fmt::format("({} {} {})", next, path.upper->inclusive ? "<=" : "<", render(*path.upper->value)));
  }
  switch (path.kind) {
    case AccessPath::Kind::kFullScan:
      out.Node(IsSystemView(table) ? "Function Scan on " + on : "Seq Scan on " + on);
      break;
    case AccessPath::Kind::kPointRead:
      out.Node("Primary Key Lookup on " + on);
      out.Detail("Key Cond: " + cond);
      break;
    case AccessPath::Kind::kRangeScan:
      out.Node("Primary Key Range Scan on " + on);
      out.Detail("Key Cond: " + cond);
      break;
    case AccessPath::Kind::kIndexScan:
      out.Node(fmt::format("Index Scan using {} on {}", table.indexes.at(static_cast<size_t>(path.index)), on));
      out.Detail("Index Cond: " + cond);
      break;
  }
  if (filter) out.Detail("Filter: " + Parenthesized(render(*filter)));
}

ResultSet ExplainSelect(const SelectPlan& plan) {
  RenderNames names;
  names.table = plan.table;
  names.other_slot = [&](const Slot& slot) -> std::string {
    if (slot.space == SlotSpace::kGroupKey) return RenderExpr(*plan.group_by.at(static_cast<size_t>(slot.index)), names);
    if (slot.space == SlotSpace::kAggregate) return RenderAggregate(plan.aggregates.at(static_cast<size_t>(slot.index)), names);
    return "?";
  };
  auto render = [&](const Expr& e) { return RenderExpr(e, names); };

  PlanText out;
  if (plan.limit || plan.offset) out.Node("Limit");
  // As RunSelect: rows that stream in the path's order need no sort; DISTINCT collects
  // them, and collected rows are sorted.
  if (!plan.sort.empty() && (plan.distinct || !SortFollowsAccessPath(plan))) {
    out.Node("Sort");
    std::string keys;
    for (const SortKey& k : plan.sort) {
      if (!keys.empty()) keys += ", ";
      keys += SortKeyText(render(*plan.outputs.at(static_cast<size_t>(k.output))), k);
    }
    out.Detail("Sort Key: " + keys);
  }
  if (plan.distinct) out.Node("Unique");
  if (plan.grouped) {
    out.Node(plan.group_by.empty() ? "Aggregate" : "GroupAggregate");
    if (!plan.group_by.empty()) {
      std::string keys;
      for (const auto& g : plan.group_by) keys += (keys.empty() ? "" : ", ") + render(*g);
      out.Detail("Group Key: " + keys);
    }
    if (plan.having) out.Detail("Filter: " + Parenthesized(render(*plan.having)));
  }

  if (!plan.table) {
    out.Node("Result");
  } else {
    const std::string on = plan.table_ref == plan.table->name ? plan.table->name
                                                              : plan.table->name + " " + plan.table_ref;
    // With an exact key range only the residual is checked per row (see SelectPlan).
    const Expr* filter = plan.has_residual ? plan.residual.get() : plan.where.get();
    ExplainScan(out, *plan.table, on, plan.access, filter, names);
  }

  ResultSet result;
  result.columns.push_back(ResultColumn{"QUERY PLAN", SqlType::Of(TypeId::kText)});
  for (const std::string& line : out.lines()) result.rows.push_back({line});
  return result;
}

void CheckExplainOptions(const PgQuery__ExplainStmt* stmt) {
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    const std::string name = d->defname;
    // A boolean option's value: absent means on.
    auto enabled = [&] {
      if (!d->arg) return true;
      if (d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN) return static_cast<bool>(d->arg->boolean->boolval);
      if (d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER) return d->arg->integer->ival != 0;
      if (d->arg->node_case == PG_QUERY__NODE__NODE_STRING) {
        std::string v = d->arg->string->sval;
        if (v == "on" || v == "true") return true;
        if (v == "off" || v == "false") return false;
      }
      throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("{} requires a Boolean value", name), d->location);
    };
    if (name == "analyze") {
      if (enabled()) throw SqlError(sqlstate::kFeatureNotSupported, "EXPLAIN ANALYZE is not supported yet", d->location);
    } else if (name == "format") {
      std::string format = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING ? d->arg->string->sval : "";
      if (format != "text")
        throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("EXPLAIN format \"{}\" is not supported yet", format),
                       d->location);
    } else if (name == "verbose" || name == "costs" || name == "settings" || name == "buffers" || name == "wal" ||
               name == "timing" || name == "summary") {
      enabled();  // accepted; there is nothing to add or leave out
    } else {
      throw SqlError(sqlstate::kSyntaxError, fmt::format("unrecognized EXPLAIN option \"{}\"", name), d->location);
    }
  }
}

ResultSet ExplainQuery(const PgQuery__Node* query, const Catalog& catalog, const TableRowEstimator& estimate) {
  if (query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw SqlError(sqlstate::kFeatureNotSupported, "EXPLAIN of this kind of statement is not supported yet")
        .WithHint("EXPLAIN explains SELECT, INSERT, UPDATE and DELETE; EXPLAIN CALL name(args) a call.");
  if (NeedsQueryPlanner(query->select_stmt, catalog)) return ExplainQueryPlan(PlanQuery(query->select_stmt, catalog, estimate));
  return ExplainSelect(PlanSelect(query->select_stmt, catalog));
}

}  // namespace caracal::planner
