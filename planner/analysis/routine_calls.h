// User functions called inside a procedure's expressions (ExprKind::kRoutineCall), as the
// write-set analysis sees them. A call runs the function's body at the caller's serial
// position, through the caller's transaction (codegen/interpreter/routine_caller.h):
// its reads need no declaration, so a function that only reads tables (or none) leaves
// the caller's write set as it was; its value is then read-derived when the function
// reads a table. A function that writes tables or draws sequence values makes its caller
// serial: the writes are declared as the call makes them, in a solo epoch. See README.md,
// "Calls between procedures".
#pragma once

#include <functional>
#include <string>

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// Calls `fn` on each kRoutineCall in `ir`'s body (statements, queries, DECLARE defaults),
// outermost first; not into the called functions.
void ForEachRoutineCall(const ProcedureIr& ir, const std::function<void(const Expr& call)>& fn);

// Whether `ir` calls any user function inside an expression.
bool CallsRoutines(const ProcedureIr& ir);

// Whether `routine`, or a function it calls, reads or writes any table.
bool TouchesTables(const ProcedureIr& routine);

// Whether `e` calls a function that TouchesTables: its value depends on the database.
bool CallsTableRoutine(const Expr& e);

// Why calling the functions `ir` calls makes it serial ("it calls f(integer), which writes
// table t"), or "" when none writes, draws a sequence value or is serial itself.
std::string WhyRoutineCallsAreSerial(const ProcedureIr& ir);

}  // namespace caracal::planner
