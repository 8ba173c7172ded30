#include "planner/binder/expr_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "planner/catalog/catalog.h"
#include "planner/catalog/system_views.h"
#include "planner/expr/constant_folding.h"
#include "planner/expr/datetime_builtins.h"
#include "planner/expr/functions.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/qualified_name.h"
#include "planner/types/sql_error.h"
#include "planner/binder/datetime_operators.h"
#include "planner/binder/array_functions.h"
#include "planner/binder/json_operators.h"
#include "planner/binder/routine_resolution.h"
#include "planner/binder/type_name.h"

namespace caracal::planner {

namespace {

constexpr const char* kOperatorHint =
    "No operator matches the given name and argument types. You might need to add explicit type casts.";
constexpr const char* kFunctionHint =
    "No function matches the given name and argument types. You might need to add explicit type casts.";

[[noreturn]] void NoOperator(std::string_view name, const SqlType* left, const SqlType& right, int location) {
  std::string sig = left ? fmt::format("{} {} {}", left->BaseName(), name, right.BaseName())
                         : fmt::format("{} {}", name, right.BaseName());
  throw SqlError(sqlstate::kUndefinedFunction, "operator does not exist: " + sig, location).WithHint(kOperatorHint);
}

Op ArithOp(std::string_view name) {
  if (name == "+") return Op::kAdd;
  if (name == "-") return Op::kSub;
  if (name == "*") return Op::kMul;
  if (name == "/") return Op::kDiv;
  if (name == "%") return Op::kMod;
  return Op::kNone;
}

Op CompareOp(std::string_view name) {
  if (name == "=") return Op::kEq;
  if (name == "<>" || name == "!=") return Op::kNe;
  if (name == "<") return Op::kLt;
  if (name == "<=") return Op::kLe;
  if (name == ">") return Op::kGt;
  if (name == ">=") return Op::kGe;
  return Op::kNone;
}

ExprPtr CastTo(ExprPtr e, const SqlType& t) { return Coerce(std::move(e), t, CastContext::kImplicit); }


// array_append (args: array, element), array_prepend (element, array) or array_cat
// (array, array), typed as PostgreSQL 14+ types these anycompatible functions: the
// elements' common type, the array's typmod dropped; an unknown argument takes its type
// from the other. nullptr, with `args` left as they were, when the types do not fit (the
// caller names the missing function or operator).
ExprPtr MakeArrayFunction(Func func, std::vector<ExprPtr>& args, int location) {
  if (args.size() != 2) return nullptr;
  auto array_side = [&](size_t i) { return func == Func::kArrayCat || (func == Func::kArrayAppend) == (i == 0); };
  std::vector<SqlType> elements;
  for (size_t i = 0; i < 2; ++i) {
    const SqlType& t = args[i]->type;
    if (t.is_unknown()) continue;
    if (t.is_array() != array_side(i)) return nullptr;
    elements.push_back(t.is_array() ? t.Element().Base() : t);
  }
  SqlType element;
  try {
    element = CommonType(elements, "array", location);
  } catch (const SqlError&) {
    return nullptr;
  }
  std::vector<SqlType> targets;
  for (size_t i = 0; i < 2; ++i) targets.push_back(array_side(i) ? SqlType::ArrayOf(element) : element);
  for (size_t i = 0; i < 2; ++i)
    if (CastContextFor(args[i]->type, targets[i]) != CastContext::kImplicit) return nullptr;
  auto e = MakeExpr(ExprKind::kFunc, SqlType::ArrayOf(element), location);
  e->func = func;
  for (size_t i = 0; i < 2; ++i) e->args.push_back(CastTo(std::move(args[i]), targets[i]));
  return e;
}

// Operand type for comparing `a` and `b`, or nullopt if they are not comparable.
std::optional<SqlType> ComparisonType(const SqlType& a, const SqlType& b) {
  if (a.is_unknown() && b.is_unknown()) return SqlType::Of(TypeId::kText);
  if (a.is_unknown()) return b.Base();
  if (b.is_unknown()) return a.Base();
  if (a.is_numeric_category() && b.is_numeric_category()) return PromoteNumeric(a, b);
  if (a.is_string() && b.is_string())
    return a.id == TypeId::kBpchar && b.id == TypeId::kBpchar ? SqlType::Of(TypeId::kBpchar) : SqlType::Of(TypeId::kText);
  if (a.is_array() || b.is_array()) {
    if (a.is_array() && b.is_array() && a.SameBase(b)) return a.Base();
    return std::nullopt;
  }
  if (a.SameBase(b)) return a.Base();
  if (a.is_datetime() && b.is_datetime()) {
    // date < timestamp < timestamptz: the comparison is in the wider one.
    if (CastContextFor(a, b) == CastContext::kImplicit) return b.Base();
    if (CastContextFor(b, a) == CastContext::kImplicit) return a.Base();
  }
  return std::nullopt;
}

// Brings both operands to the comparison type (integers of any width compare as int64,
// varchar/text as bytes, so those need no cast node).
// Whether a comparison in type `t` takes an operand of `type` as it is: integers of any
// width compare as int64, varchar as text.
bool ComparesAs(const SqlType& type, const SqlType& t) {
  return type.id == t.id || (t.is_integer() && type.is_integer()) ||
         (t.id == TypeId::kText && (type.id == TypeId::kVarchar || type.id == TypeId::kText));
}

void AlignOperands(ExprPtr& l, ExprPtr& r, const SqlType& t) {
  if (!ComparesAs(l->type, t)) l = CastTo(std::move(l), t);
  if (!ComparesAs(r->type, t)) r = CastTo(std::move(r), t);
}

}  // namespace

ExprPtr OutputText(ExprPtr e) {
  if (e->type.id == TypeId::kBpchar) return e;
  if (e->type.id != TypeId::kBool) return Coerce(std::move(e), SqlType::Of(TypeId::kText), CastContext::kAssignment);
  auto out = MakeExpr(ExprKind::kFunc, SqlType::Of(TypeId::kText), e->location);
  out->func = Func::kBoolOut;
  out->args.push_back(std::move(e));
  return out;
}

int NodeLocation(const PgQuery__Node* n) {
  if (!n) return -1;
  switch (n->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return n->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF: return n->column_ref->location;
    case PG_QUERY__NODE__NODE_A_EXPR: return n->a_expr->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL: return n->func_call->location;
    case PG_QUERY__NODE__NODE_TYPE_CAST: return n->type_cast->location;
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return n->bool_expr->location;
    case PG_QUERY__NODE__NODE_NULL_TEST: return n->null_test->location;
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: return n->boolean_test->location;
    case PG_QUERY__NODE__NODE_CASE_EXPR: return n->case_expr->location;
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: return n->coalesce_expr->location;
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: return n->min_max_expr->location;
    case PG_QUERY__NODE__NODE_PARAM_REF: return n->param_ref->location;
    case PG_QUERY__NODE__NODE_SUB_LINK: return n->sub_link->location;
    case PG_QUERY__NODE__NODE_RES_TARGET: return n->res_target->location;
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: return n->sqlvalue_function->location;
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return n->a_array_expr->location;
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return NodeLocation(n->a_indirection->arg);
    default: return -1;
  }
}

SqlError NoSuchFunction(std::string_view name, std::span<const ExprPtr> args, int location) {
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i]->type.BaseName();
  return SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), location)
      .WithHint(kFunctionHint);
}

ExprPtr RequireBoolean(ExprPtr e, std::string_view clause) {
  if (e->type.id == TypeId::kBool) return e;
  if (e->type.is_unknown()) return Coerce(std::move(e), SqlType::Of(TypeId::kBool), CastContext::kImplicit);
  throw SqlError(sqlstate::kDatatypeMismatch,
                 fmt::format("argument of {} must be type boolean, not type {}", clause, e->type.BaseName()),
                 e->location);
}

