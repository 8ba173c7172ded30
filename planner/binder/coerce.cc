#include "planner/binder/coerce.h"

#include <fmt/format.h>

#include "planner/types/domain_type.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

ExprPtr CastNode(ExprPtr e, const SqlType& to, bool explicit_cast);

int NumericRank(TypeId t) {
  switch (t) {
    case TypeId::kInt2: return 0;
    case TypeId::kInt4: return 1;
    case TypeId::kInt8: return 2;
    case TypeId::kNumeric: return 3;
    case TypeId::kFloat4: return 4;
    default: return 5;
  }
}

ExprPtr Convert(ExprPtr e, const SqlType& to, bool explicit_cast) {
  if (e->kind == ExprKind::kConst && e->type.is_unknown() && to.has_typmod()) {
    // PostgreSQL reads the literal as the type (an error points at it), then applies
    // the modifier as a step of its own, which reports no position ('abcde' into a
    // char(4) column).
    return Convert(Convert(std::move(e), to.Base(), explicit_cast), to, explicit_cast);
  }
  if (e->kind == ExprKind::kConst) {
    // Fold: the literal is checked now, at its location.
    try {
      Datum folded = CastDatum(e->value, e->type, to, explicit_cast);
      e->value = std::move(folded);
      e->type = to;
      return e;
    } catch (SqlError& err) {
      // PostgreSQL reports a position only for literals it parses while binding;
      // converting a typed constant happens at run time there, without one (so a
      // function's `RETURN 100000` into smallint fails when it runs, not at CREATE).
      if (!e->type.is_unknown()) return CastNode(std::move(e), to, explicit_cast);
      err.AtLocation(e->location);
      throw;
    }
  }
  return CastNode(std::move(e), to, explicit_cast);
}

ExprPtr CastNode(ExprPtr e, const SqlType& to, bool explicit_cast) {
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::kCast;
  cast->type = to;
  cast->location = e->location;
  cast->explicit_cast = explicit_cast;
  cast->args.push_back(std::move(e));
  return cast;
}

}  // namespace

SqlType PromoteNumeric(const SqlType& a, const SqlType& b) {
  if (a.is_float() || b.is_float())
    return SqlType::Of(a.id == TypeId::kFloat4 && b.id == TypeId::kFloat4 ? TypeId::kFloat4 : TypeId::kFloat8);
  return SqlType::Of(NumericRank(a.id) >= NumericRank(b.id) ? a.id : b.id);
}

ExprPtr TryCoerce(ExprPtr& e, const SqlType& to, CastContext context) {
  const SqlType& from = e->type;
  if (from == to) return std::move(e);
  if (to.domain && from.domain != to.domain) {
    // To the base type as the context allows, then the domain's constraints. Never
    // folded: a function whose RETURN breaks them fails when it runs, as in PostgreSQL.
    ExprPtr value = TryCoerce(e, to.domain->base(), context);
    if (!value) return nullptr;
    auto check = MakeExpr(ExprKind::kFunc, to, value->location);
    check->func = Func::kDomainCheck;
    check->args.push_back(std::move(value));
    return check;
  }
  // Dropping a modifier never changes the value; an array's elements must still be of
  // the same type (int[] to numeric[] converts each one).
  if (from.SameBase(to) && !to.has_typmod() && context != CastContext::kExplicit) {
    // A cast's type is what it does (x::varchar(2) cuts x): it stays, under the relabel.
    if (e->kind == ExprKind::kCast) return CastNode(std::move(e), to, false);
    e->type = to;
    return std::move(e);
  }
  CastContext needed = CastContextFor(from, to);
  if (needed == CastContext::kNone || static_cast<int>(needed) > static_cast<int>(context)) return nullptr;
  return Convert(std::move(e), to, context == CastContext::kExplicit);
}

ExprPtr Coerce(ExprPtr e, const SqlType& to, CastContext context, std::string_view column) {
  SqlType from = e->type;
  int location = e->location;
  if (ExprPtr r = TryCoerce(e, to, context)) return r;
  if (context == CastContext::kExplicit)
    throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", from.BaseName(), to.Name()), location);
  if (!column.empty())
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("column \"{}\" is of type {} but expression is of type {}", column, to.Name(),
                               from.BaseName()),
                   location)
        .WithHint("You will need to rewrite or cast the expression.");
  throw SqlError(sqlstate::kDatatypeMismatch,
                 fmt::format("cannot convert type {} to {}", from.BaseName(), to.Name()), location);
}

SqlType CommonType(std::span<const SqlType> types, std::string_view construct, int location) {
  std::optional<SqlType> result;
  for (const SqlType& t : types) {
    if (t.is_unknown()) continue;
    if (!result) {
      result = t.Base();
      continue;
    }
    if (result->SameBase(t)) continue;
    if (result->is_numeric_category() && t.is_numeric_category()) {
      result = PromoteNumeric(*result, t);
    } else if (result->is_string() && t.is_string()) {
      result = SqlType::Of(TypeId::kText);
    } else if (result->is_datetime() && t.is_datetime() && CastContextFor(*result, t) == CastContext::kImplicit) {
      result = t.Base();  // date, timestamp: timestamp; timestamp, timestamptz: timestamptz
    } else if (result->is_datetime() && t.is_datetime() && CastContextFor(t, *result) == CastContext::kImplicit) {
    } else {
      throw SqlError(sqlstate::kDatatypeMismatch,
                     fmt::format("{} types {} and {} cannot be matched", construct, result->BaseName(), t.BaseName()),
                     location);
    }
  }
  return result ? *result : SqlType::Of(TypeId::kText);
}

ExprPtr EnumsAsText(ExprPtr e) {
  if (!e->type.enum_type) return e;
  const SqlType text = SqlType::Of(TypeId::kText);
  const SqlType to = e->type.is_array() ? SqlType::ArrayOf(text) : text;
  return Coerce(std::move(e), to, CastContext::kAssignment);
}

SqlType WithCommonTypmod(const SqlType& common, std::span<const SqlType> types) {
  if (types.empty() || !types[0].has_typmod() || types[0].id != common.id) return common;
  for (const SqlType& t : types)
    if (!(t == types[0])) return common;
  return types[0];
}

}  // namespace caracal::planner
