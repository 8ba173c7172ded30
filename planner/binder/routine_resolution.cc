#include "planner/binder/routine_resolution.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// Whether `ir` takes `args` at `slots` (after PostgreSQL's implicit coercions, defaults
// filling the rest); the number of exact type matches, or -1.
int Matches(const ProcedureIr& ir, const std::vector<int>& slots, const RoutineArgs& call_args) {
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

}  // namespace

RoutineArgs BindRoutineArgs(const PgQuery__FuncCall* call, ExprBinder& binder) {
  RoutineArgs args;
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
  return args;
}

std::string ArgTypes(const RoutineArgs& args) {
  std::string out;
  for (size_t i = 0; i < args.exprs.size(); ++i) {
    out += i ? ", " : "";
    if (!args.names[i].empty()) out += args.names[i] + " => ";
    out += args.exprs[i]->type.Name();
  }
  return out;
}

std::vector<int> ArgumentSlots(const ProcedureIr& ir, bool call) {
  if (call && ir.kind == ProcedureIr::Kind::kProcedure && !ir.call_slots.empty()) return ir.call_slots;
  std::vector<int> slots(static_cast<size_t>(ir.parameter_count));
  for (int i = 0; i < ir.parameter_count; ++i) slots[static_cast<size_t>(i)] = i;
  return slots;
}

std::optional<std::vector<int>> Arrange(const ProcedureIr& ir, const std::vector<int>& slots, const RoutineArgs& args) {
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

std::vector<ExprPtr> ParameterValues(const ProcedureIr& ir, const std::vector<int>& slots, const std::vector<int>& arranged,
                                     RoutineArgs& args) {
  std::vector<ExprPtr> values;
  for (int i = 0; i < ir.parameter_count; ++i) {
    const Variable& p = ir.variables[static_cast<size_t>(i)];
    // The argument for this parameter (OUT placeholders are not used), else its default.
    const size_t at = static_cast<size_t>(std::ranges::find(slots, i) - slots.begin());
    const int arg = at < arranged.size() ? arranged[at] : -1;
    ExprPtr e = arg >= 0 ? std::move(args.exprs[static_cast<size_t>(arg)]) : p.default_value->Clone();
    values.push_back(Coerce(std::move(e), p.type, CastContext::kAssignment, p.name));
  }
  return values;
}

ExprPtr RoutineCallExpr(std::shared_ptr<const ProcedureIr> routine, RoutineArgs& args, bool call, const SqlType& type,
                        int location) {
  const std::vector<int> slots = ArgumentSlots(*routine, call);
  const std::vector<int> arranged = *Arrange(*routine, slots, args);
  auto e = MakeExpr(ExprKind::kRoutineCall, type, location);
  e->args = ParameterValues(*routine, slots, arranged, args);
  e->routine_name = routine->name;
  e->routine = std::move(routine);
  return e;
}

std::shared_ptr<const ProcedureIr> ChooseRoutine(const std::string& name,
                                                 const std::vector<std::shared_ptr<const ProcedureIr>>& candidates,
                                                 const RoutineArgs& args, bool call, bool any_kind, int location) {
  const bool want_procedure = call && !any_kind;
  std::shared_ptr<const ProcedureIr> chosen;
  int best = -1;
  for (const auto& ir : candidates) {
    if (!any_kind && (ir->kind == ProcedureIr::Kind::kProcedure) != want_procedure) continue;
    int score = Matches(*ir, ArgumentSlots(*ir, call), args);
    if (score > best) {
      best = score;
      chosen = ir;
    }
  }
  if (chosen) return chosen;
  if (!any_kind) {
    // The other kind matches: PostgreSQL's "is a procedure" / "is not a procedure".
    for (const auto& ir : candidates) {
      if ((ir->kind == ProcedureIr::Kind::kProcedure) == want_procedure) continue;
      if (Matches(*ir, ArgumentSlots(*ir, call), args) < 0) continue;
      if (want_procedure)
        throw SqlError("42809", fmt::format("{} is not a procedure", ir->Signature()), location)
            .WithHint("To call a function, use SELECT.");
      throw SqlError("42809", fmt::format("{} is a procedure", ir->Signature()), location)
          .WithHint("To call a procedure, use CALL.");
    }
  }
  const char* what = want_procedure ? "procedure" : "function";
  throw SqlError("42883", fmt::format("{} {}({}) does not exist", what, name, ArgTypes(args)), location)
      .WithHint(fmt::format("No {} matches the given name and argument types. You might need to add explicit "
                            "type casts.",
                            what));
}

}  // namespace caracal::planner
