#include "planner/binder/check_constraints.h"

#include "planner/binder/expr_binder.h"

namespace caracal::planner {

void OverNewRow(Expr& e, const std::vector<const Expr*>& new_values) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kColumn) {
    const Expr* v = new_values[static_cast<size_t>(e.slot.index)];
    if (v) e = std::move(*v->Clone());
    return;
  }
  for (auto& a : e.args) OverNewRow(*a, new_values);
}

namespace {

ExprPtr NewValue(const TableInfo& table, const std::vector<const Expr*>& new_values, size_t c) {
  if (new_values[c]) return new_values[c]->Clone();
  auto slot = MakeExpr(ExprKind::kSlot, table.columns[c].type, -1);
  slot->slot = Slot{SlotSpace::kColumn, static_cast<int>(c)};
  return slot;
}

ExprPtr Violation(const TableInfo& table, const CheckConstraint& check, const std::vector<const Expr*>& new_values,
                  const SqlType& type) {
  std::string flags, names;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    flags += table.columns[c].not_null ? '1' : '0';
    if (c) names += '\x1f';
    names += table.columns[c].name;
  }
  auto text = [](std::string s) { return MakeConst(Datum::String(std::move(s)), SqlType::Of(TypeId::kText)); };
  auto e = MakeExpr(ExprKind::kFunc, type, -1);
  e->func = Func::kCheckViolation;
  e->args.push_back(text(table.name));
  e->args.push_back(text(check.name));
  e->args.push_back(text(flags));
  e->args.push_back(text(names));
  for (size_t c = 0; c < table.columns.size(); ++c) e->args.push_back(OutputText(NewValue(table, new_values, c)));
  return e;
}

}  // namespace

bool IsGuard(const Expr& e) {
  return e.kind == ExprKind::kCase && e.args.size() > 1 && e.args[1]->kind == ExprKind::kFunc &&
         e.args[1]->func == Func::kCheckViolation;
}

const Expr& Unguarded(const Expr& e) { return IsGuard(e) ? *e.args.back() : e; }

void GuardStatement(Stmt& s) {
  if (!s.table || s.table->checks.empty()) return;
  if (s.kind == StmtKind::kInsert && !s.row_values.empty() && s.row_values[0] && !IsGuard(*s.row_values[0])) {
    std::vector<const Expr*> values;
    for (const ExprPtr& v : s.row_values) values.push_back(v.get());
    s.row_values[0] = GuardChecks(*s.table, values, std::move(s.row_values[0]));
  }
  if ((s.kind == StmtKind::kUpdate || s.kind == StmtKind::kInsert) && !s.assignments.empty() &&
      !IsGuard(*s.assignments[0].second)) {
    // Assigned columns take their new values; the rest keep the row's.
    std::vector<const Expr*> values(s.table->columns.size(), nullptr);
    for (const auto& [c, v] : s.assignments) values[static_cast<size_t>(c)] = v.get();
    s.assignments[0].second = GuardChecks(*s.table, values, std::move(s.assignments[0].second));
  }
}

ExprPtr GuardChecks(const TableInfo& table, const std::vector<const Expr*>& new_values, ExprPtr target) {
  if (table.checks.empty()) return target;
  const SqlType type = target->type;
  auto e = MakeExpr(ExprKind::kCase, type, target->location);
  for (const CheckConstraint& check : table.checks) {
    ExprPtr holds = check.expr->Clone();
    OverNewRow(*holds, new_values);
    auto fails = MakeExpr(ExprKind::kBoolTest, SqlType::Of(TypeId::kBool), -1);
    fails->op = Op::kNe;  // IS FALSE: NULL passes, as in PostgreSQL
    fails->args.push_back(std::move(holds));
    e->args.push_back(std::move(fails));
    e->args.push_back(Violation(table, check, new_values, type));
  }
  e->args.push_back(std::move(target));
  return e;
}

}  // namespace caracal::planner
