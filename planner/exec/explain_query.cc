#include "planner/exec/explain_query.h"

#include <fmt/format.h>

#include "planner/analysis/expr_render.h"
#include "planner/exec/explain_select.h"
#include "planner/exec/plan_text.h"

namespace caracal::planner {

namespace {

using Names = std::vector<std::string>;

const char* WindowFunctionName(WindowFunc f) {
  switch (f) {
    case WindowFunc::kRowNumber: return "row_number";
    case WindowFunc::kRank: return "rank";
    case WindowFunc::kDenseRank: return "dense_rank";
    case WindowFunc::kLag: return "lag";
    case WindowFunc::kLead: return "lead";
    case WindowFunc::kFirstValue: return "first_value";
    case WindowFunc::kLastValue: return "last_value";
    case WindowFunc::kNtile: return "ntile";
    case WindowFunc::kPercentRank: return "percent_rank";
    case WindowFunc::kCumeDist: return "cume_dist";
    case WindowFunc::kNthValue: return "nth_value";
    case WindowFunc::kAgg: return "aggregate";
  }
  return "?";
}

class Explainer {
 public:
  explicit Explainer(const QueryPlan& plan) : plan_(plan) {}

  std::vector<std::string> Lines() {
    Explain(*plan_.root, nullptr, {});
    for (size_t i = 0; i < plan_.ctes.size(); ++i) Section(fmt::format("CTE {}", plan_.ctes[i].name), *plan_.ctes[i].plan);
    for (size_t i = 0; i < plan_.subplans.size(); ++i) Section(fmt::format("SubPlan {}", i + 1), *plan_.subplans[i]);
    return out_.lines();
  }

 private:
  void Section(const std::string& title, const QueryNode& node) {
    out_.set_depth(1);
    out_.Detail(title);
    out_.set_depth(1);
    Explain(node, nullptr, {});
  }

  // `names` reads kTuple slots from `tuple` (and a scan's kColumn slots from its table).
  RenderNames NamesFor(const Names& tuple, const TableInfo* table = nullptr) const {
    RenderNames names;
    names.table = table;
    names.other_slot = [tuple](const Slot& s) -> std::string {
      if (s.space == SlotSpace::kTuple && static_cast<size_t>(s.index) < tuple.size()) return tuple[static_cast<size_t>(s.index)];
      if (s.space == SlotSpace::kOuter) return fmt::format("${}", s.index + 1);
      return "?";
    };
    return names;
  }
  std::string Render(const Expr& e, const Names& tuple) const { return RenderExpr(e, NamesFor(tuple)); }

  // The column names of `node`'s output tuple.
  Names OutputNames(const QueryNode& node) const {
    Names out;
    auto leaf = [&](const std::vector<std::string>& columns) {
      for (const auto& c : columns) out.push_back(node.alias.empty() ? c : node.alias + "." + c);
    };
    switch (node.kind) {
      case QueryNodeKind::kResult: break;
      case QueryNodeKind::kScan:
        for (int c : node.columns) out.push_back(node.alias + "." + node.table->columns[static_cast<size_t>(c)].name);
        break;
      case QueryNodeKind::kValues:
        for (size_t c = 0; c < node.types.size(); ++c) out.push_back(fmt::format("\"*VALUES*\".column{}", c + 1));
        break;
      case QueryNodeKind::kFunctionScan:
      case QueryNodeKind::kSubqueryScan:
      case QueryNodeKind::kCteScan:
      case QueryNodeKind::kWorkTableScan: leaf(node.names); break;
      case QueryNodeKind::kJoin: {
        out = OutputNames(*node.children[0]);
        Names r = OutputNames(*node.children[1]);
        out.insert(out.end(), r.begin(), r.end());
        const Names joined = out;
        for (const auto& c : node.computed) out.push_back(Render(*c, joined));
        break;
      }
      case QueryNodeKind::kAggregate: {
        Names in = OutputNames(*node.children[0]);
        for (const auto& g : node.group_by) out.push_back(Render(*g, in));
        for (const auto& a : node.aggregates) out.push_back(RenderAggregate(a, NamesFor(in)));
        break;
      }
      case QueryNodeKind::kProjectSet:
        out = OutputNames(*node.children[0]);
        for (const SetFunctionCall& f : node.set_functions)
          out.push_back(f.function == TableFunction::kUnnest ? "unnest(...)" : "generate_series(...)");
        break;
      case QueryNodeKind::kWindow: {
        out = OutputNames(*node.children[0]);
        for (const WindowCall& c : node.window_calls)
          out.push_back(c.func == WindowFunc::kAgg ? RenderAggregate(c.agg, NamesFor(OutputNames(*node.children[0])))
                                                   : fmt::format("{}()", WindowFunctionName(c.func)));
        break;
      }
      case QueryNodeKind::kProject: {
        Names in = OutputNames(*node.children[0]);
        for (const auto& e : node.exprs) out.push_back(Render(*e, in));
        break;
      }
      default: out = OutputNames(*node.children[0]);
    }
    return out;
  }