ExprPtr MakeOperator(std::string_view name, ExprPtr l, ExprPtr r, int location) {
  SqlType lt = l->type, rt = r->type;
  if (ExprPtr e = MakeJsonOperator(name, l, r, location)) return e;
  if (ExprPtr e = MakeArrayOperator(name, l, r, location)) return e;
  if (Op op = CompareOp(name); op != Op::kNone) {
    std::optional<SqlType> t = ComparisonType(lt, rt);
    // json has no comparison operators (jsonb compares by its canonical text).
    if (!t || t->id == TypeId::kJson) NoOperator(name, &lt, rt, location);
    AlignOperands(l, r, *t);
    auto e = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool), location);
    e->op = op;
    e->args.push_back(std::move(l));
    e->args.push_back(std::move(r));
    return e;
  }
  if (name == "||" && (lt.is_array() || rt.is_array())) {
    // An unknown literal beside an array is an array ('{3,4}'), as PostgreSQL resolves it.
    Func func = lt.is_array() && rt.is_array() ? Func::kArrayCat
                : lt.is_array()                ? (rt.is_unknown() ? Func::kArrayCat : Func::kArrayAppend)
                                               : (lt.is_unknown() ? Func::kArrayCat : Func::kArrayPrepend);
    std::vector<ExprPtr> args;
    args.push_back(std::move(l));
    args.push_back(std::move(r));
    ExprPtr e = MakeArrayFunction(func, args, location);
    if (!e) NoOperator(name, &lt, rt, location);
    return e;
  }
  const auto bytea_or_unknown = [](const SqlType& t) { return t.id == TypeId::kBytea || t.is_unknown(); };
  if (name == "||" && (lt.id == TypeId::kBytea || rt.id == TypeId::kBytea) && bytea_or_unknown(lt) && bytea_or_unknown(rt)) {
    // byteacat: the bytes one after the other.
    auto e = MakeExpr(ExprKind::kConcat, SqlType::Of(TypeId::kBytea), location);
    e->args.push_back(Coerce(std::move(l), SqlType::Of(TypeId::kBytea), CastContext::kImplicit));
    e->args.push_back(Coerce(std::move(r), SqlType::Of(TypeId::kBytea), CastContext::kImplicit));
    return e;
  }
  if (name == "||") {
    // text || text, and anynonarray || text: the non-text side goes through its output function.
    if (!(lt.is_string() || lt.is_unknown() || rt.is_string() || rt.is_unknown())) NoOperator(name, &lt, rt, location);
    auto e = MakeExpr(ExprKind::kConcat, SqlType::Of(TypeId::kText), location);
    e->args.push_back(Coerce(std::move(l), SqlType::Of(TypeId::kText), CastContext::kAssignment));
    e->args.push_back(Coerce(std::move(r), SqlType::Of(TypeId::kText), CastContext::kAssignment));
    return e;
  }
  Op op = ArithOp(name);
  if (name == "^") {
    if (!(lt.is_numeric_category() || lt.is_unknown()) || !(rt.is_numeric_category() || rt.is_unknown()))
      NoOperator(name, &lt, rt, location);
    auto e = MakeExpr(ExprKind::kFunc, SqlType::Of(TypeId::kFloat8), location);
    e->func = Func::kPower;
    e->args.push_back(CastTo(std::move(l), SqlType::Of(TypeId::kFloat8)));
    e->args.push_back(CastTo(std::move(r), SqlType::Of(TypeId::kFloat8)));
    return e;
  }
  if (op == Op::kNone) NoOperator(name, &lt, rt, location);
  if (ExprPtr e = MakeDateTimeArithmetic(op, name, l, r, location)) return e;
  if (lt.is_unknown() && rt.is_unknown())
    throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("operator is not unique: unknown {} unknown", name), location)
        .WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.");
  SqlType t;
  if (lt.is_unknown() && rt.is_numeric_category()) t = rt.Base();
  else if (rt.is_unknown() && lt.is_numeric_category()) t = lt.Base();
  else if (lt.is_numeric_category() && rt.is_numeric_category()) t = PromoteNumeric(lt, rt);
  else NoOperator(name, &lt, rt, location);
  if (op == Op::kMod && t.is_float()) NoOperator(name, &t, t, location);
  AlignOperands(l, r, t);
  auto e = MakeExpr(ExprKind::kArith, t, location);
  e->op = op;
  e->args.push_back(std::move(l));
  e->args.push_back(std::move(r));
  return e;
}

ExprPtr ExprBinder::Bind(const PgQuery__Node* node) {
  ExprPtr e = BindNode(node);
  if (fold_constants_) FoldConstantNode(*e);
  return e;
}

ExprPtr ExprBinder::BindNode(const PgQuery__Node* node) {
  if (!node) throw SqlError(sqlstate::kInternalError, "missing expression");
  int location = NodeLocation(node);
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return BindConst(node);
    case PG_QUERY__NODE__NODE_COLUMN_REF: return BindColumnRef(node);
    case PG_QUERY__NODE__NODE_A_EXPR: return BindAExpr(node);
    case PG_QUERY__NODE__NODE_FUNC_CALL: return BindFuncCall(node);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return BindTypeCast(node);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return BindBool(node);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return BindCase(node);
    case PG_QUERY__NODE__NODE_NULL_TEST: {
      auto e = MakeExpr(ExprKind::kIsNull, SqlType::Of(TypeId::kBool), location);
      e->negated = node->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
      e->args.push_back(Bind(node->null_test->arg));
      return e;
    }
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
      auto e = MakeExpr(ExprKind::kBoolTest, SqlType::Of(TypeId::kBool), location);
      switch (node->boolean_test->booltesttype) {
        case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: e->op = Op::kEq; break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: e->op = Op::kEq; e->negated = true; break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: e->op = Op::kNe; break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: e->op = Op::kNe; e->negated = true; break;
        case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: e->op = Op::kLt; break;
        default: e->op = Op::kLt; e->negated = true; break;
      }
      const char* what = e->op == Op::kEq ? "IS TRUE" : e->op == Op::kNe ? "IS FALSE" : "IS UNKNOWN";
      e->args.push_back(RequireBoolean(Bind(node->boolean_test->arg), what));
      return e;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: {
      std::vector<ExprPtr> items;
      for (size_t i = 0; i < node->coalesce_expr->n_args; ++i) items.push_back(Bind(node->coalesce_expr->args[i]));
      return BindList(std::move(items), ExprKind::kCoalesce, "COALESCE", location);
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: {
      std::vector<ExprPtr> items;
      for (size_t i = 0; i < node->min_max_expr->n_args; ++i) items.push_back(Bind(node->min_max_expr->args[i]));
      bool greatest = node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;
      return BindList(std::move(items), greatest ? ExprKind::kGreatest : ExprKind::kLeast,
                      greatest ? "GREATEST" : "LEAST", location);
    }
    case PG_QUERY__NODE__NODE_PARAM_REF: {
      std::optional<NameBinding> b = scope_ ? scope_->LookupParameter(node->param_ref->number, location) : std::nullopt;
      if (!b) throw SqlError("42P02", fmt::format("there is no parameter ${}", node->param_ref->number), location);
      return MakeSlot(b->slot, b->type, location);
    }
    case PG_QUERY__NODE__NODE_SUB_LINK: return BindSubLink(node);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      switch (node->sqlvalue_function->op) {
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N: return BindNow(location);
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N: return BindNow(location, TypeId::kTimestamp);
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: return BindNow(location, TypeId::kDate);
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N: return BindNow(location, TypeId::kTime);
        default: throw NotSupported("CURRENT_TIME (time with time zone), CURRENT_USER and similar functions", location);
      }
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return BindArray(node);
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return BindIndirection(node);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: {
      ExprPtr e = Bind(node->collate_clause->arg);
      CheckCollation(node->collate_clause, e->type);
      return e;
    }
    case PG_QUERY__NODE__NODE_ROW_EXPR: throw NotSupported("row constructors", location);
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      throw NotSupported("GROUPING()", node->grouping_func->location)
          .WithHint("Tell a rolled-up row from a NULL key by the key's IS NULL where the data has no NULLs.");
    default: throw NotSupported("this kind of expression", location);
  }
}

ExprPtr ExprBinder::BindConst(const PgQuery__Node* node) {
  const PgQuery__AConst* c = node->a_const;
  int loc = c->location;
  if (c->isnull) return MakeConst(Datum::Null(), SqlType::Of(TypeId::kUnknown), loc);
  switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL: return MakeConst(Datum::Int(c->ival->ival), SqlType::Of(TypeId::kInt4), loc);
    case PG_QUERY__A__CONST__VAL_FVAL: {
      std::string_view text = c->fval->fval;
      // Integers too wide for the lexer's int4 arrive as "floats": int8 if they fit, else
      // numeric. As PostgreSQL's make_const, one that fits int4 after all (-2147483648, a
      // negated literal the grammar folds) is an int4.
      if (text.find_first_of(".eE") == std::string_view::npos) {
        std::optional<Datum> wide;
        try {
          wide = DatumFromText(text, SqlType::Of(TypeId::kInt8));
        } catch (const SqlError&) {
        }
        if (wide) {
          const bool int4 = wide->i >= INT32_MIN && wide->i <= INT32_MAX;
          return MakeConst(*wide, SqlType::Of(int4 ? TypeId::kInt4 : TypeId::kInt8), loc);
        }
      }
      std::optional<Numeric> n = Numeric::Parse(text);
      if (!n) {
        // Beyond the 38 digits Numeric holds (1e308, 1e-300): keep it as a double rather
        // than refuse it; PostgreSQL would type it numeric.
        Datum d = DatumFromText(text, SqlType::Of(TypeId::kFloat8));
        return MakeConst(d, SqlType::Of(TypeId::kFloat8), loc);
      }
      return MakeConst(Datum::Num(*n), SqlType::Of(TypeId::kNumeric), loc);
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      return MakeConst(Datum::Bool(c->boolval->boolval), SqlType::Of(TypeId::kBool), loc);
    case PG_QUERY__A__CONST__VAL_SVAL:
      return MakeConst(Datum::String(c->sval->sval), SqlType::Of(TypeId::kUnknown), loc);
    default: throw NotSupported("bit-string constants", loc);
  }
}

