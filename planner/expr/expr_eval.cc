#include "planner/expr/expr_eval.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <optional>

#include "planner/types/cast.h"
#include "planner/expr/functions.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

[[noreturn]] void DivisionByZero() { throw SqlError(sqlstate::kDivisionByZero, "division by zero"); }

Datum IntArithmetic(Op op, int64_t a, int64_t b, TypeId type) {
  __int128 r = 0;
  switch (op) {
    case Op::kAdd: r = static_cast<__int128>(a) + b; break;
    case Op::kSub: r = static_cast<__int128>(a) - b; break;
    case Op::kMul: r = static_cast<__int128>(a) * b; break;
    case Op::kDiv:
      if (b == 0) DivisionByZero();
      r = static_cast<__int128>(a) / b;  // truncates towards zero, as C and PostgreSQL
      break;
    case Op::kMod:
      if (b == 0) DivisionByZero();
      r = b == -1 ? 0 : a % b;
      break;
    default: break;
  }
  return Datum::Int(CheckIntRange(r, type));
}

Datum FloatArithmetic(Op op, double a, double b, TypeId type) {
  double r = 0;
  switch (op) {
    case Op::kAdd: r = a + b; break;
    case Op::kSub: r = a - b; break;
    case Op::kMul: r = a * b; break;
    case Op::kDiv:
      if (b == 0) DivisionByZero();
      r = a / b;
      break;
    default: break;
  }
  if (type == TypeId::kFloat4) {
    float f = static_cast<float>(r);
    if (std::isinf(f) && std::isfinite(a) && std::isfinite(b))
      throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: overflow");
    r = f;
  }
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b))
    throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: overflow");
  if (r == 0 && a != 0 && op == Op::kMul && b != 0)
    throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: underflow");
  return Datum::Float(r);
}


bool CompareResult(Op op, int c) {
  switch (op) {
    case Op::kEq: return c == 0;
    case Op::kNe: return c != 0;
    case Op::kLt: return c < 0;
    case Op::kLe: return c <= 0;
    case Op::kGt: return c > 0;
    case Op::kGe: return c >= 0;
    default: return false;
  }
}

// Reads a slot. Columns are converted from the row blob on each read; the interpreter
// is the reference, not the fast path (codegen/ reads slots directly).
Datum ReadSlot(const Slot& slot, const EvalContext& ctx) {
  switch (slot.space) {
    case SlotSpace::kColumn: return DatumFromRow(*ctx.row, slot.index, ctx.schema->column(slot.index));
    case SlotSpace::kVariable: return ctx.variables[slot.index];
    case SlotSpace::kGroupKey: return ctx.group_keys[slot.index];
    case SlotSpace::kAggregate: return ctx.aggregates[slot.index];
    case SlotSpace::kExcluded: return DatumFromRow(*ctx.excluded, slot.index, ctx.schema->column(slot.index));
    case SlotSpace::kTuple: return ctx.tuple[slot.index];
    case SlotSpace::kOuter: return ctx.outer[slot.index];
  }
  return Datum::Null();
}

