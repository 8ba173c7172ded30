#include "planner/binder/call_binder.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/expr/expr_eval.h"
#include "planner/expr/functions.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool IsStar(const PgQuery__Node* n) {
  if (n == nullptr || n->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return false;
  const PgQuery__Node* v = n->res_target->val;
  return v && v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && v->column_ref->n_fields == 1 &&
         v->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

// The column a target of `SELECT ... FROM f(...) [AS alias]` names (`col` or `q.col`,
// q the alias or the function), or "" if it is no plain column reference.
std::string TargetColumn(const PgQuery__Node* n, const std::string& qualifier) {
  if (n == nullptr || n->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return {};
  const PgQuery__Node* v = n->res_target->val;
  if (!v || v->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return {};
  const PgQuery__ColumnRef* ref = v->column_ref;
  for (size_t i = 0; i < ref->n_fields; ++i)
    if (ref->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING) return {};
  if (ref->n_fields == 1) return StringValue(ref->fields[0]);
  if (ref->n_fields == 2 && StringValue(ref->fields[0]) == qualifier) return StringValue(ref->fields[1]);
  return {};
}

// The function call of `SELECT * | columns FROM f(...) [AS alias]`, or null; `qualifier`:
// the name its columns may be qualified with.
const PgQuery__FuncCall* FromFunction(const PgQuery__SelectStmt* s, std::string& qualifier) {
  if (s->n_from_clause != 1 || s->n_target_list == 0) return nullptr;
  const PgQuery__Node* from = s->from_clause[0];
  if (from->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION) return nullptr;
  const PgQuery__RangeFunction* rf = from->range_function;
  if (rf->alias && rf->alias->n_colnames > 0) return nullptr;  // column aliases: the query planner's error
  qualifier = rf->alias && rf->alias->aliasname ? rf->alias->aliasname : "";
  if (rf->n_functions != 1 || rf->functions[0]->node_case != PG_QUERY__NODE__NODE_LIST) return nullptr;
  const PgQuery__List* pair = rf->functions[0]->list;
  if (pair->n_items < 1 || pair->items[0]->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return nullptr;
  const PgQuery__FuncCall* call = pair->items[0]->func_call;
  if (qualifier.empty() && call->n_funcname > 0) qualifier = StringValue(call->funcname[call->n_funcname - 1]);
  // `*` alone, or plain column references (anything else is an ordinary query's).
  if (s->n_target_list == 1 && IsStar(s->target_list[0])) return call;
  for (size_t i = 0; i < s->n_target_list; ++i)
    if (TargetColumn(s->target_list[i], qualifier).empty()) return nullptr;
  return call;
}

bool HasOtherClauses(const PgQuery__SelectStmt* s) {
  return s->where_clause || s->n_group_clause || s->having_clause || s->n_sort_clause || s->limit_count ||
         s->limit_offset || s->n_distinct_clause || s->op != PG_QUERY__SET_OPERATION__SETOP_NONE;
}

// A call's arguments as written: positional ones first, then named ones (`a => 1`,
// `a := 1`), whose names are set.
struct CallArgs {
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;  // "" for a positional argument
};

// The argument list as PostgreSQL's func_signature_string prints it: "integer, y => text".
std::string ArgTypes(const CallArgs& args) {
  std::string out;
  for (size_t i = 0; i < args.exprs.size(); ++i) {
    out += i ? ", " : "";
    if (!args.names[i].empty()) out += args.names[i] + " => ";
    out += args.exprs[i]->type.Name();
  }
  return out;
}

// The parameter slots that a call's arguments go to, in order: CALL of a procedure
// takes its OUT parameters too (ProcedureIr::call_slots), anything else the IN / INOUT
// ones.
std::vector<int> ArgumentSlots(const ProcedureIr& ir, bool call) {
  if (call && ir.kind == ProcedureIr::Kind::kProcedure && !ir.call_slots.empty()) return ir.call_slots;
  std::vector<int> slots(static_cast<size_t>(ir.parameter_count));
  for (int i = 0; i < ir.parameter_count; ++i) slots[static_cast<size_t>(i)] = i;
  return slots;
}

// Which argument goes to each of `slots` (an index into args, or -1: the parameter's
// default), as PostgreSQL matches positional then named arguments; nullopt when the
// call does not fit: too many arguments, a name no parameter has or one a positional
// argument already filled, or a parameter left with no argument and no default.
std::optional<std::vector<int>> Arrange(const ProcedureIr& ir, const std::vector<int>& slots, const CallArgs& args) {
  std::vector<int> at(slots.size(), -1);
  size_t positional = 0;
  while (positional < args.exprs.size() && args.names[positional].empty()) ++positional;
  if (positional > slots.size()) return std::nullopt;
  for (size_t i = 0; i < positional; ++i) at[i] = static_cast<int>(i);
  for (size_t a = positional; a < args.exprs.size(); ++a) {
    auto named = std::ranges::find_if(slots, [&](int slot) {
      return ir.variables[static_cast<size_t>(slot)].name == args.names[a];
    });
    if (named == slots.end()) return std::nullopt;
    const size_t i = static_cast<size_t>(named - slots.begin());
    if (at[i] >= 0) return std::nullopt;
    at[i] = static_cast<int>(a);
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    const Variable& v = ir.variables[static_cast<size_t>(slots[i])];
    if (at[i] < 0 && (v.kind != VariableKind::kParameter || !v.default_value)) return std::nullopt;
  }
  return at;
}

// Whether `ir` takes `args` at `slots` (after PostgreSQL's implicit coercions, defaults
// filling the rest); the number of exact type matches, or -1.
int Matches(const ProcedureIr& ir, const std::vector<int>& slots, const CallArgs& call_args) {
  std::optional<std::vector<int>> arranged = Arrange(ir, slots, call_args);
  if (!arranged) return -1;
  int exact = 0;
  for (size_t i = 0; i < slots.size(); ++i) {
    if ((*arranged)[i] < 0) continue;
    const ExprPtr& arg = call_args.exprs[static_cast<size_t>((*arranged)[i])];
    const SqlType& to = ir.variables[static_cast<size_t>(slots[i])].type;
    if (arg->type.Base() == to.Base()) {
      exact += 100;
      continue;
    }
    // PostgreSQL's func_select_candidate: an unknown literal prefers the string category,
    // and goes to any type (a literal that does not convert fails once chosen, with
    // its input syntax error).
    if (arg->type.is_unknown()) {
      if (to.is_string()) ++exact;
      continue;
    }
    ExprPtr copy = arg->Clone();
    try {
      if (!TryCoerce(copy, to, CastContext::kImplicit)) return -1;
    } catch (const SqlError&) {
      return -1;  // a literal that does not convert ('a' for an integer parameter)
    }
  }
  return exact;
}

// SELECT a, b AS x FROM f(...): the result columns named, in order, as plan.projection.
void Project(CallPlan& plan, const PgQuery__SelectStmt& select, const std::string& qualifier) {
  std::vector<ResultColumn> all = std::move(plan.columns);
  plan.columns.clear();
  for (size_t i = 0; i < select.n_target_list; ++i) {
    const PgQuery__ResTarget* target = select.target_list[i]->res_target;
    const std::string name = TargetColumn(select.target_list[i], qualifier);
    auto it = std::ranges::find_if(all, [&](const ResultColumn& c) { return c.name == name; });
    if (it == all.end())
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", name), target->location);
    plan.projection.push_back(static_cast<int>(it - all.begin()));
    plan.columns.push_back(ResultColumn{target->name && *target->name ? target->name : it->name, it->type});
  }
}

}  // namespace

std::optional<CallPlan> PlanCall(const PgQuery__Node* stmt, const Catalog& catalog, bool any_kind) {
  CallPlan plan;
  const PgQuery__FuncCall* call = nullptr;
  std::string column_name;
  std::string qualifier;                       // kSelectFrom: its columns' qualifier
  const PgQuery__SelectStmt* select = nullptr;  // kSelectFrom: the statement
  if (stmt->node_case == PG_QUERY__NODE__NODE_CALL_STMT) {
    plan.form = CallPlan::Form::kCall;
    call = stmt->call_stmt->funccall;
  } else if (stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    const PgQuery__SelectStmt* s = stmt->select_stmt;
    if (HasOtherClauses(s)) return std::nullopt;
    if ((call = FromFunction(s, qualifier))) {
      plan.form = CallPlan::Form::kSelectFrom;
      select = s;
    } else if (s->n_from_clause == 0 && s->n_target_list == 1 &&
               s->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET &&
               s->target_list[0]->res_target->val &&
               s->target_list[0]->res_target->val->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
      plan.form = CallPlan::Form::kSelectValue;
      call = s->target_list[0]->res_target->val->func_call;
      if (s->target_list[0]->res_target->name && *s->target_list[0]->res_target->name)
        column_name = s->target_list[0]->res_target->name;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (call == nullptr || call->n_funcname == 0) return std::nullopt;
  std::string name = StringValue(call->funcname[call->n_funcname - 1]);
  std::vector<std::shared_ptr<const ProcedureIr>> candidates = catalog.FindProcedures(name);
  // A SELECT of a builtin function (SELECT abs(-1), SELECT * FROM generate_series(1, 3)) is
  // an ordinary query.
  if (candidates.empty() && (plan.form == CallPlan::Form::kSelectValue || name == "generate_series" || name == "unnest"))
    return std::nullopt;

  CallArgs args;
  ExprBinder binder(nullptr, &catalog);
  for (size_t i = 0; i < call->n_args; ++i) {
    const PgQuery__Node* a = call->args[i];
    if (a->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
      const PgQuery__NamedArgExpr* named = a->named_arg_expr;
      // PostgreSQL's ParseFuncOrColumn checks, in its words.
      if (std::ranges::find(args.names, named->name) != args.names.end())
        throw SqlError(sqlstate::kSyntaxError, fmt::format("argument name \"{}\" used more than once", named->name),
                       named->location);
      args.exprs.push_back(binder.Bind(named->arg));
      args.names.emplace_back(named->name);
      continue;
    }
    if (!args.names.empty() && !args.names.back().empty())
      throw SqlError(sqlstate::kSyntaxError, "positional argument cannot follow named argument", NodeLocation(a));
    args.exprs.push_back(binder.Bind(a));
    args.names.emplace_back();
  }
  if (candidates.empty() && plan.form == CallPlan::Form::kSelectFrom) {
    // SELECT * FROM f(...) of a builtin: the query planner says functions in FROM are not
    // supported; of no function at all, the error below, as PostgreSQL's.
    std::vector<SqlType> types;
    for (const auto& a : args.exprs) types.push_back(a->type);
    if (ResolveFunction(name, types)) return std::nullopt;
  }
  const bool want_procedure = plan.form == CallPlan::Form::kCall && !any_kind;
  int best = -1;
  for (const auto& ir : candidates) {
    if (!any_kind && (ir->kind == ProcedureIr::Kind::kProcedure) != want_procedure) continue;
    int score = Matches(*ir, ArgumentSlots(*ir, plan.form == CallPlan::Form::kCall), args);
    if (score > best) {
      best = score;
      plan.ir = ir;
    }
  }
  if (!plan.ir && !any_kind) {
    // The other kind matches: PostgreSQL's "is a procedure" / "is not a procedure".
    for (const auto& ir : candidates) {
      if ((ir->kind == ProcedureIr::Kind::kProcedure) == want_procedure) continue;
      if (Matches(*ir, ArgumentSlots(*ir, plan.form == CallPlan::Form::kCall), args) < 0) continue;
      if (want_procedure)
        throw SqlError("42809", fmt::format("{} is not a procedure", ir->Signature()), call->location)
            .WithHint("To call a function, use SELECT.");
      throw SqlError("42809", fmt::format("{} is a procedure", ir->Signature()), call->location)
          .WithHint("To call a procedure, use CALL.");
    }
  }
  if (!plan.ir) {
    const char* what = want_procedure ? "procedure" : "function";
    throw SqlError("42883", fmt::format("{} {}({}) does not exist", what, name, ArgTypes(args)), call->location)
        .WithHint(fmt::format("No {} matches the given name and argument types. You might need to add explicit "
                              "type casts.",
                              what));
  }
  const ProcedureIr& ir = *plan.ir;
  const std::vector<int> slots = ArgumentSlots(ir, plan.form == CallPlan::Form::kCall);
  const std::vector<int> arranged = *Arrange(ir, slots, args);
  for (int i = 0; i < ir.parameter_count; ++i) {
    const Variable& p = ir.variables[i];
    // The argument for this parameter (OUT placeholders are not used), else its default.
    const size_t at = static_cast<size_t>(std::ranges::find(slots, i) - slots.begin());
    const int arg = at < arranged.size() ? arranged[at] : -1;
    ExprPtr e = arg >= 0 ? std::move(args.exprs[static_cast<size_t>(arg)]) : p.default_value->Clone();
    e = Coerce(std::move(e), p.type, CastContext::kAssignment, p.name);
    plan.args.push_back(DatumToValue(Eval(*e, EvalContext{}), p.type));
  }
  // OUT placeholders are converted as PostgreSQL converts them (an error is raised),
  // then dropped.
  for (size_t at = 0; at < arranged.size(); ++at) {
    const Variable& p = ir.variables[static_cast<size_t>(slots[at])];
    const int arg = arranged[at];
    if (arg < 0 || !args.exprs[static_cast<size_t>(arg)] || p.kind != VariableKind::kOutParameter) continue;
    (void)Eval(*Coerce(std::move(args.exprs[static_cast<size_t>(arg)]), p.type, CastContext::kAssignment, p.name),
               EvalContext{});
  }

  switch (plan.form) {
    case CallPlan::Form::kCall:
    case CallPlan::Form::kSelectFrom:
      for (const OutputColumn& c : ir.result_columns)
        plan.columns.push_back(ResultColumn{c.name, c.type});
      if (plan.form == CallPlan::Form::kSelectFrom && ir.returns == ProcedureIr::Returns::kScalar &&
          ir.out_variables.empty())
        plan.columns.at(0).name = qualifier;  // the function's name, or its alias
      if (plan.form == CallPlan::Form::kSelectFrom && ir.returns == ProcedureIr::Returns::kVoid)
        plan.columns = {ResultColumn{name, SqlType::Of(TypeId::kText)}};
      if (plan.form == CallPlan::Form::kSelectFrom && !(select->n_target_list == 1 && IsStar(select->target_list[0])))
        Project(plan, *select, qualifier);
      break;
    case CallPlan::Form::kSelectValue: {
      SqlType type = ir.result_columns.size() == 1 ? ir.result_columns[0].type : SqlType::Of(TypeId::kText);
      plan.columns = {ResultColumn{column_name.empty() ? name : column_name, type}};
      break;
    }
    case CallPlan::Form::kDml: break;  // ad-hoc DML is planned by ad_hoc_dml.cc
  }
  return plan;
}


}  // namespace caracal::planner