ExprPtr ExprBinder::BindColumnRef(const PgQuery__Node* node) {
  const PgQuery__ColumnRef* ref = node->column_ref;
  std::vector<std::string> names;
  for (size_t i = 0; i < ref->n_fields; ++i) {
    if (ref->fields[i]->node_case == PG_QUERY__NODE__NODE_A_STAR)
      throw SqlError(sqlstate::kFeatureNotSupported, "a * is not allowed in this position", ref->location);
    names.push_back(StringValue(ref->fields[i]));
  }
  std::optional<NameBinding> b = scope_ ? scope_->Lookup(names, ref->location) : std::nullopt;
  if (!b) {
    if (names.size() > 1)
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("missing FROM-clause entry for table \"{}\"", names[0]),
                     ref->location);
    std::string shown = names.size() == 1 ? fmt::format("\"{}\"", names[0]) : fmt::format("{}.{}", names[0], names[1]);
    throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column {} does not exist", shown), ref->location);
  }
  return MakeSlot(b->slot, b->type, ref->location);
}

namespace {

// a IS DISTINCT FROM b  ==  CASE WHEN a IS NULL THEN b IS NOT NULL WHEN b IS NULL THEN
// true ELSE NOT (a = b) END, and IS NOT DISTINCT FROM its negation; `side(0)` / `side(1)`
// bind a / b again (they have no side effects), `equal` is a = b. Never NULL.
template <typename Side>
ExprPtr DistinctFrom(const Side& side, ExprPtr equal, bool distinct, int location) {
  const SqlType boolean = SqlType::Of(TypeId::kBool);
  auto is_null = [&](int which, bool negated) {
    auto e = MakeExpr(ExprKind::kIsNull, boolean, location);
    e->negated = negated;
    e->args.push_back(side(which));
    return e;
  };
  auto e = MakeExpr(ExprKind::kCase, boolean, location);
  e->args.push_back(is_null(0, false));
  e->args.push_back(is_null(1, distinct));
  e->args.push_back(is_null(1, false));
  e->args.push_back(MakeConst(Datum::Bool(distinct), boolean, location));
  if (distinct) {
    auto n = MakeExpr(ExprKind::kNot, boolean, location);
    n->args.push_back(std::move(equal));
    equal = std::move(n);
  }
  e->args.push_back(std::move(equal));
  return e;
}

}  // namespace

std::optional<RecordBinding> ExprBinder::RecordRef(const PgQuery__Node* n) const {
  if (scope_ == nullptr || n == nullptr) return std::nullopt;
  if (n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR && n->row_expr->n_args == 1) n = n->row_expr->args[0];
  if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return std::nullopt;
  const PgQuery__ColumnRef* ref = n->column_ref;
  if (ref->n_fields < 1 || ref->n_fields > 2 || ref->fields[0]->node_case != PG_QUERY__NODE__NODE_STRING) return std::nullopt;
  if (ref->n_fields == 2 && ref->fields[1]->node_case != PG_QUERY__NODE__NODE_A_STAR) return std::nullopt;
  const std::string name = ref->fields[0]->string->sval;
  if (ref->n_fields == 1 && scope_->Lookup(std::span(&name, 1), ref->location)) return std::nullopt;
  return scope_->LookupRecord(name);
}

ExprPtr ExprBinder::RecordAsJson(const RecordBinding& r, bool jsonb, int location) {
  std::vector<ExprPtr> args;
  for (const auto& [field, b] : r.fields) {
    args.push_back(MakeConst(Datum::String(field), SqlType::Of(TypeId::kText), location));
    args.push_back(MakeSlot(b.slot, b.type, location));
  }
  ExprPtr object = MakeJsonFunction(jsonb ? "jsonb_build_object" : "json_build_object", std::move(args), location);
  if (!jsonb) object->func = Func::kJsonRow;
  if (!r.is_null) return object;
  auto e = MakeExpr(ExprKind::kCase, object->type, location);
  e->args.push_back(MakeSlot(r.is_null->slot, r.is_null->type, location));
  e->args.push_back(MakeConst(Datum::Null(), object->type, location));
  e->args.push_back(std::move(object));
  return e;
}

ExprPtr ExprBinder::CompareRecords(const RecordBinding& l, const RecordBinding& r, std::string_view op, int location) {
  if (l.fields.size() != r.fields.size())
    throw SqlError(sqlstate::kDatatypeMismatch, "cannot compare record types with different numbers of columns", location);
  const SqlType boolean = SqlType::Of(TypeId::kBool);
  const bool any = op == "distinct" || op == "<>" || op == "!=";
  auto all = MakeExpr(any ? ExprKind::kOr : ExprKind::kAnd, boolean, location);
  for (size_t i = 0; i < l.fields.size(); ++i) {
    const NameBinding& a = l.fields[i].second;
    const NameBinding& b = r.fields[i].second;
    auto side = [&](const NameBinding& x) { return MakeSlot(x.slot, x.type, location); };
    if (op == "distinct" || op == "not distinct") {
      auto field = [&](int which) { return side(which == 0 ? a : b); };
      all->args.push_back(DistinctFrom(field, MakeOperator("=", side(a), side(b), location), op == "distinct", location));
    } else {
      all->args.push_back(MakeOperator(any ? "<>" : "=", side(a), side(b), location));
    }
  }
  if (all->args.empty()) return MakeConst(Datum::Bool(!any), boolean, location);
  return all->args.size() == 1 ? std::move(all->args[0]) : std::move(all);
}

