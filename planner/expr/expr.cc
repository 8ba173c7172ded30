#include "planner/expr/expr.h"

#include <fmt/format.h>

namespace caracal::planner {

ExprPtr Expr::Clone() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = type;
  e->location = location;
  e->op = op;
  e->func = func;
  e->agg = agg;
  e->negated = negated;
  e->case_insensitive = case_insensitive;
  e->explicit_cast = explicit_cast;
  e->distinct = distinct;
  e->sort = sort;
  e->order = order;
  e->filtered = filtered;
  e->value = value;
  e->slot = slot;
  e->sublink = sublink;
  e->subplan = subplan;
  e->tested_values = tested_values;
  e->window_func = window_func;
  e->routine = routine;
  e->routine_name = routine_name;
  e->site = site;
  for (const auto& a : args) e->args.push_back(a->Clone());
  return e;
}

bool Expr::Equals(const Expr& o) const {
  if (kind != o.kind || !(type == o.type) || op != o.op || func != o.func || agg != o.agg ||
      negated != o.negated || case_insensitive != o.case_insensitive || args.size() != o.args.size() ||
      distinct != o.distinct || sort != o.sort || order != o.order || filtered != o.filtered || sublink != o.sublink ||
      subplan != o.subplan || tested_values != o.tested_values || window_func != o.window_func ||
      routine != o.routine)
    return false;
  if (kind == ExprKind::kSlot && !(slot == o.slot)) return false;
  if (kind == ExprKind::kConst) {
    if (value.kind != o.value.kind) return false;
    if (!value.is_null() && CompareDatums(value, o.value) != 0) return false;
    if (value.kind == Datum::Kind::kNumeric && value.n.scale() != o.value.n.scale()) return false;
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i]->Equals(*o.args[i])) return false;
  return true;
}

bool Expr::References(SlotSpace space) const {
  if (kind == ExprKind::kSlot && slot.space == space) return true;
  for (const auto& a : args)
    if (a->References(space)) return true;
  return false;
}

bool Expr::Contains(ExprKind k) const {
  if (kind == k) return true;
  for (const auto& a : args)
    if (a->Contains(k)) return true;
  return false;
}

bool Expr::DrawsRandom() const {
  if (kind == ExprKind::kFunc && func == Func::kRandom) return true;
  for (const auto& a : args)
    if (a->DrawsRandom()) return true;
  return false;
}

bool Expr::ContainsAggregate() const {
  if (kind == ExprKind::kAggRef) return true;
  for (const auto& a : args)
    if (a->ContainsAggregate()) return true;
  return false;
}

std::string Expr::DebugString() const {
  static constexpr const char* kOps[] = {"?", "+", "-", "*", "/", "%", "-", "=", "<>", "<", "<=", ">", ">="};
  std::string inner;
  for (size_t i = 0; i < args.size(); ++i) inner += (i ? ", " : "") + args[i]->DebugString();
  switch (kind) {
    case ExprKind::kConst: return value.is_null() ? "NULL" : fmt::format("{}::{}", DatumToText(value, type), type.Name());
    case ExprKind::kSlot: {
      static constexpr const char* kSpaces[] = {"col", "var", "key", "agg", "excluded", "t", "outer"};
      return fmt::format("${}{}", kSpaces[static_cast<int>(slot.space)], slot.index);
    }
    case ExprKind::kCast: return fmt::format("CAST({} AS {})", inner, type.Name());
    case ExprKind::kArith:
      if (op == Op::kNeg) return fmt::format("(-{})", inner);
      return fmt::format("({} {} {})", args[0]->DebugString(), kOps[static_cast<int>(op)], args[1]->DebugString());
    case ExprKind::kCompare:
      return fmt::format("({} {} {})", args[0]->DebugString(), kOps[static_cast<int>(op)], args[1]->DebugString());
    case ExprKind::kConcat: return fmt::format("({} || {})", args[0]->DebugString(), args[1]->DebugString());
    case ExprKind::kAnd: return fmt::format("AND({})", inner);
    case ExprKind::kOr: return fmt::format("OR({})", inner);
    case ExprKind::kNot: return fmt::format("NOT({})", inner);
    case ExprKind::kIsNull: return fmt::format("{}({})", negated ? "ISNOTNULL" : "ISNULL", inner);
    case ExprKind::kBoolTest: return fmt::format("BOOLTEST({})", inner);
    case ExprKind::kCase: return fmt::format("CASE({})", inner);
    case ExprKind::kCoalesce: return fmt::format("COALESCE({})", inner);
    case ExprKind::kNullIf: return fmt::format("NULLIF({})", inner);
    case ExprKind::kGreatest: return fmt::format("GREATEST({})", inner);
    case ExprKind::kLeast: return fmt::format("LEAST({})", inner);
    case ExprKind::kIn: return fmt::format("{}IN({})", negated ? "NOT " : "", inner);
    case ExprKind::kLike: return fmt::format("{}{}({})", negated ? "NOT " : "", case_insensitive ? "ILIKE" : "LIKE", inner);
    case ExprKind::kAnyAll: return fmt::format("{}{}({})", negated ? "ALL" : "ANY", static_cast<int>(op), inner);
    case ExprKind::kFunc: return fmt::format("FUNC{}({})", static_cast<int>(func), inner);
    case ExprKind::kAggRef: return fmt::format("AGG{}({}{})", static_cast<int>(agg), distinct ? "DISTINCT " : "", inner);
    case ExprKind::kArray: return fmt::format("ARRAY[{}]", inner);
    case ExprKind::kSubscript: return fmt::format("{}[{}]", args[0]->DebugString(), args[1]->DebugString());
    case ExprKind::kNextval: return fmt::format("NEXTVAL({})", inner);
    case ExprKind::kSubquery: return fmt::format("SUBPLAN{}:{}({})", subplan, static_cast<int>(sublink), inner);
    case ExprKind::kWindowRef: return fmt::format("WINDOW{}:{}({})", subplan, static_cast<int>(window_func), inner);
    case ExprKind::kRoutineCall: return fmt::format("CALL {}({})", routine_name, inner);
  }
  return "?";
}

ExprPtr MakeExpr(ExprKind kind, SqlType type, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = type;
  e->location = location;
  return e;
}

ExprPtr MakeCall(Func func, SqlType type, std::vector<ExprPtr> args, int location) {
  ExprPtr e = MakeExpr(ExprKind::kFunc, type, location);
  e->func = func;
  e->args = std::move(args);
  return e;
}

ExprPtr MakeConst(Datum value, SqlType type, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kConst;
  e->value = std::move(value);
  e->type = type;
  e->location = location;
  return e;
}

ExprPtr MakeSlot(Slot slot, SqlType type, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kSlot;
  e->slot = slot;
  e->type = type;
  e->location = location;
  return e;
}

}  // namespace caracal::planner
