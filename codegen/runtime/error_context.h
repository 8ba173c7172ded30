// PL/pgSQL's error CONTEXT for errors raised while a procedure body runs, worded as
// PostgreSQL 15 words it, for the interpreter (procedure_interpreter.cc) and the compiled code
// (procedure_codegen.cc) alike:
//
//   SQL statement "INSERT INTO t VALUES (p, 1)"                 <- only when the SQL raised
//   PL/pgSQL function f(integer) line 3 at SQL statement
//
// The innermost statement names the error: a context already set is kept.
#pragma once

#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

// `e` was raised while body statement `s` of `ir` ran. An ad-hoc statement's error
// (ir.is_ad_hoc_dml()) and one of a statement the analysis made get none, as at
// PostgreSQL's top level.
void AddStatementContext(planner::SqlError& e, const planner::ProcedureIr& ir, const planner::Stmt& s);
// `e` was raised initialising local `v` of the body's outer block (its DECLARE default).
void AddLocalsContext(planner::SqlError& e, const planner::ProcedureIr& ir, const planner::Variable& v);
// `e` was raised converting RETURN's value to the function's result type.
void AddReturnCastContext(planner::SqlError& e, const planner::ProcedureIr& ir);

// How the compiled code says where it failed (EvalState::error_at, error_where): the
// statement, or for kLocals the planner::Variable.
// kStatement: the statement (its SQL, for a table statement); kPlpgsql: the statement's
// own PL/pgSQL handling (INTO targets, STRICT), whose CONTEXT does not quote the SQL.
enum class ErrorWhere : int32_t { kStatement = 0, kPlpgsql = 1, kLocals = 2, kReturnCast = 3 };
void AddCompiledContext(planner::SqlError& e, const planner::ProcedureIr& ir, const void* where_at, ErrorWhere where);

}  // namespace caracal::codegen