ExprPtr ExprBinder::BindAExpr(const PgQuery__Node* node) {
  const PgQuery__AExpr* a = node->a_expr;
  int loc = a->location;
  std::string name = a->n_name > 0 ? StringValue(a->name[a->n_name - 1]) : "";
  // Two whole records compared (NEW IS DISTINCT FROM OLD in a trigger).
  if (a->lexpr && a->rexpr &&
      (a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT || a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT ||
       (a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP && (name == "=" || name == "<>" || name == "!="))))
    if (std::optional<RecordBinding> l = RecordRef(a->lexpr))
      if (std::optional<RecordBinding> r = RecordRef(a->rexpr))
        return CompareRecords(*l, *r,
                              a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT       ? "distinct"
                              : a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT ? "not distinct"
                                                                                       : name,
                              loc);
  switch (a->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP: {
      if (!a->lexpr) {  // prefix operator
        ExprPtr r = Bind(a->rexpr);
        if (name == "+" && (r->type.is_numeric_category() || r->type.is_unknown())) return r;
        if (name == "-" && r->type.id == TypeId::kInterval) {
          // interval_um: 0 - x, exactly.
          ExprPtr zero = MakeConst(Datum::Interval({}), SqlType::Of(TypeId::kInterval), loc);
          return MakeOperator("-", std::move(zero), std::move(r), loc);
        }
        if (name != "-" || !(r->type.is_numeric_category() || r->type.is_unknown())) NoOperator(name, nullptr, r->type, loc);
        if (r->type.is_unknown()) r = CastTo(std::move(r), SqlType::Of(TypeId::kFloat8));
        auto e = MakeExpr(ExprKind::kArith, r->type.Base(), loc);
        e->op = Op::kNeg;
        e->args.push_back(std::move(r));
        return e;
      }
      if (a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR || a->rexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
        return BindRowComparison(name, a->lexpr, a->rexpr, loc);
      ExprPtr l = Bind(a->lexpr);
      ExprPtr r = Bind(a->rexpr);
      return MakeOperator(name, std::move(l), std::move(r), loc);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: {
      ExprPtr l = Bind(a->lexpr);
      ExprPtr r = Bind(a->rexpr);
      auto text = SqlType::Of(TypeId::kText);
      if (!(l->type.is_string() || l->type.is_unknown()) || !(r->type.is_string() || r->type.is_unknown()))
        NoOperator(name, &l->type, r->type, loc);
      auto e = MakeExpr(ExprKind::kLike, SqlType::Of(TypeId::kBool), loc);
      e->negated = name[0] == '!';
      e->case_insensitive = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE;
      e->args.push_back(CastTo(std::move(l), text));
      e->args.push_back(CastTo(std::move(r), text));
      return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
      const PgQuery__List* list = a->rexpr->list;
      if (a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        // (a, b) IN ((1, 2), (3, 4)): an OR of row equalities (NOT IN: an AND of <>).
        const bool negated = name == "<>";
        auto e = MakeExpr(negated ? ExprKind::kAnd : ExprKind::kOr, SqlType::Of(TypeId::kBool), loc);
        for (size_t i = 0; i < list->n_items; ++i)
          e->args.push_back(BindRowComparison(negated ? "<>" : "=", a->lexpr, list->items[i], loc));
        return e;
      }
      std::vector<ExprPtr> items;
      items.push_back(Bind(a->lexpr));
      for (size_t i = 0; i < list->n_items; ++i) items.push_back(Bind(list->items[i]));
      std::vector<SqlType> types;
      for (const auto& it : items) types.push_back(it->type);
      SqlType t = CommonType(types, "IN", loc);
      if (t.id == TypeId::kBpchar) {
        for (const auto& it : items)
          if (it->type.id != TypeId::kBpchar && !it->type.is_unknown()) t = SqlType::Of(TypeId::kText);
      }
      auto e = MakeExpr(ExprKind::kIn, SqlType::Of(TypeId::kBool), loc);
      e->negated = name == "<>";
      for (auto& it : items) e->args.push_back(CastTo(std::move(it), t));
      return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: {
      const PgQuery__List* list = a->rexpr->list;
      bool negated = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN ||
                     a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
      bool symmetric = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM ||
                       a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
      // x BETWEEN a AND b  ==  x >= a AND x <= b (x is bound twice: it has no side effects).
      auto range = [&](const PgQuery__Node* lo, const PgQuery__Node* hi) {
        auto e = MakeExpr(ExprKind::kAnd, SqlType::Of(TypeId::kBool), loc);
        e->args.push_back(MakeOperator(">=", Bind(a->lexpr), Bind(lo), loc));
        e->args.push_back(MakeOperator("<=", Bind(a->lexpr), Bind(hi), loc));
        return e;
      };
      ExprPtr e = range(list->items[0], list->items[1]);
      if (symmetric) {
        auto either = MakeExpr(ExprKind::kOr, SqlType::Of(TypeId::kBool), loc);
        either->args.push_back(std::move(e));
        either->args.push_back(range(list->items[1], list->items[0]));
        e = std::move(either);
      }
      if (negated) {
        auto n = MakeExpr(ExprKind::kNot, SqlType::Of(TypeId::kBool), loc);
        n->args.push_back(std::move(e));
        e = std::move(n);
      }
      return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      ExprPtr l = Bind(a->lexpr);
      ExprPtr r = Bind(a->rexpr);
      std::optional<SqlType> t = ComparisonType(l->type, r->type);
      if (!t) NoOperator("=", &l->type, r->type, loc);
      SqlType result = l->type.is_unknown() ? *t : l->type.Base();
      auto e = MakeExpr(ExprKind::kNullIf, result, loc);
      if (l->type.is_unknown()) l = CastTo(std::move(l), *t);
      AlignOperands(l, r, *t);
      e->args.push_back(std::move(l));
      e->args.push_back(std::move(r));
      return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
      // Both sides are bound more than once, as BETWEEN's.
      auto side = [&](int which) { return Bind(which == 0 ? a->lexpr : a->rexpr); };
      return DistinctFrom(side, MakeOperator("=", Bind(a->lexpr), Bind(a->rexpr), loc),
                          a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT, loc);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: {
      const bool all = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL;
      if (a->rexpr && a->rexpr->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
        throw NotSupported(fmt::format("{} with a subquery", all ? "ALL" : "ANY"), loc);
      const Op op = CompareOp(name);
      if (op == Op::kNone) {
        if (ArithOp(name) != Op::kNone || name == "||")
          throw SqlError("42809", "op ANY/ALL (array) requires operator to yield boolean", loc);
        throw NotSupported(fmt::format("the operator {} with ANY/ALL", name), loc);
      }
      ExprPtr l = Bind(a->lexpr);
      ExprPtr r = Bind(a->rexpr);
      // An unknown literal is an array of the other side's type ('{1,2}'), as PostgreSQL
      // resolves it.
      if (r->type.is_unknown())
        r = CastTo(std::move(r), SqlType::ArrayOf(l->type.is_unknown() ? SqlType::Of(TypeId::kText) : l->type.Base()));
      if (!r->type.is_array())
        throw SqlError("42809", "op ANY/ALL (array) requires array on right side", loc);
      const SqlType element = r->type.Element();
      std::optional<SqlType> t = ComparisonType(l->type, element);
      if (!t) NoOperator(name, &l->type, element, loc);
      // Both sides in the comparison's type, as AlignOperands puts a plain one's.
      if (!ComparesAs(l->type, *t)) l = CastTo(std::move(l), *t);
      if (!ComparesAs(element, *t)) r = CastTo(std::move(r), SqlType::ArrayOf(*t));
      auto e = MakeExpr(ExprKind::kAnyAll, SqlType::Of(TypeId::kBool), loc);
      e->op = op;
      e->negated = all;
      e->args.push_back(std::move(l));
      e->args.push_back(std::move(r));
      return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: throw NotSupported("SIMILAR TO", loc);
    default: throw NotSupported("this operator", loc);
  }
}

ExprPtr ExprBinder::BindList(std::vector<ExprPtr> items, ExprKind kind, std::string_view construct, int location) {
  std::vector<SqlType> types;
  for (const auto& it : items) types.push_back(it->type);
  SqlType t = WithCommonTypmod(CommonType(types, construct, location), types);
  auto e = MakeExpr(kind, t, location);
  for (auto& it : items) e->args.push_back(CastTo(std::move(it), t));
  return e;
}

ExprPtr ExprBinder::BindBool(const PgQuery__Node* node) {
  const PgQuery__BoolExpr* b = node->bool_expr;
  ExprKind kind = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? ExprKind::kAnd
                  : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? ExprKind::kOr
                                                                   : ExprKind::kNot;
  const char* name = kind == ExprKind::kAnd ? "AND" : kind == ExprKind::kOr ? "OR" : "NOT";
  auto e = MakeExpr(kind, SqlType::Of(TypeId::kBool), b->location);
  for (size_t i = 0; i < b->n_args; ++i) e->args.push_back(RequireBoolean(Bind(b->args[i]), name));
  return e;
}

ExprPtr ExprBinder::BindCase(const PgQuery__Node* node) {
  const PgQuery__CaseExpr* c = node->case_expr;
  std::vector<ExprPtr> conditions, results;
  for (size_t i = 0; i < c->n_args; ++i) {
    const PgQuery__CaseWhen* w = c->args[i]->case_when;
    if (c->arg) {
      // CASE x WHEN v: the test is x = v.
      conditions.push_back(MakeOperator("=", Bind(c->arg), Bind(w->expr), w->location));
    } else {
      conditions.push_back(RequireBoolean(Bind(w->expr), "CASE/WHEN"));
    }
    results.push_back(Bind(w->result));
  }
  results.push_back(c->defresult ? Bind(c->defresult) : MakeConst(Datum::Null(), SqlType::Of(TypeId::kUnknown)));
  std::vector<SqlType> types;
  for (const auto& r : results) types.push_back(r->type);
  SqlType t = WithCommonTypmod(CommonType(types, "CASE", c->location), types);
  auto e = MakeExpr(ExprKind::kCase, t, c->location);
  for (size_t i = 0; i < conditions.size(); ++i) {
    e->args.push_back(std::move(conditions[i]));
    e->args.push_back(CastTo(std::move(results[i]), t));
  }
  e->args.push_back(CastTo(std::move(results.back()), t));
  return e;
}

ExprPtr ExprBinder::BindNow(int location, TypeId type) {
  // Inside a transaction (a procedure, an ad-hoc INSERT / UPDATE / DELETE): the
  // timestamp drawn when it is sequenced, logged with its input.
  std::optional<Slot> slot = scope_ ? scope_->NowSlot() : std::nullopt;
  const SqlType tz = SqlType::Of(TypeId::kTimestampTz);
  ExprPtr now;
  if (slot) {
    now = MakeSlot(*slot, tz, location);
  } else if (defer_now_) {
    now = MakeExpr(ExprKind::kFunc, tz, location);
    now->func = Func::kNow;
  } else {
    now = MakeConst(Datum::Timestamp(WallClockTimestamp()), tz, location);
  }
  if (type == TypeId::kTimestampTz) return now;
  auto cast = MakeExpr(ExprKind::kCast, SqlType::Of(type), location);
  cast->args.push_back(std::move(now));
  return cast;
}

ExprPtr ExprBinder::BindArray(const PgQuery__Node* node) {
  const PgQuery__AArrayExpr* a = node->a_array_expr;
  int loc = a->location;
  if (a->n_elements == 0)
    throw SqlError("42P18", "cannot determine type of empty array", loc)
        .WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].");
  std::vector<ExprPtr> items;
  std::vector<SqlType> types;
  for (size_t i = 0; i < a->n_elements; ++i) {
    if (a->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) throw NotSupported("multidimensional arrays", loc);
    items.push_back(Bind(a->elements[i]));
    if (items.back()->type.is_array()) throw NotSupported("multidimensional arrays", loc);
    types.push_back(items.back()->type);
  }
  SqlType element = CommonType(types, "ARRAY", loc);
  auto e = MakeExpr(ExprKind::kArray, SqlType::ArrayOf(element), loc);
  for (auto& it : items) e->args.push_back(CastTo(std::move(it), element));
  return e;
}

ExprPtr ExprBinder::BindSubscript(const PgQuery__Node* node, int location) {
  ExprPtr sub = Bind(node);
  if (!(sub->type.is_numeric_category() || sub->type.is_unknown()))
    throw SqlError(sqlstate::kDatatypeMismatch, "array subscript must have type integer", location);
  return Coerce(std::move(sub), SqlType::Of(TypeId::kInt4), CastContext::kAssignment);
}

ExprPtr ExprBinder::BindIndirection(const PgQuery__Node* node) {
  const PgQuery__AIndirection* ind = node->a_indirection;
  ExprPtr e = Bind(ind->arg);
  for (size_t i = 0; i < ind->n_indirection; ++i) {
    const PgQuery__Node* step = ind->indirection[i];
    int loc = NodeLocation(ind->arg);
    if (step->node_case != PG_QUERY__NODE__NODE_A_INDICES) throw NotSupported("field selection", loc);
    const PgQuery__AIndices* idx = step->a_indices;
    if (!e->type.is_array())
      throw SqlError(sqlstate::kDatatypeMismatch,
                     fmt::format("cannot subscript type {} because it does not support subscripting", e->type.BaseName()),
                     loc);
    if (idx->is_slice) {
      auto bound = [&](const PgQuery__Node* n) { return n ? BindSubscript(n, NodeLocation(n)) : nullptr; };
      e = MakeArraySlice(std::move(e), bound(idx->lidx), bound(idx->uidx), loc);
      continue;
    }
    ExprPtr sub = BindSubscript(idx->uidx, NodeLocation(idx->uidx));
    // An array subscripted from another bound than 1 (TG_ARGV[0]): the element's position.
    if (const int lower = e->kind == ExprKind::kSlot && scope_ ? scope_->LowerBound(e->slot) : 1; lower != 1)
      sub = MakeOperator("-", std::move(sub), MakeConst(Datum::Int(lower - 1), SqlType::Of(TypeId::kInt4), loc), loc);
    auto s = MakeExpr(ExprKind::kSubscript, e->type.Element().Base(), loc);
    s->args.push_back(std::move(e));
    s->args.push_back(std::move(sub));
    e = std::move(s);
  }
  return e;
}

namespace {

// A relation named by a string constant; errors point at the constant.
RelationText RelationNameAt(std::string_view text, const PgQuery__Node* where) {
  try {
    return RelationNameFromText(text);
  } catch (SqlError& e) {
    e.AtLocation(NodeLocation(where));
    throw;
  }
}

}  // namespace

// 'name'::regclass: there is no oid type here, so a relation is its name as a regclass
// prints it, checked to exist as PostgreSQL
// checks it when the constant is read. Anything but a string constant is refused.
ExprPtr ExprBinder::BindRegclassCast(const PgQuery__TypeCast* tc) {
  const PgQuery__TypeName* tn = tc->type_name;
  if (tn->n_array_bounds > 0 || tn->n_names == 0 || StringValue(tn->names[tn->n_names - 1]) != "regclass") return nullptr;
  if (tn->n_names == 2 && StringValue(tn->names[0]) != "pg_catalog") return nullptr;
  const PgQuery__Node* arg = tc->arg;
  if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST || arg->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
    throw NotSupported("casts to regclass of anything but a string constant", tc->location)
        .WithHint("Relations are named by their names here: use the text itself.");
  const RelationText relation = RelationNameAt(arg->a_const->sval->sval, arg);
  const TableInfo* system_view = relation.in_pg_catalog && catalog_ ? catalog_->FindTable(relation.name) : nullptr;
  if (catalog_ && (relation.in_pg_catalog ? !(system_view && IsSystemView(*system_view)) : !catalog_->RelationExists(relation.name)))
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation.display),
                   NodeLocation(arg));
  return MakeConst(Datum::String(RegclassText(relation.name)), SqlType::Of(TypeId::kText), tc->location);
}

ExprPtr ExprBinder::BindSpecialFunction(const std::string& name, const PgQuery__FuncCall* f) {
  int loc = f->location;
  auto args = [&]() {
    std::vector<ExprPtr> out;
    for (size_t i = 0; i < f->n_args; ++i) out.push_back(Bind(f->args[i]));
    return out;
  };
  auto no_function = [&](const std::vector<ExprPtr>& a) -> SqlError { return NoSuchFunction(name, a, loc); };
  if (name == "now" || name == "transaction_timestamp" || name == "statement_timestamp") {
    if (f->n_args != 0) throw no_function(args());
    return BindNow(loc);
  }
  if (name == "nextval") {
    std::vector<ExprPtr> a = args();
    if (a.size() != 1 || !(a[0]->type.is_string() || a[0]->type.is_unknown())) throw no_function(a);
    auto e = MakeExpr(ExprKind::kNextval, SqlType::Of(TypeId::kInt8), loc);
    ExprPtr sequence = CastTo(std::move(a[0]), SqlType::Of(TypeId::kText));
    // A constant name is checked as PostgreSQL reads a regclass constant, here, and kept
    // as a regclass prints it (read again when the value is drawn, where its existence
    // is checked: a procedure may name a sequence created after it).
    if (sequence->kind == ExprKind::kConst && !sequence->value.is_null()) {
      const RelationText relation = RelationNameAt(sequence->value.s, f->args[0]);
      if (relation.in_pg_catalog)  // no sequence is a system relation
        throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", relation.display),
                       NodeLocation(f->args[0]));
      sequence = MakeConst(Datum::String(RegclassText(relation.name)), SqlType::Of(TypeId::kText), sequence->location);
    }
    e->args.push_back(std::move(sequence));
    return e;
  }
  if (name == "array_length" || name == "array_upper" || name == "array_lower" || name == "cardinality") {
    std::vector<ExprPtr> a = args();
    bool one = name == "cardinality";
    if (a.size() != (one ? 1u : 2u) || !a[0]->type.is_array()) throw no_function(a);
    auto e = MakeExpr(ExprKind::kFunc, SqlType::Of(TypeId::kInt4), loc);
    e->func = one ? Func::kCardinality
              : name == "array_length" ? Func::kArrayLength
              : name == "array_upper"  ? Func::kArrayUpper
                                       : Func::kArrayLower;
    e->args.push_back(std::move(a[0]));
    if (!one) {
      ExprPtr dim = std::move(a[1]);
      if (!(dim->type.is_integer() || dim->type.is_unknown())) throw no_function(a);
      e->args.push_back(CastTo(std::move(dim), SqlType::Of(TypeId::kInt4)));
    }
    return e;
  }
  if (name == "array_append" || name == "array_prepend" || name == "array_cat") {
    std::vector<ExprPtr> a = args();
    Func func = name == "array_append" ? Func::kArrayAppend : name == "array_prepend" ? Func::kArrayPrepend : Func::kArrayCat;
    ExprPtr e = MakeArrayFunction(func, a, loc);
    if (!e) throw no_function(a);
    return e;
  }
  if (name == "pg_typeof") {
    // The argument's type as format_type prints it without modifiers (a domain by its
    // name), known when binding. PostgreSQL's result is a regtype; here its text.
    std::vector<ExprPtr> a = args();
    if (a.size() != 1) throw no_function(a);
    const SqlType& t = a[0]->type;
    return MakeConst(Datum::String(t.domain ? t.Name() : t.Base().Name()), SqlType::Of(TypeId::kText), loc);
  }
  if (name == "enum_first" || name == "enum_last" || name == "enum_range") {
    // anyenum: the arguments' enum type (an unknown literal takes the other's).
    std::vector<ExprPtr> a = args();
    const bool range = name == "enum_range";
    if (a.empty() || a.size() > (range ? 2u : 1u)) throw no_function(a);
    const SqlType* type = nullptr;
    for (const ExprPtr& x : a) {
      if (x->type.is_unknown()) continue;
      if (!x->type.is_enum() || (type && !type->SameBase(x->type))) throw no_function(a);
      type = &x->type;
    }
    if (!type) throw no_function(a);
    const SqlType enum_type = type->Base();
    for (ExprPtr& x : a) x = CastTo(std::move(x), enum_type);
    const Func func = name == "enum_first" ? Func::kEnumFirst : name == "enum_last" ? Func::kEnumLast : Func::kEnumRange;
    return MakeCall(func, range ? SqlType::ArrayOf(enum_type) : enum_type, std::move(a), loc);
  }
  if (name == "format") {
    std::vector<ExprPtr> a = args();
    if (a.empty() || !(a[0]->type.is_string() || a[0]->type.is_unknown())) throw no_function(a);
    auto e = MakeExpr(ExprKind::kFunc, SqlType::Of(TypeId::kText), loc);
    e->func = Func::kFormat;
    for (size_t i = 0; i < a.size(); ++i) {
      // String arguments keep their own text (char(n) its padding, as its output function).
      if (a[i]->type.is_string()) e->args.push_back(std::move(a[i]));
      else e->args.push_back(OutputText(std::move(a[i])));
    }
    return e;
  }
  return nullptr;
}

ExprPtr ExprBinder::BindTypeCast(const PgQuery__Node* node) {
  const PgQuery__TypeCast* tc = node->type_cast;
  if (ExprPtr relation = BindRegclassCast(tc)) return relation;
  SqlType to = ResolveTypeName(tc->type_name, catalog_ ? catalog_ : types_);
  // ARRAY[]::t[]: an empty array takes its type from the cast.
  if (tc->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR && tc->arg->a_array_expr->n_elements == 0) {
    if (!to.is_array())
      throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type unknown[] to {}", to.Name()), tc->location);
    return MakeConst(Datum::Array({}), to, tc->location);
  }
  ExprPtr arg = Bind(tc->arg);
  int loc = tc->location;
  ExprPtr e;
  try {
    e = Coerce(std::move(arg), to, CastContext::kExplicit);
  } catch (const SqlError& error) {
    // PostgreSQL places a cast that cannot be at the cast (its `::` or CAST), not at
    // the value.
    if (error.sqlstate() != sqlstate::kCannotCoerce || loc < 0) throw;
    throw SqlError(error.sqlstate(), error.what(), loc);
  }
  // An explicit cast of a value already of the target type still applies the modifiers.
  if (e->type == to) return e;
  auto cast = MakeExpr(ExprKind::kCast, to, loc);
  cast->explicit_cast = true;
  cast->args.push_back(std::move(e));
  return cast;
}

ExprPtr ExprBinder::BindRowComparison(const std::string& name, const PgQuery__Node* left, const PgQuery__Node* right,
                                      int location) {
  auto items = [&](const PgQuery__Node* n) {
    std::vector<const PgQuery__Node*> out;
    if (n->node_case != PG_QUERY__NODE__NODE_ROW_EXPR) {
      out.push_back(n);
      return out;
    }
    for (size_t i = 0; i < n->row_expr->n_args; ++i) out.push_back(n->row_expr->args[i]);
    return out;
  };
  std::vector<const PgQuery__Node*> l = items(left), r = items(right);
  if (left->node_case != PG_QUERY__NODE__NODE_ROW_EXPR || right->node_case != PG_QUERY__NODE__NODE_ROW_EXPR)
    throw NotSupported("comparing a row constructor with a value that is not one", location);
  if (l.size() != r.size()) throw SqlError(sqlstate::kSyntaxError, "unequal number of entries in row expressions", location);
  const Op op = CompareOp(name);
  if (op == Op::kNone) throw NotSupported(fmt::format("row comparison with operator {}", name), location);
  std::vector<ExprPtr> pairs;
  for (size_t i = 0; i < l.size(); ++i) {
    // The elements' operator: for < <= > >= the strict one but for the last pair.
    std::string element = name;
    if (i + 1 < l.size() && (op == Op::kLe || op == Op::kGe)) element = op == Op::kLe ? "<" : ">";
    pairs.push_back(MakeOperator(element, Bind(l[i]), Bind(r[i]), location));
  }
  auto node = [&](ExprKind kind, std::vector<ExprPtr> args) {
    auto e = MakeExpr(kind, SqlType::Of(TypeId::kBool), location);
    e->args = std::move(args);
    return e;
  };
  if (op == Op::kEq || op == Op::kNe) {
    if (pairs.size() == 1) return std::move(pairs[0]);
    return node(op == Op::kEq ? ExprKind::kAnd : ExprKind::kOr, std::move(pairs));
  }
  // a < b, lexicographically: a1 < b1 OR (a1 = b1 AND (a2 < b2 OR ...)); PostgreSQL's row
  // comparison, NULL as soon as a pair that decides is NULL.
  ExprPtr result = std::move(pairs.back());
  for (size_t i = l.size() - 1; i-- > 0;) {
    std::vector<ExprPtr> tail;
    tail.push_back(MakeOperator("=", Bind(l[i]), Bind(r[i]), location));
    tail.push_back(std::move(result));
    std::vector<ExprPtr> either;
    either.push_back(std::move(pairs[i]));
    either.push_back(node(ExprKind::kAnd, std::move(tail)));
    result = node(ExprKind::kOr, std::move(either));
  }
  return result;
}

ExprPtr ExprBinder::BindSubLink(const PgQuery__Node* node) {
  const PgQuery__SubLink* s = node->sub_link;
  const int loc = s->location;
  if (!no_subqueries_in_.empty())
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("cannot use subquery in {}", no_subqueries_in_), loc);
  if (!subqueries_) throw NotSupported("subqueries", loc);
  auto one_column = [&](const SubqueryBinder::Bound& b) {
    if (b.columns.size() != 1)
      throw SqlError(sqlstate::kSyntaxError, b.columns.size() > 1 ? "subquery must return only one column" : "subquery must return a column", loc);
  };
  // The tested value, or the tested row's values ((a, b) IN (SELECT ...)).
  std::vector<ExprPtr> tests;
  if (s->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK || s->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK) {
    if (s->testexpr && s->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
      const PgQuery__RowExpr* row = s->testexpr->row_expr;
      if (row->n_args < 2 || row->n_args > 255) throw NotSupported("this row comparison with a subquery", loc);
      for (size_t i = 0; i < row->n_args; ++i) tests.push_back(Bind(row->args[i]));
    } else {
      tests.push_back(Bind(s->testexpr));
    }
  }
  SubqueryBinder::Bound bound = subqueries_->BindSubquery(s->subselect, loc);
  auto e = MakeExpr(ExprKind::kSubquery, SqlType::Of(TypeId::kBool), loc);
  e->subplan = bound.subplan;
  switch (s->sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: e->sublink = SubLink::kExists; break;
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
      one_column(bound);
      e->sublink = SubLink::kScalar;
      e->type = bound.columns[0];
      break;
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK:
      one_column(bound);
      if (bound.columns[0].is_array()) throw NotSupported("ARRAY() of an array-valued subquery", loc);
      e->sublink = SubLink::kArray;
      e->type = SqlType::ArrayOf(bound.columns[0].Base());
      break;
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
      if (bound.columns.size() != tests.size())
        throw SqlError(sqlstate::kSyntaxError,
                       bound.columns.size() > tests.size() ? "subquery has too many columns" : "subquery has too few columns",
                       loc);
      std::string name = s->n_oper_name > 0 ? StringValue(s->oper_name[s->n_oper_name - 1]) : "=";
      e->op = CompareOp(name);
      if (e->op == Op::kNone) throw NotSupported(fmt::format("operator {} with ANY/ALL (subquery)", name), loc);
      if (tests.size() > 1 && e->op != Op::kEq && e->op != Op::kNe)
        throw NotSupported(fmt::format("row comparison by {} with a subquery", name), loc);
      for (size_t c = 0; c < tests.size(); ++c) {
        ExprPtr& test = tests[c];
        const SqlType column = bound.columns[c];
        std::optional<SqlType> t = ComparisonType(test->type, column);
        if (!t) NoOperator(name, &test->type, column, loc);
        if (!ComparesAs(test->type, *t)) test = CastTo(std::move(test), *t);
        if (!ComparesAs(column, *t)) subqueries_->CoerceColumn(bound.subplan, c, *t);
        e->args.push_back(std::move(test));
      }
      e->tested_values = static_cast<uint8_t>(tests.size());
      e->sublink = s->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK ? SubLink::kAll : SubLink::kAny;
      break;
    }
    default: throw NotSupported("this kind of subquery", loc);
  }
  for (ExprPtr& p : bound.params) e->args.push_back(std::move(p));
  return e;
}

