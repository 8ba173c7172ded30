#include "planner/binder/array_functions.h"

#include <fmt/format.h>

#include <climits>
#include <optional>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

const SqlType kText = SqlType::Of(TypeId::kText);
const SqlType kInt4 = SqlType::Of(TypeId::kInt4);

bool IsTextLike(const SqlType& t) { return t.is_string() || t.is_unknown(); }

// The element type of an anycompatiblearray argument and anycompatible values, as
// PostgreSQL resolves them: the common type of the array's element and the typed
// values (an untyped literal array takes the values' type). nullopt when nothing fits.
std::optional<SqlType> CompatibleElement(const ExprPtr& array, std::span<const ExprPtr> values, int location) {
  std::vector<SqlType> types;
  if (array->type.is_array()) types.push_back(array->type.Element().Base());
  else if (!array->type.is_unknown()) return std::nullopt;
  for (const ExprPtr& v : values) {
    if (v->type.is_array()) return std::nullopt;
    if (!v->type.is_unknown()) types.push_back(v->type.Base());
  }
  if (types.empty()) return std::nullopt;  // "could not determine polymorphic type"
  try {
    return CommonType(types, "anycompatible", location);
  } catch (const SqlError&) {
    return std::nullopt;
  }
}

// Coerces `args[i]` to `to` if an implicit cast allows it; false if not.
bool CoerceArg(std::vector<ExprPtr>& args, size_t i, const SqlType& to) {
  if (args[i]->type == to || args[i]->type.Base() == to.Base()) return true;
  if (CastContextFor(args[i]->type, to) != CastContext::kImplicit) return false;
  args[i] = Coerce(std::move(args[i]), to, CastContext::kImplicit);
  return true;
}

ExprPtr TypeConst(int64_t v, int location) { return MakeConst(Datum::Int(v), kInt4, location); }

// array_remove / array_replace / array_position / array_positions: an array, then
// `values` elements of its type, then (array_position) an optional start position.
ExprPtr BindElementSearch(Func func, std::vector<ExprPtr>& args, size_t values, const SqlType& result_if_int,
                          int location) {
  const std::span<const ExprPtr> value_args(args.data() + 1, values);
  const std::optional<SqlType> element = CompatibleElement(args[0], value_args, location);
  if (!element) return nullptr;
  if (!CoerceArg(args, 0, SqlType::ArrayOf(*element))) return nullptr;
  for (size_t i = 1; i <= values; ++i)
    if (!CoerceArg(args, i, *element)) return nullptr;
  for (size_t i = values + 1; i < args.size(); ++i)
    if (!args[i]->type.is_integer() && !args[i]->type.is_unknown()) return nullptr;
    else args[i] = Coerce(std::move(args[i]), kInt4, CastContext::kImplicit);
  const SqlType result = result_if_int.id != TypeId::kUnknown ? result_if_int : SqlType::ArrayOf(*element);
  return MakeCall(func, result, std::move(args), location);
}

}  // namespace

bool IsArrayBuiltin(std::string_view name) {
  return name == "array_remove" || name == "array_replace" || name == "array_position" || name == "array_positions" ||
         name == "array_to_string" || name == "string_to_array" || name == "array_dims" || name == "array_ndims" ||
         name == "array_fill";
}

