#include "planner/binder/json_operators.h"

#include <fmt/format.h>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/types/cast.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

const SqlType kJsonbType = SqlType::Of(TypeId::kJsonb);
const SqlType kTextType = SqlType::Of(TypeId::kText);
const SqlType kTextArray = SqlType::ArrayOf(SqlType::Of(TypeId::kText));

ExprPtr Call(Func func, const SqlType& type, std::vector<ExprPtr> args, int location) {
  return MakeCall(func, type, std::move(args), location);
}

ExprPtr Call2(Func func, const SqlType& type, ExprPtr a, ExprPtr b, int location) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return Call(func, type, std::move(args), location);
}

bool Takes(const SqlType& from, const SqlType& to) {
  return from == to || from.Base() == to.Base() || CastContextFor(from, to) == CastContext::kImplicit;
}

// A value as the builders and to_json take it: kToJson(value, its type, its element type).
ExprPtr ToJsonArg(ExprPtr value, const SqlType& result, int location) {
  if (value->type.is_unknown()) value = Coerce(std::move(value), kTextType, CastContext::kImplicit);
  value = EnumsAsText(std::move(value));
  const SqlType t = value->type;
  std::vector<ExprPtr> args;
  args.push_back(std::move(value));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(t.id)), SqlType::Of(TypeId::kInt4), location));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(t.element)), SqlType::Of(TypeId::kInt4), location));
  return Call(Func::kToJson, result, std::move(args), location);
}

}  // namespace

ExprPtr MakeJsonOperator(std::string_view name, ExprPtr& l, ExprPtr& r, int location) {
  const SqlType lt = l->type, rt = r->type;
  if (name == "->" || name == "->>" || name == "#>" || name == "#>>") {
    if (!lt.is_json()) return nullptr;
    const bool path = name[0] == '#';
    const bool as_text = name.size() == 3;
    if (path) {
      if (!Takes(rt, kTextArray)) return nullptr;
      r = Coerce(std::move(r), kTextArray, CastContext::kImplicit);
    } else if (rt.id == TypeId::kInt2 || rt.id == TypeId::kInt4) {
      r = Coerce(std::move(r), SqlType::Of(TypeId::kInt4), CastContext::kImplicit);
    } else if (Takes(rt, kTextType)) {
      r = Coerce(std::move(r), kTextType, CastContext::kImplicit);
    } else {
      return nullptr;
    }
    const Func func = path ? (as_text ? Func::kJsonPathText : Func::kJsonPath) : (as_text ? Func::kJsonGetText : Func::kJsonGet);
    return Call2(func, as_text ? kTextType : lt.Base(), std::move(l), std::move(r), location);
  }
  const auto jsonb_or_unknown = [](const SqlType& t) { return t.id == TypeId::kJsonb || t.is_unknown(); };
  const bool any_jsonb = lt.id == TypeId::kJsonb || rt.id == TypeId::kJsonb;
  if (name == "@>" || name == "<@" || name == "||") {
    if (!any_jsonb || !jsonb_or_unknown(lt) || !jsonb_or_unknown(rt)) return nullptr;
    l = Coerce(std::move(l), kJsonbType, CastContext::kImplicit);
    r = Coerce(std::move(r), kJsonbType, CastContext::kImplicit);
    if (name == "||") return Call2(Func::kJsonbConcat, kJsonbType, std::move(l), std::move(r), location);
    const SqlType boolean = SqlType::Of(TypeId::kBool);
    if (name == "@>") return Call2(Func::kJsonbContains, boolean, std::move(l), std::move(r), location);
    return Call2(Func::kJsonbContains, boolean, std::move(r), std::move(l), location);
  }
  if (name == "?" || name == "?|" || name == "?&") {
    if (lt.id != TypeId::kJsonb) return nullptr;
    const SqlType& want = name == "?" ? kTextType : kTextArray;
    if (!Takes(rt, want)) return nullptr;
    r = Coerce(std::move(r), want, CastContext::kImplicit);
    const Func func = name == "?" ? Func::kJsonbExists : name == "?|" ? Func::kJsonbExistsAny : Func::kJsonbExistsAll;
    return Call2(func, SqlType::Of(TypeId::kBool), std::move(l), std::move(r), location);
  }
  if (name == "-" && lt.id == TypeId::kJsonb) {
    if (rt.id == TypeId::kInt2 || rt.id == TypeId::kInt4) r = Coerce(std::move(r), SqlType::Of(TypeId::kInt4), CastContext::kImplicit);
    else if (Takes(rt, kTextType)) r = Coerce(std::move(r), kTextType, CastContext::kImplicit);
    else return nullptr;
    return Call2(Func::kJsonbDelete, kJsonbType, std::move(l), std::move(r), location);
  }
  return nullptr;
}

bool IsJsonFunction(std::string_view name) {
  return name == "to_json" || name == "to_jsonb" || name == "json_build_object" || name == "jsonb_build_object" ||
         name == "json_build_array" || name == "jsonb_build_array" || name == "jsonb_set";
}