// gen_random_uuid(), and uuid-ossp's functions, which are here without CREATE EXTENSION
// (unless a user function has the name): uuid_generate_v4 as gen_random_uuid, the
// name-based v3 and v5, the nil and namespace constants.
ExprPtr ExprBinder::BindUuidFunction(const std::string& name, const PgQuery__FuncCall* f) {
  const bool builtin = name == "gen_random_uuid";
  if (!builtin && (!name.starts_with("uuid_") || (catalog_ != nullptr && !catalog_->FindProcedures(name).empty())))
    return nullptr;
  const int loc = f->location;
  const SqlType uuid = SqlType::Of(TypeId::kUuid);
  if ((builtin || name == "uuid_generate_v4") && f->n_args == 0) {
    // Three random() draws, so that the value replays as random()'s do.
    auto e = MakeExpr(ExprKind::kFunc, uuid, loc);
    e->func = Func::kUuidFromDraws;
    for (int i = 0; i < 3; ++i) {
      auto draw = MakeExpr(ExprKind::kFunc, SqlType::Of(TypeId::kFloat8), loc);
      draw->func = Func::kRandom;
      e->args.push_back(std::move(draw));
    }
    return e;
  }
  static constexpr std::pair<std::string_view, std::string_view> kConstants[] = {
      {"uuid_nil", "00000000-0000-0000-0000-000000000000"}, {"uuid_ns_dns", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"},
      {"uuid_ns_url", "6ba7b811-9dad-11d1-80b4-00c04fd430c8"}, {"uuid_ns_oid", "6ba7b812-9dad-11d1-80b4-00c04fd430c8"},
      {"uuid_ns_x500", "6ba7b814-9dad-11d1-80b4-00c04fd430c8"}};
  for (const auto& [constant, text] : kConstants)
    if (name == constant && f->n_args == 0) return MakeConst(DatumFromText(text, uuid), uuid, loc);
  if ((name == "uuid_generate_v3" || name == "uuid_generate_v5") && f->n_args == 2) {
    auto e = MakeExpr(ExprKind::kFunc, uuid, loc);
    e->func = Func::kUuidNameBased;
    e->args.push_back(Coerce(Bind(f->args[0]), uuid, CastContext::kImplicit));
    e->args.push_back(Coerce(Bind(f->args[1]), SqlType::Of(TypeId::kText), CastContext::kImplicit));
    e->args.push_back(MakeConst(Datum::Int(name == "uuid_generate_v5" ? 5 : 3), SqlType::Of(TypeId::kInt4), loc));
    return e;
  }
  return nullptr;
}

ExprPtr ExprBinder::BindRoutineCall(const std::string& name, RoutineArgs args, int location) {
  std::shared_ptr<const ProcedureIr> routine =
      ChooseRoutine(name, catalog_->FindProcedures(name), args, /*call=*/false, /*any_kind=*/false, location);
  if (routine->returns == ProcedureIr::Returns::kTable || routine->returns == ProcedureIr::Returns::kSetOf ||
      routine->result_columns.size() > 1)
    throw NotSupported(fmt::format("calling {}, which returns {}, inside an expression", routine->Signature(),
                                   routine->result_columns.size() > 1 ? "a record" : "a set"),
                       location)
        .WithHint("Call it as SELECT ... FROM f(...), or give it a single result.");
  // A void function's value is NULL (PostgreSQL prints it as an empty string).
  SqlType type = routine->result_columns.empty() ? SqlType::Of(TypeId::kText) : routine->result_columns[0].type;
  return RoutineCallExpr(std::move(routine), args, /*call=*/false, type, location);
}

ExprPtr ExprBinder::BindFuncCall(const PgQuery__Node* node) {
  const PgQuery__FuncCall* f = node->func_call;
  int loc = f->location;
  std::vector<std::string> names = NameList(f->funcname, f->n_funcname);
  if (names.size() > 2 || (names.size() == 2 && names[0] != "pg_catalog" && names[0] != "public"))
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]), loc);
  const std::string& name = names.back();
  if (f->over) {
    if (!subqueries_) throw NotSupported("window functions", loc);
    if (!allow_windows_) {
      std::string where = clause_.empty() ? std::string("here") : "in " + clause_;
      throw SqlError(sqlstate::kWindowingError, "window functions are not allowed " + where, loc);
    }
    if (in_aggregate_) throw SqlError(sqlstate::kGroupingError, "aggregate function calls cannot contain window function calls", loc);
    return subqueries_->BindWindowCall(f, *this);
  }
  if ((name == "to_json" || name == "to_jsonb" || name == "row_to_json") && f->n_args == 1 && !f->agg_star)
    if (std::optional<RecordBinding> r = RecordRef(f->args[0])) return RecordAsJson(*r, name == "to_jsonb", loc);
  if (name == "json_agg" || name == "jsonb_agg") return MakeJsonAgg(name, BindAggregate(node, "array_agg"), loc);
  if ((name == "json_object_agg" || name == "jsonb_object_agg") && f->n_args == 2) {
    // Two array_aggs of the same call, one per argument: their elements pair up.
    auto one_argument = [&](size_t i) {
      PgQuery__FuncCall call = *f;
      call.n_args = 1;
      call.args = &f->args[i];
      PgQuery__Node wrapped = PG_QUERY__NODE__INIT;
      wrapped.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
      wrapped.func_call = &call;
      return BindAggregate(&wrapped, "array_agg");
    };
    ExprPtr keys = one_argument(0);
    ExprPtr values = one_argument(1);
    return MakeJsonObjectAgg(name, std::move(keys), std::move(values), loc);
  }
  if (name == "count" || name == "sum" || name == "min" || name == "max" || name == "avg" || name == "array_agg" ||
      name == "string_agg" || name == "bool_and" || name == "bool_or" || name == "every")
    return BindAggregate(node, name);
  if (f->agg_star) throw SqlError("42809", fmt::format("{}(*) specified, but {} is not an aggregate function", name, name), loc);
  if (ExprPtr uuid = BindUuidFunction(name, f)) return uuid;
  if (const char* why = NonDeterministicReason(name))
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("function {}() is not allowed: {}", name, why), loc)
        .WithHint("Transactions must be deterministic; pass the value in as an argument instead.");
  if (ExprPtr special = BindSpecialFunction(name, f)) return special;
  if (IsArrayBuiltin(name)) {
    std::vector<ExprPtr> array_args;
    for (size_t i = 0; i < f->n_args; ++i) array_args.push_back(Bind(f->args[i]));
    return MakeArrayBuiltin(name, std::move(array_args), loc);
  }
  if (IsJsonFunction(name)) {
    std::vector<ExprPtr> json_args;
    for (size_t i = 0; i < f->n_args; ++i) json_args.push_back(Bind(f->args[i]));
    return MakeJsonFunction(name, std::move(json_args), loc);
  }
  if ((name == "generate_series" || name == "unnest" || IsJsonSetFunction(name)) && subqueries_) {
    if (in_aggregate_)
      throw SqlError(sqlstate::kFeatureNotSupported, "aggregate function calls cannot contain set-returning function calls", loc)
          .WithHint("You might be able to move the set-returning function into a LATERAL FROM item.");
    if (!allow_set_returning_)
      throw SqlError(sqlstate::kFeatureNotSupported,
                     clause_.empty() ? std::string("set-returning functions are not allowed here")
                                     : fmt::format("set-returning functions are not allowed in {}", clause_),
                     loc);
    return subqueries_->BindSetReturningCall(f, *this);
  }
  std::vector<std::shared_ptr<const ProcedureIr>> routines;
  if (catalog_ != nullptr && names[0] != "pg_catalog") routines = catalog_->FindProcedures(name);
  std::vector<ExprPtr> args;
  std::vector<SqlType> types;
  if (!routines.empty()) {
    // A builtin function that takes these arguments comes first (pg_catalog is first on
    // PostgreSQL's search path); otherwise the user function does.
    RoutineArgs routine_args = BindRoutineArgs(f, *this);
    for (const ExprPtr& a : routine_args.exprs) types.push_back(a->type);
    const bool named = std::ranges::any_of(routine_args.names, [](const std::string& n) { return !n.empty(); });
    if (named || !ResolveFunction(name, types)) return BindRoutineCall(name, std::move(routine_args), loc);
    args = std::move(routine_args.exprs);
  } else {
    for (size_t i = 0; i < f->n_args; ++i) {
      args.push_back(Bind(f->args[i]));
      types.push_back(args.back()->type);
    }
  }
  if (name == "pg_get_serial_sequence" && args.size() == 2 && catalog_ != nullptr) {
    // Read from the catalog as the statement is bound (the names must be constants).
    for (const ExprPtr& a : args)
      if (a->kind != ExprKind::kConst || !(a->type.id == TypeId::kText || a->type.id == TypeId::kUnknown ||
                                           a->type.id == TypeId::kVarchar))
        throw SqlError(sqlstate::kFeatureNotSupported, "pg_get_serial_sequence() takes constant names only here", loc);
    if (args[0]->value.is_null() || args[1]->value.is_null()) return MakeConst(Datum::Null(), SqlType::Of(TypeId::kText), loc);
    // Its errors carry no position in PostgreSQL (they are raised as it runs).
    const std::optional<std::string> seq = SerialSequenceName(*catalog_, args[0]->value.s, args[1]->value.s);
    return MakeConst(seq ? Datum::String(*seq) : Datum::Null(), SqlType::Of(TypeId::kText), loc);
  }
  std::optional<FunctionMatch> m = ResolveFunction(name, types);
  if (!m) {
    if (catalog_ != nullptr)
      if (const PendingRoutine* pending = catalog_->FindPendingRoutine(name)) throw pending->error;
    if ((name == "currval" && types.size() == 1) || (name == "lastval" && types.empty()))
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{}() inside a query or a function body is not supported yet", name), loc)
          .WithHint(name == "currval" ? "SELECT currval('s') alone works; in a body, keep nextval()'s value in a variable."
                                      : "SELECT lastval() alone works; in a body, keep nextval()'s value in a variable.");
    std::string sig;
    for (size_t i = 0; i < types.size(); ++i) sig += (i ? ", " : "") + types[i].BaseName();
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), loc)
        .WithHint(kFunctionHint);
  }
  auto e = MakeExpr(ExprKind::kFunc, m->result, loc);
  e->func = m->func;
  if (m->func == Func::kExtract || m->func == Func::kDatePart || m->func == Func::kToChar || m->func == Func::kIsFinite) {
    // Which time type the value is, as a last argument (datetime.h's TimeKind).
    const TypeId t = m->params[m->func == Func::kToChar || m->func == Func::kIsFinite ? 0 : 1].id;
    datetime::TimeKind kind = t == TypeId::kTimestampTz ? datetime::TimeKind::kTimestampTz
                              : t == TypeId::kDate      ? datetime::TimeKind::kDate
                              : t == TypeId::kTime      ? datetime::TimeKind::kTime
                              : t == TypeId::kInterval  ? datetime::TimeKind::kInterval
                                                        : datetime::TimeKind::kTimestamp;
    args.push_back(MakeConst(Datum::Int(static_cast<int>(kind)), SqlType::Of(TypeId::kInt4), loc));
    m->params.push_back(SqlType::Of(TypeId::kInt4));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    // concat() prints each argument with its type's output function; so does
    // concat_ws() after its separator, which is text (a char(n) one loses its blanks).
    if (m->func == Func::kConcat || (m->func == Func::kConcatWs && i > 0)) {
      e->args.push_back(OutputText(std::move(args[i])));
      continue;
    }
    e->args.push_back(Coerce(std::move(args[i]), m->params[i], CastContext::kImplicit));
  }
  // abs/round/... keep the argument's own type where the signature says so.
  return e;
}