ExprPtr MakeArrayBuiltin(std::string_view name, std::vector<ExprPtr> args, int location) {
  const SqlType unknown = SqlType::Of(TypeId::kUnknown);
  const SqlError no_function = NoSuchFunction(name, args, location);
  ExprPtr e;
  const size_t n = args.size();
  if (name == "array_remove" && n == 2) {
    e = BindElementSearch(Func::kArrayRemove, args, 1, unknown, location);
  } else if (name == "array_replace" && n == 3) {
    e = BindElementSearch(Func::kArrayReplace, args, 2, unknown, location);
  } else if (name == "array_position" && (n == 2 || n == 3)) {
    e = BindElementSearch(Func::kArrayPosition, args, 1, kInt4, location);
  } else if (name == "array_positions" && n == 2) {
    e = BindElementSearch(Func::kArrayPositions, args, 1, SqlType::ArrayOf(kInt4), location);
  } else if (name == "array_to_string" && (n == 2 || n == 3)) {
    if (args[0]->type.is_array() && IsTextLike(args[1]->type) && (n == 2 || IsTextLike(args[2]->type))) {
      args[0] = EnumsAsText(std::move(args[0]));
      const SqlType element = args[0]->type.Element();
      for (size_t i = 1; i < n; ++i) args[i] = Coerce(std::move(args[i]), kText, CastContext::kImplicit);
      if (n == 2) args.push_back(MakeConst(Datum::Null(), kText, location));
      args.push_back(TypeConst(static_cast<int64_t>(element.id), location));
      args.push_back(TypeConst(element.precision, location));
      args.push_back(TypeConst(element.scale, location));
      e = MakeCall(Func::kArrayToString, kText, std::move(args), location);
    }
  } else if (name == "string_to_array" && (n == 2 || n == 3)) {
    bool ok = true;
    for (const ExprPtr& a : args) ok &= IsTextLike(a->type);
    if (ok) {
      for (ExprPtr& a : args) a = Coerce(std::move(a), kText, CastContext::kImplicit);
      e = MakeCall(Func::kStringToArray, SqlType::ArrayOf(kText), std::move(args), location);
    }
  } else if ((name == "array_dims" || name == "array_ndims") && n == 1) {
    if (args[0]->type.is_array())
      e = name == "array_dims" ? MakeCall(Func::kArrayDims, kText, std::move(args), location)
                               : MakeCall(Func::kArrayNdims, kInt4, std::move(args), location);
  } else if (name == "array_fill" && (n == 2 || n == 3)) {
    const SqlType int_array = SqlType::ArrayOf(kInt4);
    if (!args[0]->type.is_unknown() && !args[0]->type.is_array() && CoerceArg(args, 1, int_array) &&
        (n == 2 || CoerceArg(args, 2, int_array))) {
      const SqlType element = args[0]->type.Base();
      e = MakeCall(Func::kArrayFill, SqlType::ArrayOf(element), std::move(args), location);
    }
  }
  if (!e) throw no_function;
  return e;
}

ExprPtr MakeArrayOperator(std::string_view name, ExprPtr& l, ExprPtr& r, int location) {
  if (name != "@>" && name != "<@" && name != "&&") return nullptr;
  const SqlType lt = l->type, rt = r->type;
  if (!lt.is_array() && !rt.is_array()) return nullptr;
  if ((!lt.is_array() && !lt.is_unknown()) || (!rt.is_array() && !rt.is_unknown())) return nullptr;
  // anyarray: both the same array type; text-like elements meet as text.
  SqlType type = lt.is_array() ? lt.Base() : rt.Base();
  if (lt.is_array() && rt.is_array() && lt.element != rt.element) {
    if (lt.Element().is_string() && rt.Element().is_string())
      type = SqlType::ArrayOf(kText);
    else
      throw SqlError(sqlstate::kUndefinedFunction,
                     fmt::format("operator does not exist: {} {} {}", lt.BaseName(), name, rt.BaseName()), location)
          .WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.");
  }
  const Func func = name == "@>" ? Func::kArrayContains : name == "<@" ? Func::kArrayContainedBy : Func::kArrayOverlap;
  std::vector<ExprPtr> args;
  args.push_back(Coerce(std::move(l), type, CastContext::kImplicit));
  args.push_back(Coerce(std::move(r), type, CastContext::kImplicit));
  return MakeCall(func, SqlType::Of(TypeId::kBool), std::move(args), location);
}

ExprPtr MakeArraySlice(ExprPtr array, ExprPtr lower, ExprPtr upper, int location) {
  const SqlType type = array->type.Base();
  std::vector<ExprPtr> args;
  args.push_back(std::move(array));
  args.push_back(lower ? std::move(lower) : TypeConst(1, location));
  args.push_back(upper ? std::move(upper) : TypeConst(INT32_MAX, location));
  return MakeCall(Func::kArraySlice, type, std::move(args), location);
}

}  // namespace caracal::planner
