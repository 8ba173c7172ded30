#include "planner/binder/generated_columns.h"

#include <algorithm>
#include <vector>

#include "planner/binder/check_constraints.h"
#include "planner/expr/expr_eval.h"

namespace caracal::planner {

namespace {

// `e` with its kColumn slots read from a frame of the row's Datums (kVariable slots).
void ColumnsAsVariables(Expr& e) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kColumn) e.slot.space = SlotSpace::kVariable;
  for (ExprPtr& a : e.args) ColumnsAsVariables(*a);
}

}  // namespace

bool ReadsColumn(const Expr& e, int column) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kColumn && e.slot.index == column) return true;
  return std::ranges::any_of(e.args, [&](const ExprPtr& a) { return ReadsColumn(*a, column); });
}

bool HasGeneratedColumns(const TableInfo& table) {
  return std::ranges::any_of(table.columns, [](const CatalogColumn& c) { return c.generated != nullptr; });
}

void ComputeGeneratedColumns(Stmt& s) {
  if (!s.table || !HasGeneratedColumns(*s.table)) return;
  const TableInfo& table = *s.table;
  if (s.kind == StmtKind::kInsert && !s.row_values.empty() && s.row_values[0]) {
    std::vector<const Expr*> values;
    for (const ExprPtr& v : s.row_values) values.push_back(v.get());
    std::vector<ExprPtr> computed(table.columns.size());
    for (size_t g = 0; g < table.columns.size(); ++g) {
      if (!table.columns[g].generated) continue;
      computed[g] = table.columns[g].generated->Clone();
      OverNewRow(*computed[g], values);
    }
    for (size_t g = 0; g < computed.size(); ++g)
      if (computed[g]) s.row_values[g] = std::move(computed[g]);
  }
  if ((s.kind == StmtKind::kUpdate || s.kind == StmtKind::kInsert) && !s.assignments.empty()) {
    // Assigned columns take their new values; the rest keep the row's.
    std::vector<const Expr*> values(table.columns.size(), nullptr);
    for (const auto& [c, v] : s.assignments) values[static_cast<size_t>(c)] = v.get();
    std::vector<std::pair<int, ExprPtr>> computed;
    for (size_t g = 0; g < table.columns.size(); ++g) {
      const CatalogColumn& col = table.columns[g];
      if (!col.generated) continue;
      const bool assigned = values[g] != nullptr;  // SET g = DEFAULT
      bool feeds = false;
      for (const auto& [c, v] : s.assignments) feeds = feeds || ReadsColumn(*col.generated, c);
      if (!assigned && !feeds) continue;
      ExprPtr e = col.generated->Clone();
      OverNewRow(*e, values);
      computed.emplace_back(static_cast<int>(g), std::move(e));
    }
    for (auto& [column, e] : computed) {
      const int g = column;  // clang before 16 cannot capture a structured binding
      auto it = std::ranges::find_if(s.assignments, [g](const auto& a) { return a.first == g; });
      if (it != s.assignments.end()) it->second = std::move(e);
      else s.assignments.emplace_back(g, std::move(e));
    }
  }
}

RowGenerator::RowGenerator(const TableInfo& table) {
  for (size_t g = 0; g < table.columns.size(); ++g) {
    if (!table.columns[g].generated) continue;
    ExprPtr e = table.columns[g].generated->Clone();
    ColumnsAsVariables(*e);
    columns_.emplace_back(static_cast<int>(g), std::move(e));
  }
}

void RowGenerator::Compute(std::span<Datum> row) const {
  EvalContext ctx;
  ctx.variables = row;
  for (const auto& [g, e] : columns_) row[static_cast<size_t>(g)] = Eval(*e, ctx);
}

}  // namespace caracal::planner
