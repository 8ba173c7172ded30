// Which user routine a call names, and which argument goes to which parameter: PostgreSQL's
// overload resolution for `CALL p(...)`, `SELECT f(...)` (binder/call_binder.h) and calls of
// user functions inside expressions (binder/expr_binder.h's kRoutineCall), with named
// notation (`f(a => 1)`) and parameter defaults.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/expr/expr.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__FuncCall;

namespace caracal::planner {

class ExprBinder;

// A call's arguments as written: positional ones first, then named ones (`a => 1`,
// `a := 1`), whose names are set.
struct RoutineArgs {
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;  // "" for a positional argument
};

// Binds the arguments of `call` with `binder`. Throws PostgreSQL's 42601 for a name used
// twice or a positional argument after a named one.
RoutineArgs BindRoutineArgs(const PgQuery__FuncCall* call, ExprBinder& binder);

// The argument list as PostgreSQL's func_signature_string prints it: "integer, y => text".
std::string ArgTypes(const RoutineArgs& args);

// The parameter slots that a call's arguments go to, in order: CALL of a procedure
// takes its OUT parameters too (ProcedureIr::call_slots), anything else the IN / INOUT
// ones.
std::vector<int> ArgumentSlots(const ProcedureIr& ir, bool call);

// Which argument goes to each of `slots` (an index into args, or -1: the parameter's
// default), as PostgreSQL matches positional then named arguments; nullopt when the
// call does not fit: too many arguments, a name no parameter has or one a positional
// argument already filled, or a parameter left with no argument and no default.
std::optional<std::vector<int>> Arrange(const ProcedureIr& ir, const std::vector<int>& slots, const RoutineArgs& args);

// Each IN / INOUT parameter's value, in parameter order, for a call that Arrange placed
// so: the argument given (moved out of `args`), else the parameter's default, coerced to
// the parameter's type as an assignment. CALL's OUT placeholders stay in `args`.
std::vector<ExprPtr> ParameterValues(const ProcedureIr& ir, const std::vector<int>& slots, const std::vector<int>& arranged,
                                     RoutineArgs& args);

// The kRoutineCall of `routine` with `args` (which Arrange must accept; `call`: CALL's
// argument list), of result type `type`, at `location`.
ExprPtr RoutineCallExpr(std::shared_ptr<const ProcedureIr> routine, RoutineArgs& args, bool call, const SqlType& type,
                        int location);

// The routine of `candidates` (those named `name`) that takes `args`, preferring exact
// type matches. `call`: the statement is CALL, which wants a procedure (any kind when
// `any_kind`); otherwise a function. Throws 42883 (`function f(integer) does not
// exist`, with PostgreSQL's HINT) or 42809 (`f(integer) is a procedure`) at `location`.
std::shared_ptr<const ProcedureIr> ChooseRoutine(const std::string& name,
                                                 const std::vector<std::shared_ptr<const ProcedureIr>>& candidates,
                                                 const RoutineArgs& args, bool call, bool any_kind, int location);

}  // namespace caracal::planner
