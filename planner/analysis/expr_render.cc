#include "planner/analysis/expr_render.h"

#include <fmt/format.h>

#include <cctype>

#include "planner/expr/functions.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

namespace {

const char* OpText(Op op) {
  switch (op) {
    case Op::kAdd: return "+";
    case Op::kSub: return "-";
    case Op::kMul: return "*";
    case Op::kDiv: return "/";
    case Op::kMod: return "%";
    case Op::kEq: return "=";
    case Op::kNe: return "<>";
    case Op::kLt: return "<";
    case Op::kLe: return "<=";
    case Op::kGt: return ">";
    case Op::kGe: return ">=";
    default: return "?";
  }
}

std::string Literal(const Expr& e) {
  if (e.value.is_null()) return "NULL";
  std::string text = DatumToText(e.value, e.type);
  if (e.type.is_numeric_category() || e.type.id == TypeId::kBool) return text;
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

std::string Join(const std::vector<ExprPtr>& args, const RenderNames& names, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < args.size(); ++i) out += (i > from ? ", " : "") + RenderExpr(*args[i], names);
  return out;
}

}  // namespace

const char* AggregateName(AggFunc f) {
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


std::string RenderExpr(const Expr& e, const RenderNames& names) {
  auto arg = [&](size_t i) { return RenderExpr(*e.args[i], names); };
  switch (e.kind) {
    case ExprKind::kConst: return Literal(e);
    case ExprKind::kSlot:
      switch (e.slot.space) {
        case SlotSpace::kVariable: return names.variable ? names.variable(e.slot.index) : fmt::format("${}", e.slot.index);
        case SlotSpace::kColumn:
          return names.table ? names.table->columns[e.slot.index].name : fmt::format("column{}", e.slot.index);
        case SlotSpace::kExcluded:
          return "excluded." + (names.table ? names.table->columns[e.slot.index].name : std::to_string(e.slot.index));
        default: return names.other_slot ? names.other_slot(e.slot) : "?";
      }
    case ExprKind::kCast: return e.explicit_cast ? fmt::format("{}::{}", arg(0), e.type.Name()) : arg(0);
    case ExprKind::kArith:
      if (e.op == Op::kNeg) return "-" + arg(0);
      return fmt::format("({} {} {})", arg(0), OpText(e.op), arg(1));
    case ExprKind::kCompare: return fmt::format("({} {} {})", arg(0), OpText(e.op), arg(1));
    case ExprKind::kConcat: return fmt::format("({} || {})", arg(0), arg(1));
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      std::string out = "(";
      for (size_t i = 0; i < e.args.size(); ++i) out += (i ? (e.kind == ExprKind::kAnd ? " AND " : " OR ") : "") + arg(i);
      return out + ")";
    }
    case ExprKind::kNot: return "NOT " + arg(0);
    case ExprKind::kIsNull: return fmt::format("({} IS {}NULL)", arg(0), e.negated ? "NOT " : "");
    case ExprKind::kBoolTest: {
      const char* what = e.op == Op::kEq ? "TRUE" : e.op == Op::kNe ? "FALSE" : "UNKNOWN";
      return fmt::format("({} IS {}{})", arg(0), e.negated ? "NOT " : "", what);
    }
    case ExprKind::kCase: {
      std::string out = "CASE";
      for (size_t i = 0; i + 1 < e.args.size(); i += 2) out += fmt::format(" WHEN {} THEN {}", arg(i), arg(i + 1));
      return out + fmt::format(" ELSE {} END", arg(e.args.size() - 1));
    }
    case ExprKind::kCoalesce: return fmt::format("COALESCE({})", Join(e.args, names));
    case ExprKind::kNullIf: return fmt::format("NULLIF({})", Join(e.args, names));
    case ExprKind::kGreatest: return fmt::format("GREATEST({})", Join(e.args, names));
    case ExprKind::kLeast: return fmt::format("LEAST({})", Join(e.args, names));
    case ExprKind::kIn: return fmt::format("({} {}IN ({}))", arg(0), e.negated ? "NOT " : "", Join(e.args, names, 1));
    case ExprKind::kLike:
      return fmt::format("({} {}{} {})", arg(0), e.negated ? "NOT " : "", e.case_insensitive ? "ILIKE" : "LIKE", arg(1));
    case ExprKind::kAnyAll:
      return fmt::format("({} {} {} ({}))", arg(0), OpText(e.op), e.negated ? "ALL" : "ANY", arg(1));
    case ExprKind::kFunc: {
      const std::string_view name = FunctionName(e.func);
      // The json operators are bound as functions named by their operator.
      if (e.args.size() == 2 && !name.empty() && !std::isalpha(static_cast<unsigned char>(name[0])))
        return fmt::format("({} {} {})", arg(0), name, arg(1));
      return fmt::format("{}({})", name, Join(e.args, names));
    }
    case ExprKind::kAggRef: return "aggregate(" + Join(e.args, names) + ")";
    case ExprKind::kArray: return fmt::format("ARRAY[{}]", Join(e.args, names));
    case ExprKind::kSubscript: return fmt::format("{}[{}]", arg(0), arg(1));
    case ExprKind::kNextval: return fmt::format("nextval({})", arg(0));
    case ExprKind::kSubquery:
      switch (e.sublink) {
        case SubLink::kExists: return fmt::format("(EXISTS (SubPlan {}))", e.subplan + 1);
        case SubLink::kAny:
        case SubLink::kAll: {
          std::string tested = arg(0), columns = "col1";
          for (size_t i = 1; i < e.tested_values; ++i) {
            tested += ", " + arg(i);
            columns += fmt::format(", col{}", i + 1);
          }
          if (e.tested_values > 1) {
            tested = "ROW(" + tested + ")";
            columns = "(" + columns + ")";
          }
          return fmt::format("({} ({} {} (SubPlan {}).{}))", e.sublink == SubLink::kAny ? "ANY" : "ALL", tested,
                             OpText(e.op), e.subplan + 1, columns);
        }
        case SubLink::kArray: return fmt::format("(ARRAY(SubPlan {}))", e.subplan + 1);
        case SubLink::kScalar: return fmt::format("(SubPlan {})", e.subplan + 1);
      }
      return "?";
    case ExprKind::kWindowRef: return "window(" + Join(e.args, names) + ")";
    case ExprKind::kRoutineCall: return fmt::format("{}({})", e.routine->name, Join(e.args, names));
  }
  return "?";
}

std::string RenderBareExpr(const Expr& e, const RenderNames& names) {
  std::string text = RenderExpr(e, names);
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return text;
  // Only a pair that encloses the whole ("(a) + (b)" keeps its parentheses).
  int depth = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0) return text;
  }
  return text.substr(1, text.size() - 2);
}

}  // namespace caracal::planner