ExprPtr ExprBinder::BindAggregate(const PgQuery__Node* node, const std::string& name) {
  ExprPtr e = BindAggregateCall(node, name);
  const PgQuery__FuncCall* f = node->func_call;
  if (f->agg_filter) {
    // FILTER (WHERE cond): over the input row, like the argument; no aggregate inside.
    const bool allowed = allow_aggregates_;
    std::string clause = std::exchange(clause_, "FILTER");
    allow_aggregates_ = false;
    ExprPtr cond;
    try {
      cond = RequireBoolean(Bind(f->agg_filter), "FILTER");
    } catch (...) {
      allow_aggregates_ = allowed;
      clause_ = std::move(clause);
      throw;
    }
    allow_aggregates_ = allowed;
    clause_ = std::move(clause);
    e->args.push_back(std::move(cond));
    e->filtered = true;
  }
  return e;
}

ExprPtr ExprBinder::BindWindowAggregate(const PgQuery__Node* node) {
  // Consumed by BindAggregateCall; reset here too in case binding fails before it.
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{window_aggregate_};
  window_aggregate_ = true;
  return Bind(node);
}

ExprPtr ExprBinder::BindAggregateArgument(const PgQuery__Node* node, bool nested_check) {
  in_aggregate_ = nested_check;
  ExprPtr e;
  try {
    e = Bind(node);
  } catch (...) {
    in_aggregate_ = false;
    throw;
  }
  in_aggregate_ = false;
  return e;
}

