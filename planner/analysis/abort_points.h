// Where a procedure can still fail (the write-set analysis places the publish point after
// the last such statement). The rule is PostgreSQL's: a call fails if any statement
// raises, so everything that can raise counts - RAISE EXCEPTION, INTO STRICT, a plain
// INSERT (duplicate key), NOT NULL violations, casts that can fail or lose precision,
// arithmetic (overflow, division by zero), FOR/FOREACH over NULL bounds, a scalar
// function's missing RETURN. Being conservative only delays the publish point.
#pragma once

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// Whether evaluating `e` can raise an error.
bool MayRaise(const Expr& e);
// Whether `e` can be NULL. Variables declared NOT NULL, loop counters and sequence /
// now() slots are not; parameters can be; `table` names the kColumn slots' columns.
bool MayBeNull(const Expr& e, const ProcedureIr& ir, const TableInfo* table);
// Whether a value of `from` converted to `to` by assignment can raise (value too long,
// numeric field overflow, out of range).
bool ConversionMayRaise(const SqlType& from, const SqlType& to);
// Whether running `s` (with its nested statements) can make the call fail.
bool StatementMayAbort(const Stmt& s, const ProcedureIr& ir);

}  // namespace caracal::planner
