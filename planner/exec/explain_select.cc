#include "planner/binder/select_binder.h"
#include "planner/exec/explain_select.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "planner/analysis/expr_render.h"
#include "planner/exec/plan_text.h"
#include "planner/exec/select_exec.h"
#include "planner/types/sql_error.h"
#include "planner/catalog/system_views.h"

namespace caracal::planner {

namespace {

const char* AggName(AggFunc f) {
  switch (f) {
    case AggFunc::kCountStar:
    case AggFunc::kCount: return "count";
    case AggFunc::kSum: return "sum";
    case AggFunc::kMin: return "min";
    case AggFunc::kMax: return "max";
    case AggFunc::kAvg: return "avg";
    case AggFunc::kArrayAgg: return "array_agg";
    case AggFunc::kStringAgg: return "string_agg";
    case AggFunc::kBoolAnd: return "bool_and";
    case AggFunc::kBoolOr: return "bool_or";
  }
  return "?";
}

}  // namespace

ResultSet ExplainSelect(const SelectPlan& plan) {
  RenderNames names;
  names.table = plan.table;
  names.other_slot = [&](const Slot& slot) -> std::string {
    if (slot.space == SlotSpace::kGroupKey) return RenderExpr(*plan.group_by.at(static_cast<size_t>(slot.index)), names);
    if (slot.space == SlotSpace::kAggregate) {
      const AggregateSpec& a = plan.aggregates.at(static_cast<size_t>(slot.index));
      std::string call = a.arg ? fmt::format("{}({}{})", AggName(a.func), a.distinct ? "DISTINCT " : "", RenderExpr(*a.arg, names))
                               : std::string("count(*)");
      return a.filter ? fmt::format("{} FILTER (WHERE {})", call, RenderExpr(*a.filter, names)) : call;
    }
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
      keys += render(*plan.outputs.at(static_cast<size_t>(k.output)));
      if (k.descending) keys += " DESC";
      if (k.nulls_first != k.descending) keys += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
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
    const AccessPath& path = plan.access;
    std::string cond;
    auto add = [&](const std::string& c) { cond += (cond.empty() ? "" : " AND ") + c; };
    for (size_t i = 0; i < path.prefix.size(); ++i)
      add(fmt::format("({} = {})", plan.table->columns[static_cast<size_t>(path.key_columns[i])].name, render(*path.prefix[i])));
    if (path.prefix.size() < path.key_columns.size()) {
      const std::string& next = plan.table->columns[static_cast<size_t>(path.key_columns[path.prefix.size()])].name;
      if (path.lower) add(fmt::format("({} {} {})", next, path.lower->inclusive ? ">=" : ">", render(*path.lower->value)));
      if (path.upper) add(fmt::format("({} {} {})", next, path.upper->inclusive ? "<=" : "<", render(*path.upper->value)));
    }
    switch (path.kind) {
      case AccessPath::Kind::kFullScan:
        out.Node(IsSystemView(*plan.table) ? "Function Scan on " + on : "Seq Scan on " + on);
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
        out.Node(fmt::format("Index Scan using {} on {}", plan.table->indexes.at(static_cast<size_t>(path.index)), on));
        out.Detail("Index Cond: " + cond);
        break;
    }
    // With an exact key range only the residual is checked per row (see SelectPlan).
    const Expr* filter = plan.has_residual ? plan.residual.get() : plan.where.get();
    if (filter) out.Detail("Filter: " + Parenthesized(render(*filter)));
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

ResultSet ExplainQuery(const PgQuery__Node* query, const Catalog& catalog) {
  if (query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw SqlError(sqlstate::kFeatureNotSupported, "EXPLAIN of this kind of statement is not supported yet")
        .WithHint("EXPLAIN explains SELECT, INSERT, UPDATE and DELETE; EXPLAIN CALL name(args) a call.");
  return ExplainSelect(PlanSelect(query->select_stmt, catalog));
}

}  // namespace caracal::planner