// 0: no match; 1: match; LIKE_ABORT-style early exit is unnecessary for our sizes.
bool Like(std::string_view t, std::string_view p) {
  size_t ti = 0, pi = 0, star_p = std::string_view::npos, star_t = 0;
  auto char_len = [](std::string_view s, size_t i) {
    size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
    return n;
  };
  while (ti < t.size()) {
    if (pi < p.size() && p[pi] == '%') {
      star_p = ++pi;
      star_t = ti;
      continue;
    }
    if (pi < p.size()) {
      if (p[pi] == '_') {
        ti += char_len(t, ti);
        ++pi;
        continue;
      }
      size_t pp = pi;
      if (p[pp] == '\\' && pp + 1 < p.size()) ++pp;
      size_t n = char_len(p, pp);
      if (t.substr(ti, n) == p.substr(pp, n)) {
        ti += n;
        pi = pp + n;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    star_t += char_len(t, star_t);
    ti = star_t;
    pi = star_p;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

}  // namespace

Datum EvalAnyAll(Op op, bool all, const SqlType& type, const Datum& value, const Datum& array) {
  if (array.is_null()) return Datum::Null();
  bool saw_null = false;
  for (const Datum& element : *array.array) {
    if (value.is_null() || element.is_null()) {
      saw_null = true;
      continue;
    }
    const bool holds = CompareResult(op, CompareForType(value, element, type));
    if (holds != all) return Datum::Bool(!all);  // ANY: one true; ALL: one false
  }
  return saw_null ? Datum::Null() : Datum::Bool(all);
}

bool LikeMatch(std::string_view text, std::string_view pattern, bool case_insensitive) {
  if (!case_insensitive) return Like(text, pattern);
  std::string t(text), p(pattern);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : p) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return Like(t, p);
}

std::optional<Numeric> NumericArithmetic(Op op, const Numeric& a, const Numeric& b) {
  switch (op) {
    case Op::kAdd: return a + b;
    case Op::kSub: return a - b;
    case Op::kMul: return a * b;
    case Op::kDiv: return a / b;
    case Op::kMod: return a % b;
    default: return std::nullopt;
  }
}

namespace {

// The date/time operators as datetime_operators.cc leaves them: timestamp (or
// timestamptz) ± interval, time ± interval, date ± integer, timestamp - timestamp and
// interval arithmetic (date - date is integer arithmetic on the day numbers).
Datum DateTimeArithmetic(Op op, const Datum& a, const Datum& b, const SqlType& type) {
  using datetime::Interval;
  using K = Datum::Kind;
  auto signed_interval = [&](const Datum& d) { return op == Op::kSub ? datetime::NegateInterval(d.as_interval()) : d.as_interval(); };
  switch (type.id) {
    case TypeId::kInterval:
      if (a.kind == K::kInterval && b.kind == K::kInterval)
        return Datum::Interval(datetime::AddIntervals(a.as_interval(), signed_interval(b)));
      if (a.kind == K::kInterval && b.kind == K::kFloat)
        return Datum::Interval(op == Op::kMul ? datetime::MultiplyInterval(a.as_interval(), b.f)
                                              : datetime::DivideInterval(a.as_interval(), b.f));
      if (a.kind == K::kFloat && b.kind == K::kInterval) return Datum::Interval(datetime::MultiplyInterval(b.as_interval(), a.f));
      if (a.kind == K::kTimestamp && b.kind == K::kTimestamp) return Datum::Interval(datetime::SubtractTimestamps(a.i, b.i));
      break;
    case TypeId::kDate:
      if (a.kind == K::kTimestamp && b.kind == K::kInt) return Datum::Timestamp(datetime::AddDays(a.i, op == Op::kSub ? -b.i : b.i));
      if (a.kind == K::kInt && b.kind == K::kTimestamp) return Datum::Timestamp(datetime::AddDays(b.i, a.i));
      break;
    case TypeId::kTime:
      if (a.kind == K::kTimestamp && b.kind == K::kInterval) return Datum::Timestamp(datetime::AddIntervalToTime(a.i, signed_interval(b)));
      if (a.kind == K::kInterval && b.kind == K::kTimestamp) return Datum::Timestamp(datetime::AddIntervalToTime(b.i, a.as_interval()));
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (a.kind == K::kTimestamp && b.kind == K::kInterval) return Datum::Timestamp(datetime::AddInterval(a.i, signed_interval(b)));
      if (a.kind == K::kInterval && b.kind == K::kTimestamp) return Datum::Timestamp(datetime::AddInterval(b.i, a.as_interval()));
      break;
    default: break;
  }
  throw SqlError(sqlstate::kInternalError, "unexpected operands of a date/time operator");
}

}  // namespace

Datum Arithmetic(Op op, const Datum& a, const Datum& b, const SqlType& type) {
  if (type.is_integer()) return IntArithmetic(op, a.i, b.i, type.id);
  if (type.is_float()) return FloatArithmetic(op, a.f, b.f, type.id);
  if (type.is_datetime() || type.id == TypeId::kInterval) return DateTimeArithmetic(op, a, b, type);
  std::optional<Numeric> n = NumericArithmetic(op, a.n, b.n);
  return n ? Datum::Num(*n) : Datum::Null();
}

int CompareForType(const Datum& a, const Datum& b, const SqlType& type) {
  if (type.id == TypeId::kBpchar && a.kind == Datum::Kind::kString) {
    int c = StripTrailingBlanks(a.s).compare(StripTrailingBlanks(b.s));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return CompareDatums(a, b);
}

bool EvalCondition(const Expr& e, const EvalContext& ctx) {
  Datum d = Eval(e, ctx);
  return !d.is_null() && d.as_bool();
}

namespace {

Datum EvalNode(const Expr& e, const EvalContext& ctx);

bool NodeCondition(const Expr& e, const EvalContext& ctx) {
  Datum d = EvalNode(e, ctx);
  return !d.is_null() && d.as_bool();
}

Datum EvalNode(const Expr& e, const EvalContext& ctx);

// ANY / ALL over the subquery's rows under three-valued logic: `test` says whether a row
// satisfies the comparison (nullopt: unknown); ANY stops at a row that does, ALL at one
// that does not.
Datum Quantified(const Expr& e, const std::vector<Datum>& params, const EvalContext& ctx,
                 const std::function<std::optional<bool>(std::span<const Datum>)>& test) {
  const bool all = e.sublink == SubLink::kAll;
  bool saw_null = false, decided = false;
  ctx.subqueries->Run(e.subplan, params, [&](std::span<const Datum> row) {
    const std::optional<bool> satisfied = test(row);
    if (!satisfied) saw_null = true;
    else if (*satisfied != all) decided = true;
    return !decided;
  });
  if (decided) return Datum::Bool(!all);
  if (saw_null) return Datum::Null();
  return Datum::Bool(all);
}

// (a, b) = ANY / <> ALL (subquery): each row compared as PostgreSQL compares rows (equal
// when every pair is, unequal when one pair is; otherwise unknown).
Datum RowAgainstSubquery(const Expr& e, const std::vector<Datum>& params, const EvalContext& ctx) {
  std::vector<Datum> values;
  for (size_t i = 0; i < e.tested_values; ++i) values.push_back(EvalNode(*e.args[i], ctx));
  return Quantified(e, params, ctx, [&](std::span<const Datum> row) -> std::optional<bool> {
    bool unequal = false, unknown = false;
    for (size_t i = 0; i < values.size() && !unequal; ++i) {
      if (values[i].is_null() || row[i].is_null()) unknown = true;
      else unequal = CompareForType(values[i], row[i], e.args[i]->type) != 0;
    }
    if (!unequal && unknown) return std::nullopt;
    return (e.op == Op::kEq) != unequal;
  });
}

// A subquery expression with PostgreSQL's rules: EXISTS is whether a row comes; a scalar
// subquery is its one row's value (NULL without rows, an error with more than one); ANY
// / ALL compare the tested value with each row's value under three-valued logic; ARRAY()
// collects the values.
Datum EvalRoutineCall(const Expr& e, const EvalContext& ctx) {
  std::vector<Datum> args;
  args.reserve(e.args.size());
  for (const auto& a : e.args) args.push_back(EvalNode(*a, ctx));
  if (ctx.routines == nullptr) throw RoutineCallNotSupportedHere(e);
  return ctx.routines->Call(e, args);
}

Datum EvalSubquery(const Expr& e, const EvalContext& ctx) {
  if (ctx.subqueries == nullptr) throw SqlError(sqlstate::kInternalError, "subquery evaluated without its plan");
  const bool tested = e.sublink == SubLink::kAny || e.sublink == SubLink::kAll;
  std::vector<Datum> params;
  params.reserve(e.args.size());
  for (size_t i = tested ? e.tested_values : 0; i < e.args.size(); ++i) params.push_back(EvalNode(*e.args[i], ctx));
  switch (e.sublink) {
    case SubLink::kExists: {
      bool found = false;
      ctx.subqueries->Run(e.subplan, params, [&](std::span<const Datum>) { return !(found = true); });
      return Datum::Bool(found);
    }
    case SubLink::kScalar: {
      Datum value;
      int rows = 0;
      ctx.subqueries->Run(e.subplan, params, [&](std::span<const Datum> row) {
        if (++rows > 1) return false;
        value = row[0];
        return true;
      });
      if (rows > 1)
        throw SqlError(sqlstate::kCardinalityViolation, "more than one row returned by a subquery used as an expression");
      return value;
    }
    case SubLink::kArray: {
      std::vector<Datum> elements;
      ctx.subqueries->Run(e.subplan, params, [&](std::span<const Datum> row) {
        elements.push_back(row[0]);
        return true;
      });
      return Datum::Array(std::move(elements));
    }
    case SubLink::kAny:
    case SubLink::kAll: {
      const bool all = e.sublink == SubLink::kAll;
      if (e.tested_values > 1) return RowAgainstSubquery(e, params, ctx);
      Datum value = EvalNode(*e.args[0], ctx);
      if (!all && e.op == Op::kEq && params.empty())
        if (std::optional<Datum> hashed = ctx.subqueries->AnyEquals(e.subplan, value, e.args[0]->type)) return *hashed;
      return Quantified(e, params, ctx, [&](std::span<const Datum> row) -> std::optional<bool> {
        if (value.is_null() || row[0].is_null()) return std::nullopt;
        return CompareResult(e.op, CompareForType(value, row[0], e.args[0]->type));
      });
    }
  }
  return Datum::Null();
}

Datum EvalNode(const Expr& e, const EvalContext& ctx) {
  switch (e.kind) {
    case ExprKind::kConst: return e.value;
    case ExprKind::kSlot: return ReadSlot(e.slot, ctx);
    case ExprKind::kCast: return CastDatum(EvalNode(*e.args[0], ctx), e.args[0]->type, e.type, e.explicit_cast);
    case ExprKind::kArith: {
      Datum a = EvalNode(*e.args[0], ctx);
      if (e.op == Op::kNeg) {
        if (a.is_null()) return a;
        if (e.type.is_integer()) return Datum::Int(CheckIntRange(-static_cast<__int128>(a.i), e.type.id));
        if (e.type.is_float()) return Datum::Float(-a.f);
        return Datum::Num(-a.n);
      }
      Datum b = EvalNode(*e.args[1], ctx);
      if (a.is_null() || b.is_null()) return Datum::Null();
      return Arithmetic(e.op, a, b, e.type);
    }
    case ExprKind::kCompare: {
      Datum a = EvalNode(*e.args[0], ctx);
      if (a.is_null()) return Datum::Null();
      Datum b = EvalNode(*e.args[1], ctx);
      if (b.is_null()) return Datum::Null();
      const SqlType& t = e.args[0]->type.id == TypeId::kBpchar && e.args[1]->type.id == TypeId::kBpchar
                             ? e.args[0]->type
                             : SqlType::Of(TypeId::kText);
      return Datum::Bool(CompareResult(e.op, CompareForType(a, b, t)));
    }
    case ExprKind::kConcat: {
      Datum a = EvalNode(*e.args[0], ctx);
      if (a.is_null()) return a;
      Datum b = EvalNode(*e.args[1], ctx);
      if (b.is_null()) return b;
      return Datum::String(a.s + b.s);
    }
    case ExprKind::kAnd: {
      bool saw_null = false;
      for (const auto& arg : e.args) {
        Datum d = EvalNode(*arg, ctx);
        if (d.is_null()) saw_null = true;
        else if (!d.as_bool()) return Datum::Bool(false);
      }
      return saw_null ? Datum::Null() : Datum::Bool(true);
    }
    case ExprKind::kOr: {
      bool saw_null = false;
      for (const auto& arg : e.args) {
        Datum d = EvalNode(*arg, ctx);
        if (d.is_null()) saw_null = true;
        else if (d.as_bool()) return Datum::Bool(true);
      }
      return saw_null ? Datum::Null() : Datum::Bool(false);
    }
    case ExprKind::kNot: {
      Datum d = EvalNode(*e.args[0], ctx);
      return d.is_null() ? d : Datum::Bool(!d.as_bool());
    }
    case ExprKind::kIsNull: return Datum::Bool(EvalNode(*e.args[0], ctx).is_null() != e.negated);
    case ExprKind::kBoolTest: {
      Datum d = EvalNode(*e.args[0], ctx);
      bool r = e.op == Op::kEq ? (!d.is_null() && d.as_bool())
               : e.op == Op::kNe ? (!d.is_null() && !d.as_bool())
                                 : d.is_null();
      return Datum::Bool(r != e.negated);
    }
    case ExprKind::kCase: {
      size_t n = e.args.size() - 1;
      for (size_t i = 0; i < n; i += 2)
        if (NodeCondition(*e.args[i], ctx)) return EvalNode(*e.args[i + 1], ctx);
      return EvalNode(*e.args[n], ctx);
    }
    case ExprKind::kCoalesce:
      for (const auto& arg : e.args) {
        Datum d = EvalNode(*arg, ctx);
        if (!d.is_null()) return d;
      }
      return Datum::Null();
    case ExprKind::kNullIf: {
      Datum a = EvalNode(*e.args[0], ctx);
      Datum b = EvalNode(*e.args[1], ctx);
      if (!a.is_null() && !b.is_null() && CompareForType(a, b, e.args[0]->type) == 0) return Datum::Null();
      return a;
    }
    case ExprKind::kGreatest:
    case ExprKind::kLeast: {
      // NULLs are ignored; the result is NULL only if every argument is.
      Datum best;
      for (const auto& arg : e.args) {
        Datum d = EvalNode(*arg, ctx);
        if (d.is_null()) continue;
        int c = best.is_null() ? 0 : CompareForType(d, best, e.type);
        if (best.is_null() || (e.kind == ExprKind::kGreatest ? c > 0 : c < 0)) best = std::move(d);
      }
      return best;
    }
    case ExprKind::kIn: {
      Datum x = EvalNode(*e.args[0], ctx);
      if (x.is_null()) return x;
      bool saw_null = false;
      for (size_t i = 1; i < e.args.size(); ++i) {
        Datum d = EvalNode(*e.args[i], ctx);
        if (d.is_null()) saw_null = true;
        else if (CompareForType(x, d, e.args[0]->type) == 0) return Datum::Bool(!e.negated);
      }
      return saw_null ? Datum::Null() : Datum::Bool(e.negated);
    }
    case ExprKind::kLike: {
      Datum t = EvalNode(*e.args[0], ctx);
      if (t.is_null()) return t;
      Datum p = EvalNode(*e.args[1], ctx);
      if (p.is_null()) return p;
      return Datum::Bool(LikeMatch(t.s, p.s, e.case_insensitive) != e.negated);
    }
    case ExprKind::kAnyAll: {
      Datum value = EvalNode(*e.args[0], ctx);
      return EvalAnyAll(e.op, e.negated, e.args[0]->type, value, EvalNode(*e.args[1], ctx));
    }
    case ExprKind::kFunc: {
      if (e.func == Func::kRandom) {
        if (ctx.routines == nullptr)
          throw SqlError(sqlstate::kFeatureNotSupported, "random() is not supported here", e.location)
              .WithHint("This expression is evaluated outside a transaction (a bulk load, a default, a constraint); "
                        "call random() in the statement itself.");
        return Datum::Float(ctx.routines->Random(e.site));
      }
      std::vector<Datum> args;
      args.reserve(e.args.size());
      for (const auto& arg : e.args) args.push_back(EvalNode(*arg, ctx));
      return EvalFunction(e.func, e.type, args);
    }
    case ExprKind::kAggRef:
      throw SqlError(sqlstate::kGroupingError, "aggregate function calls are not allowed here");
    case ExprKind::kArray: {
      std::vector<Datum> elements;
      elements.reserve(e.args.size());
      for (const auto& arg : e.args) elements.push_back(EvalNode(*arg, ctx));
      return Datum::Array(std::move(elements));
    }
    case ExprKind::kSubscript: {
      Datum a = EvalNode(*e.args[0], ctx);
      if (a.is_null()) return a;
      Datum i = EvalNode(*e.args[1], ctx);
      if (i.is_null() || i.i < 1 || i.i > static_cast<int64_t>(a.array->size())) return Datum::Null();
      return (*a.array)[i.i - 1];
    }
    case ExprKind::kNextval:
      throw SqlError(sqlstate::kFeatureNotSupported, "nextval() is only supported inside procedures (it is drawn at sequencing time)");
    case ExprKind::kSubquery: return EvalSubquery(e, ctx);
    case ExprKind::kRoutineCall: return EvalRoutineCall(e, ctx);
    case ExprKind::kWindowRef:
      throw SqlError(sqlstate::kWindowingError, "window functions are not allowed here", e.location);
  }
  return Datum::Null();
}

}  // namespace

Datum Eval(const Expr& e, const EvalContext& ctx) {
  // A constant or a lone slot is as quick to read as to call compiled code for.
  if (ctx.accelerator != nullptr && e.kind != ExprKind::kConst && e.kind != ExprKind::kSlot) {
    Datum out;
    if (ctx.accelerator->Eval(e, ctx, out)) return out;
  }
  return EvalNode(e, ctx);
}

SqlError RoutineCallNotSupportedHere(const Expr& call) {
  return SqlError(sqlstate::kFeatureNotSupported,
                  fmt::format("calling the user function {}() here is not supported yet", call.routine_name), call.location)
      .WithHint("This expression is evaluated outside a transaction (a view read from the snapshot, a bulk load, a "
                "default, a constraint), where no function body runs; call the function in the statement itself.");
}

Datum SnapshotRoutines::Call(const Expr& call, std::span<const Datum>) const { throw RoutineCallNotSupportedHere(call); }

double SnapshotRoutines::Random(int site) const {
  if (!draws_) draws_ = RandomDraws::Unseeded();
  return draws_->Next(site);
}

}  // namespace caracal::planner
