#include "planner/binder/datetime_operators.h"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "planner/binder/coerce.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

using T = TypeId;

// One of PostgreSQL's operators, and what its operands become for the evaluator
// (which knows timestamp + interval, time + interval, date + integer, interval
// arithmetic and date - date): date + interval is timestamp + interval, date + time is
// timestamp + interval, time - time is interval - interval.
struct Operator {
  T left;
  Op op;
  T right;
  T result;
  T eval_left, eval_right;
};

constexpr std::array<Operator, 26> kOperators = {{
    {T::kDate, Op::kAdd, T::kInt4, T::kDate, T::kDate, T::kInt4},
    {T::kInt4, Op::kAdd, T::kDate, T::kDate, T::kInt4, T::kDate},
    {T::kDate, Op::kSub, T::kInt4, T::kDate, T::kDate, T::kInt4},
    {T::kDate, Op::kSub, T::kDate, T::kInt4, T::kDate, T::kDate},
    {T::kDate, Op::kAdd, T::kInterval, T::kTimestamp, T::kTimestamp, T::kInterval},
    {T::kInterval, Op::kAdd, T::kDate, T::kTimestamp, T::kInterval, T::kTimestamp},
    {T::kDate, Op::kSub, T::kInterval, T::kTimestamp, T::kTimestamp, T::kInterval},
    {T::kDate, Op::kAdd, T::kTime, T::kTimestamp, T::kTimestamp, T::kInterval},
    {T::kTime, Op::kAdd, T::kDate, T::kTimestamp, T::kInterval, T::kTimestamp},
    {T::kTimestamp, Op::kAdd, T::kInterval, T::kTimestamp, T::kTimestamp, T::kInterval},
    {T::kInterval, Op::kAdd, T::kTimestamp, T::kTimestamp, T::kInterval, T::kTimestamp},
    {T::kTimestamp, Op::kSub, T::kInterval, T::kTimestamp, T::kTimestamp, T::kInterval},
    {T::kTimestamp, Op::kSub, T::kTimestamp, T::kInterval, T::kTimestamp, T::kTimestamp},
    {T::kTimestampTz, Op::kAdd, T::kInterval, T::kTimestampTz, T::kTimestampTz, T::kInterval},
    {T::kInterval, Op::kAdd, T::kTimestampTz, T::kTimestampTz, T::kInterval, T::kTimestampTz},
    {T::kTimestampTz, Op::kSub, T::kInterval, T::kTimestampTz, T::kTimestampTz, T::kInterval},
    {T::kTimestampTz, Op::kSub, T::kTimestampTz, T::kInterval, T::kTimestampTz, T::kTimestampTz},
    {T::kTime, Op::kAdd, T::kInterval, T::kTime, T::kTime, T::kInterval},
    {T::kInterval, Op::kAdd, T::kTime, T::kTime, T::kInterval, T::kTime},
    {T::kTime, Op::kSub, T::kInterval, T::kTime, T::kTime, T::kInterval},
    {T::kTime, Op::kSub, T::kTime, T::kInterval, T::kInterval, T::kInterval},
    {T::kInterval, Op::kAdd, T::kInterval, T::kInterval, T::kInterval, T::kInterval},
    {T::kInterval, Op::kSub, T::kInterval, T::kInterval, T::kInterval, T::kInterval},
    {T::kInterval, Op::kMul, T::kFloat8, T::kInterval, T::kInterval, T::kFloat8},
    {T::kFloat8, Op::kMul, T::kInterval, T::kInterval, T::kFloat8, T::kInterval},
    {T::kInterval, Op::kDiv, T::kFloat8, T::kInterval, T::kInterval, T::kFloat8},
}};

bool IsTimeType(const SqlType& t) { return t.is_datetime() || t.id == TypeId::kInterval; }

bool Accepts(const SqlType& from, TypeId to) {
  return from.is_unknown() || from.id == to || CastContextFor(from, SqlType::Of(to)) == CastContext::kImplicit;
}

}  // namespace

ExprPtr MakeDateTimeArithmetic(Op op, std::string_view name, ExprPtr& l, ExprPtr& r, int location) {
  const SqlType lt = l->type, rt = r->type;
  if (!IsTimeType(lt) && !IsTimeType(rt)) return nullptr;
  const Operator* best = nullptr;
  int best_exact = -1;
  bool ambiguous = false;
  // An untyped literal is first taken as the other side's type (PostgreSQL's rule for
  // one unknown argument); then every operator both sides convert to implicitly, the
  // one with the most exactly matching sides winning.
  for (const Operator& o : kOperators) {
    if (o.op == op && lt.is_unknown() && o.left == rt.id && o.right == rt.id) {
      best = &o;
      break;
    }
  }
  if (!best) {
    for (const Operator& o : kOperators) {
      if (o.op != op) continue;
      if (rt.is_unknown() && o.left == lt.id && o.right == lt.id) {
        best = &o;
        break;
      }
    }
  }
  if (!best) {
    for (const Operator& o : kOperators) {
      if (o.op != op || !Accepts(lt, o.left) || !Accepts(rt, o.right)) continue;
      int exact = (lt.id == o.left) + (rt.id == o.right);
      if (exact > best_exact) best = &o, best_exact = exact, ambiguous = false;
      else if (exact == best_exact) ambiguous = true;
    }
  }
  if (!best) {
    throw SqlError(sqlstate::kUndefinedFunction,
                   fmt::format("operator does not exist: {} {} {}", lt.BaseName(), name, rt.BaseName()), location)
        .WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.");
  }
  if (ambiguous)
    throw SqlError(sqlstate::kAmbiguousFunction,
                   fmt::format("operator is not unique: {} {} {}", lt.BaseName(), name, rt.BaseName()), location)
        .WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.");
  // Operands to the operator's types (where PostgreSQL reads a literal), then to what
  // the evaluator computes on.
  ExprPtr left = Coerce(std::move(l), SqlType::Of(best->left), CastContext::kImplicit);
  ExprPtr right = Coerce(std::move(r), SqlType::Of(best->right), CastContext::kImplicit);
  if (best->eval_left != best->left) left = Coerce(std::move(left), SqlType::Of(best->eval_left), CastContext::kImplicit);
  if (best->eval_right != best->right)
    right = Coerce(std::move(right), SqlType::Of(best->eval_right), CastContext::kImplicit);
  auto e = MakeExpr(ExprKind::kArith, SqlType::Of(best->result), location);
  e->op = op;
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  return e;
}

}  // namespace caracal::planner
