#include "planner/plan/query_plan.h"

#include <algorithm>

namespace caracal::planner {

namespace {

void CollectTables(const QueryNode& node, std::vector<const TableInfo*>& out) {
  if (node.kind == QueryNodeKind::kScan && node.table && std::ranges::find(out, node.table) == out.end())
    out.push_back(node.table);
  for (const QueryNodePtr& child : node.children) CollectTables(*child, out);
}

}  // namespace

std::vector<const TableInfo*> TablesRead(const QueryPlan& plan) {
  std::vector<const TableInfo*> out;
  if (plan.root) CollectTables(*plan.root, out);
  for (const QueryNodePtr& sub : plan.subplans) CollectTables(*sub, out);
  for (const QueryPlan::Cte& cte : plan.ctes)
    if (cte.plan) CollectTables(*cte.plan, out);
  return out;
}

std::string TableNamesRead(const QueryPlan& plan) {
  std::string names;
  for (const TableInfo* t : TablesRead(plan)) names += (names.empty() ? "" : ", ") + t->name;
  return names;
}

}  // namespace caracal::planner