ExprPtr ExprBinder::BindStringAgg(const PgQuery__Node* node, ExprPtr e) {
  const PgQuery__FuncCall* f = node->func_call;
  ExprPtr value = BindAggregateArgument(f->args[0], true);
  ExprPtr delimiter = BindAggregateArgument(f->args[1], true);
  auto text = SqlType::Of(TypeId::kText);
  if (!(value->type.is_string() || value->type.is_unknown()) || !(delimiter->type.is_string() || delimiter->type.is_unknown()))
    throw SqlError(sqlstate::kUndefinedFunction,
                   fmt::format("function string_agg({}, {}) does not exist", value->type.BaseName(), delimiter->type.BaseName()),
                   f->location)
        .WithHint(kFunctionHint);
  e->agg = AggFunc::kStringAgg;
  e->type = text;
  if (f->agg_distinct) throw NotSupported("string_agg(DISTINCT ...)", f->location);
  std::vector<ExprPtr> keys = BindAggregateOrder(f, *e, *value);
  // The value compares (for ORDER BY) as text; char(n) keeps its blanks as text output would not.
  e->args.push_back(Coerce(std::move(value), text, CastContext::kImplicit));
  e->args.push_back(Coerce(std::move(delimiter), text, CastContext::kImplicit));
  for (ExprPtr& k : keys) e->args.push_back(std::move(k));
  return e;
}