ExprPtr MakeJsonFunction(std::string_view name, std::vector<ExprPtr> args, int location) {
  const bool jsonb = name.starts_with("jsonb") || name == "to_jsonb";
  const SqlType result = SqlType::Of(jsonb ? TypeId::kJsonb : TypeId::kJson);
  auto signature = [&] {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i]->type.BaseName();
    return SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), location)
        .WithHint("No function matches the given name and argument types. You might need to add explicit type casts.");
  };
  if (name == "to_json" || name == "to_jsonb") {
    if (args.size() != 1) throw signature();
    if (args[0]->type.is_unknown())
      throw SqlError(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown");
    return ToJsonArg(std::move(args[0]), result, location);
  }
  if (name == "jsonb_set") {
    if (args.size() != 3 && args.size() != 4) throw signature();
    const SqlType want[] = {kJsonbType, kTextArray, kJsonbType, SqlType::Of(TypeId::kBool)};
    for (size_t i = 0; i < args.size(); ++i) {
      if (!Takes(args[i]->type, want[i])) throw signature();
      args[i] = Coerce(std::move(args[i]), want[i], CastContext::kImplicit);
    }
    return Call(Func::kJsonbSet, kJsonbType, std::move(args), location);
  }
  const bool object = name.ends_with("object");
  if (object && args.size() % 2 != 0)
    // Raised where it runs in PostgreSQL, so without a position.
    throw SqlError(sqlstate::kInvalidParameterValue, "argument list must have even number of elements")
        .WithHint(fmt::format("The arguments of {}() must consist of alternating keys and values.", name));
  std::vector<ExprPtr> built;
  for (size_t i = 0; i < args.size(); ++i) {
    if (object && i % 2 == 0) built.push_back(OutputText(std::move(args[i])));
    else built.push_back(ToJsonArg(std::move(args[i]), SqlType::Of(TypeId::kJson), location));
  }
  return Call(object ? Func::kJsonBuildObject : Func::kJsonBuildArray, result, std::move(built), location);
}

ExprPtr MakeJsonAgg(std::string_view name, ExprPtr array_agg, int location) {
  array_agg = EnumsAsText(std::move(array_agg));
  const SqlType element = array_agg->type.Element();
  std::vector<ExprPtr> args;
  args.push_back(std::move(array_agg));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(element.id)), SqlType::Of(TypeId::kInt4), location));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(element.element)), SqlType::Of(TypeId::kInt4), location));
  return Call(Func::kJsonAgg, SqlType::Of(name == "jsonb_agg" ? TypeId::kJsonb : TypeId::kJson), std::move(args), location);
}

ExprPtr MakeJsonObjectAgg(std::string_view name, ExprPtr keys, ExprPtr values, int location) {
  keys = EnumsAsText(std::move(keys));
  values = EnumsAsText(std::move(values));
  const TypeId key = keys->type.element;
  const SqlType value = values->type.Element();
  std::vector<ExprPtr> args;
  args.push_back(std::move(keys));
  args.push_back(std::move(values));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(key)), SqlType::Of(TypeId::kInt4), location));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(value.id)), SqlType::Of(TypeId::kInt4), location));
  args.push_back(MakeConst(Datum::Int(static_cast<int>(value.element)), SqlType::Of(TypeId::kInt4), location));
  return Call(Func::kJsonObjectAgg, SqlType::Of(name == "jsonb_object_agg" ? TypeId::kJsonb : TypeId::kJson), std::move(args),
              location);
}

bool IsJsonSetFunction(std::string_view name) {
  for (std::string_view base : {"array_elements", "array_elements_text", "object_keys", "each", "each_text"})
    for (std::string_view prefix : {"json_", "jsonb_"})
      if (name.size() == prefix.size() + base.size() && name.starts_with(prefix) && name.ends_with(base)) return true;
  return false;
}

void RewriteJsonSetFunction(std::string_view name, std::vector<ExprPtr>& args, int location,
                            std::vector<std::string>& column_names) {
  const bool jsonb = name.starts_with("jsonb_");
  const SqlType json_type = SqlType::Of(jsonb ? TypeId::kJsonb : TypeId::kJson);
  if (args.size() != 1 || !(args[0]->type.is_unknown() || args[0]->type.id == json_type.id)) {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i]->type.BaseName();
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), location)
        .WithHint("No function matches the given name and argument types. You might need to add explicit type casts.");
  }
  ExprPtr j = Coerce(std::move(args[0]), json_type, CastContext::kImplicit);
  args.clear();
  const SqlType int4 = SqlType::Of(TypeId::kInt4);
  const ExprPtr fname = MakeConst(Datum::String(std::string(name)), kTextType, location);
  auto parts = [&](int part, const SqlType& element) {
    std::vector<ExprPtr> call;
    call.push_back(j->Clone());
    call.push_back(MakeConst(Datum::Int(part), int4, location));
    call.push_back(fname->Clone());
    return Call(Func::kJsonObjectParts, SqlType::ArrayOf(element), std::move(call), location);
  };
  if (name.ends_with("array_elements") || name.ends_with("array_elements_text")) {
    const bool text = name.ends_with("_text");
    std::vector<ExprPtr> call;
    call.push_back(std::move(j));
    call.push_back(MakeConst(Datum::Bool(text), SqlType::Of(TypeId::kBool), location));
    call.push_back(fname->Clone());
    args.push_back(Call(Func::kJsonArrayItems, SqlType::ArrayOf(text ? kTextType : json_type), std::move(call), location));
    column_names = {"value"};
  } else if (name.ends_with("object_keys")) {
    args.push_back(parts(0, kTextType));
    column_names = {std::string(name)};
  } else {
    const bool text = name.ends_with("_text");
    args.push_back(parts(0, kTextType));
    args.push_back(parts(text ? 2 : 1, text ? kTextType : json_type));
    column_names = {"key", "value"};
  }
}

}  // namespace caracal::planner