  void Children(const QueryNode& node) {
    const int depth = out_.depth();
    for (const auto& c : node.children) {
      out_.set_depth(depth);
      Explain(*c, nullptr, {});
    }
  }

  // Prints `node` (and `extra` details under it: a Filter node's condition).
  void Explain(const QueryNode& node, const Names* left, const std::vector<std::string>& extra) {
    auto details = [&] {
      for (const auto& d : extra) out_.Detail(d);
    };
    switch (node.kind) {
      case QueryNodeKind::kResult:
        out_.Node("Result");
        details();
        return;
      case QueryNodeKind::kScan: {
        const std::string on = node.alias == node.table->name ? node.table->name : node.table->name + " " + node.alias;
        const Expr* filter = node.has_residual ? node.residual.get() : node.filter.get();
        ExplainScan(out_, *node.table, on, node.access, filter, NamesFor(left ? *left : Names{}, node.table));
        details();
        return;
      }
      case QueryNodeKind::kValues:
        out_.Node("Values Scan on \"*VALUES*\"");
        details();
        return;
      case QueryNodeKind::kFunctionScan:
        out_.Node(fmt::format("Function Scan on {} {}", node.function == TableFunction::kUnnest ? "unnest" : "generate_series",
                              node.alias));
        details();
        return;
      case QueryNodeKind::kSubqueryScan:
        out_.Node("Subquery Scan on " + node.alias);
        details();
        Children(node);
        return;
      case QueryNodeKind::kCteScan:
        out_.Node(fmt::format("CTE Scan on {}{}", node.cte_name, node.alias == node.cte_name ? "" : " " + node.alias));
        details();
        return;
      case QueryNodeKind::kWorkTableScan:
        out_.Node(fmt::format("WorkTable Scan on {}{}", node.cte_name, node.alias == node.cte_name ? "" : " " + node.alias));
        details();
        return;
      case QueryNodeKind::kJoin: {
        const char* kind = node.join == JoinKind::kLeft ? " Left Join" : node.join == JoinKind::kFull ? " Full Join" : "";
        Names joined = OutputNames(*node.children[0]);
        const Names left_names = joined;
        Names right_names = OutputNames(*node.children[1]);
        joined.insert(joined.end(), right_names.begin(), right_names.end());
        if (node.method == JoinMethod::kHash) {
          out_.Node(fmt::format("Hash{}", *kind ? kind : " Join"));
          std::string cond;
          for (size_t i = 0; i < node.left_keys.size(); ++i)
            cond += fmt::format("{}({} = {})", i ? " AND " : "", Render(*node.left_keys[i], left_names),
                                Render(*node.right_keys[i], right_names));
          out_.Detail("Hash Cond: " + (node.left_keys.size() > 1 ? "(" + cond + ")" : cond));
        } else {
          out_.Node(fmt::format("Nested Loop{}", kind));
        }
        if (node.condition) out_.Detail("Join Filter: " + Parenthesized(Render(*node.condition, joined)));
        details();
        const int depth = out_.depth();
        if (node.build_left) out_.Node("Hash");
        Explain(*node.children[0], nullptr, {});
        out_.set_depth(depth);
        if (node.method == JoinMethod::kHash && !node.build_left) out_.Node("Hash");
        Explain(*node.children[1], node.children[1]->parameterized ? &left_names : nullptr, {});
        return;
      }
      case QueryNodeKind::kFilter: {
        Names in = OutputNames(*node.children[0]);
        std::vector<std::string> more = extra;
        more.push_back("Filter: " + Parenthesized(Render(*node.condition, in)));
        Explain(*node.children[0], left, more);
        return;
      }
      case QueryNodeKind::kAggregate: {
        Names in = OutputNames(*node.children[0]);
        if (!node.grouping_sets.empty()) {
          // PostgreSQL's hashed grouping sets: one Group Key line per set.
          out_.Node("MixedAggregate");
          for (const std::vector<int>& set : node.grouping_sets) {
            std::string keys;
            for (int k : set) keys += (keys.empty() ? "" : ", ") + Render(*node.group_by[static_cast<size_t>(k)], in);
            out_.Detail(keys.empty() ? "Group Key: ()" : "Hash Key: " + keys);
          }
        } else {
          out_.Node(node.group_by.empty() ? "Aggregate" : "HashAggregate");
        }
        if (node.grouping_sets.empty() && !node.group_by.empty()) {
          std::string keys;
          for (const auto& g : node.group_by) keys += (keys.empty() ? "" : ", ") + Render(*g, in);
          out_.Detail("Group Key: " + keys);
        }
        details();
        Children(node);
        return;
      }
      case QueryNodeKind::kWindow:
        out_.Node("WindowAgg");
        details();
        Children(node);
        return;
      case QueryNodeKind::kProject: Explain(*node.children[0], left, extra); return;
      case QueryNodeKind::kDistinct:
        out_.Node("Unique");
        details();
        Children(node);
        return;
      case QueryNodeKind::kSort: {
        Names in = OutputNames(node);
        out_.Node("Sort");
        std::string keys;
        for (const SortKey& k : node.sort)
          keys += (keys.empty() ? "" : ", ") + SortKeyText(in.at(static_cast<size_t>(k.output)), k);
        out_.Detail("Sort Key: " + keys);
        details();
        Children(node);
        return;
      }
      case QueryNodeKind::kLimit:
        out_.Node("Limit");
        details();
        Children(node);
        return;
      case QueryNodeKind::kSetOp: {
        if (node.set_op == SetOpKind::kUnion) {
          if (!node.all) out_.Node("HashAggregate");
          out_.Node("Append");
        } else {
          out_.Node(fmt::format("HashSetOp {}{}", node.set_op == SetOpKind::kIntersect ? "Intersect" : "Except",
                                node.all ? " All" : ""));
        }
        details();
        Children(node);
        return;
      }
      case QueryNodeKind::kProjectSet:
        out_.Node("ProjectSet");
        details();
        Children(node);
        return;
      case QueryNodeKind::kRecursiveUnion:
        out_.Node("Recursive Union");
        details();
        Children(node);
        return;
    }
  }

  const QueryPlan& plan_;
  PlanText out_;
};

}  // namespace

ResultSet ExplainQueryPlan(const QueryPlan& plan) {
  ResultSet result;
  result.columns.push_back(ResultColumn{"QUERY PLAN", SqlType::Of(TypeId::kText)});
  for (const std::string& line : Explainer(plan).Lines()) result.rows.push_back({line});
  return result;
}

}  // namespace caracal::planner