std::vector<ExprPtr> ExprBinder::BindAggregateOrder(const PgQuery__FuncCall* f, Expr& e, const Expr& value) {
  std::vector<ExprPtr> keys;
  std::vector<uint8_t> order;
  bool default_nulls = true;
  for (size_t i = 0; i < f->n_agg_order; ++i) {
    const PgQuery__SortBy* sb = f->agg_order[i]->sort_by;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) throw NotSupported("ORDER BY ... USING", sb->location);
    const bool descending = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    const bool nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
                                 ? descending
                                 : sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
    default_nulls &= sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT;
    keys.push_back(BindAggregateArgument(sb->node, true));
    if (keys.back()->type.is_unknown()) keys.back() = CastTo(std::move(keys.back()), SqlType::Of(TypeId::kText));
    order.push_back(static_cast<uint8_t>((descending ? Expr::kOrderDescending : 0) | (nulls_first ? Expr::kOrderNullsFirst : 0)));
  }
  if (keys.empty()) return keys;
  // By the value itself: the accumulator sorts the values (unboxed integers included).
  auto by_value = [&](const Expr& k) {
    return k.Equals(value) || (k.kind == ExprKind::kSlot && value.kind == ExprKind::kCast && k.Equals(*value.args[0]));
  };
  if (keys.size() == 1 && default_nulls && by_value(*keys[0])) {
    e.sort = (order[0] & Expr::kOrderDescending) != 0 ? -1 : 1;
    return {};
  }
  if (f->agg_distinct) {
    for (size_t i = 0; i < keys.size(); ++i)
      if (!by_value(*keys[i]))
        throw SqlError("42P10", "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
                       NodeLocation(f->agg_order[i]->sort_by->node));
    throw NotSupported("NULLS FIRST/LAST or repeated keys in the ORDER BY of an aggregate with DISTINCT", f->location);
  }
  e.order = std::move(order);
  return keys;
}

ExprPtr ExprBinder::BindAggregateCall(const PgQuery__Node* node, const std::string& name) {
  const PgQuery__FuncCall* f = node->func_call;
  int loc = f->location;
  if (in_aggregate_) throw SqlError(sqlstate::kGroupingError, "aggregate function calls cannot be nested", loc);
  if (!allow_aggregates_)
    throw SqlError(sqlstate::kGroupingError,
                   clause_.empty() ? std::string("aggregate functions are not allowed here")
                                   : fmt::format("aggregate functions are not allowed in {}", clause_),
                   loc);
  if (f->n_agg_order > 0 && name != "array_agg" && name != "string_agg")
    throw NotSupported("ORDER BY in an aggregate other than array_agg and string_agg", loc);
  auto e = MakeExpr(ExprKind::kAggRef, SqlType::Of(TypeId::kInt8), loc);
  e->distinct = f->agg_distinct;
  if (f->agg_star) {
    if (name != "count")
      throw SqlError("42809", fmt::format("{}(*) specified, but {} is not an aggregate function", name, name), loc);
    e->agg = AggFunc::kCountStar;
    return e;
  }
  if (name == "string_agg" && f->n_args == 2) return BindStringAgg(node, std::move(e));
  if (f->n_args != 1) {
    std::string sig;
    for (size_t i = 0; i < f->n_args; ++i) sig += (i ? ", " : "") + Bind(f->args[i])->type.BaseName();
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, sig), loc)
        .WithHint(kFunctionHint);
  }
  // Over a window, the argument is an expression over groups (it may hold aggregates).
  ExprPtr arg = BindAggregateArgument(f->args[0], !std::exchange(window_aggregate_, false));
  SqlType t = arg->type;
  std::vector<ExprPtr> keys;  // array_agg's ORDER BY keys (BindAggregateOrder)
  auto no_function = [&]() {
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, t.BaseName()), loc)
        .WithHint(kFunctionHint);
  };
  if (name == "array_agg") {
    if (t.is_array()) throw NotSupported("array_agg over arrays", loc);
    if (t.is_unknown()) arg = CastTo(std::move(arg), SqlType::Of(TypeId::kText));
    e->agg = AggFunc::kArrayAgg;
    e->distinct = f->agg_distinct;
    e->type = SqlType::ArrayOf(arg->type.Base());
    keys = BindAggregateOrder(f, *e, *arg);
    if (f->n_agg_order == 0 && f->agg_distinct) e->sort = 1;  // DISTINCT sorts, as PostgreSQL's implementation does
  } else if (name == "count") {
    e->agg = AggFunc::kCount;
  } else if (name == "bool_and" || name == "bool_or" || name == "every") {
    if (t.is_unknown()) arg = CastTo(std::move(arg), SqlType::Of(TypeId::kBool));
    if (arg->type.id != TypeId::kBool) no_function();
    e->agg = name == "bool_or" ? AggFunc::kBoolOr : AggFunc::kBoolAnd;
    e->type = SqlType::Of(TypeId::kBool);
  } else if (name == "string_agg") {
    no_function();
  } else if (name == "sum" || name == "avg") {
    if (t.is_unknown()) {
      throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("function {}(unknown) is not unique", name), loc)
          .WithHint("Could not choose a best candidate function. You might need to add explicit type casts.");
    }
    if (t.id == TypeId::kTime) {  // sum(interval), through time's implicit cast
      arg = CastTo(std::move(arg), SqlType::Of(TypeId::kInterval));
      t = arg->type;
    }
    if (!t.is_numeric_category() && t.id != TypeId::kInterval) no_function();
    e->agg = name == "sum" ? AggFunc::kSum : AggFunc::kAvg;
    if (t.id == TypeId::kInterval) {
      e->type = t.Base();
    } else if (name == "sum") {
      e->type = t.id == TypeId::kInt2 || t.id == TypeId::kInt4 ? SqlType::Of(TypeId::kInt8)
                : t.id == TypeId::kInt8                          ? SqlType::Of(TypeId::kNumeric)
                                                                 : t.Base();
    } else {
      e->type = t.is_float() ? SqlType::Of(TypeId::kFloat8) : SqlType::Of(TypeId::kNumeric);
    }
  } else {  // min / max
    if (t.id == TypeId::kBool) no_function();
    if (t.is_unknown()) arg = CastTo(std::move(arg), SqlType::Of(TypeId::kText));
    e->agg = name == "min" ? AggFunc::kMin : AggFunc::kMax;
    e->type = arg->type.id == TypeId::kVarchar ? SqlType::Of(TypeId::kText) : arg->type.Base();
  }
  e->args.push_back(std::move(arg));
  for (ExprPtr& k : keys) e->args.push_back(std::move(k));
  return e;
}

ExprPtr ExprBinder::BindCondition(const PgQuery__Node* node, std::string_view clause) {
  return RequireBoolean(Bind(node), clause);
}

ExprPtr ExprBinder::BindAssignment(const PgQuery__Node* node, const SqlType& type, std::string_view column) {
  return Coerce(Bind(node), type, CastContext::kAssignment, column);
}

}  // namespace caracal::planner
