// Runtime functions of compiled procedure code (registered in jit_runtime.cc's table).
// EvalState::user is the StatementHooks* of the running procedure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/runtime/eval_state.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

// PL/pgSQL's RAISE formatting: each '%' takes the next argument's text ("<NULL>" for
// NULL), '%%' is a literal '%'; too few / too many arguments raise 42601.
std::string FormatRaiseMessage(const std::string& format, const std::vector<planner::Datum>& args,
                               const std::vector<planner::SqlType>& types);

// A RAISE statement's outcome from its evaluated arguments (format arguments, then
// DETAIL and HINT): throws the SqlError of RAISE EXCEPTION, or returns the message of a
// lower level. A NULL DETAIL or HINT is 22004, as in PostgreSQL.
std::string RunRaise(const planner::Stmt& stmt, std::vector<planner::Datum> args);

}  // namespace caracal::codegen

extern "C" {
// 0: error; 1: next statement; 2: the statement RETURNed.
int32_t caracal_rt_stmt(caracal::codegen::EvalState* state, const caracal::planner::Stmt* stmt);
// `stmt` with its primary key computed (codegen/runtime/point_key.h) by compiled code, or null
// when the key is NULL or out of range (no row).
int32_t caracal_rt_stmt_key(caracal::codegen::EvalState* state, const caracal::planner::Stmt* stmt,
                            const caracal::engine::Key* key);
// Init kDeclare `init` of a point access (body statement `body`) with its key computed
// as for caracal_rt_stmt_key: declares it straight through the hooks (DeclareWithKey).
int32_t caracal_rt_declare_key(caracal::codegen::EvalState* state, const caracal::planner::Stmt* init,
                               const caracal::engine::Key* key, const caracal::planner::Stmt* body);
// caracal_rt_declare_key for a `body` that DirectDeclareOf says is one call (`how`, a
// DirectDeclare): made on EvalState::declare itself when there is one.
int32_t caracal_rt_declare_direct(caracal::codegen::EvalState* state, const caracal::planner::Stmt* init,
                                  const caracal::engine::Key* key, const caracal::planner::Stmt* body, int32_t how);
// The row a point SELECT INTO reads (codegen/runtime/point_key.h), for the compiled statement to
// copy its outputs from: *row is the row at the transaction's position, or null when
// there is none (or no key, as for caracal_rt_stmt_key). 0 on error.
int32_t caracal_rt_read_row(caracal::codegen::EvalState* state, const caracal::planner::Stmt* stmt,
                            const caracal::engine::Key* key, const caracal::engine::RowValue** row);
// A key too long for compiled code to build in place (Key::Layout): constructs it in
// `storage` (a Key's size and alignment) from parts[0..n) with their packed widths
// (point_key.h); caracal_rt_key_drop destroys it after use.
void caracal_rt_key_build(void* storage, const int64_t* parts, int32_t n, int32_t widths);
void caracal_rt_key_drop(void* storage);
int32_t caracal_rt_publish(caracal::codegen::EvalState* state);
// RAISE `stmt` with its arguments evaluated into args[0..n). 0 for EXCEPTION (or error).
int32_t caracal_rt_raise_stmt(caracal::codegen::EvalState* state, const caracal::planner::Stmt* stmt,
                              const caracal::planner::Datum* args);
int32_t caracal_rt_return(caracal::codegen::EvalState* state, const caracal::planner::Datum* value);
// The user function kRoutineCall `call` calls, on its evaluated arguments args[0..n), into
// *out (StatementHooks::CallRoutine). 0 on error.
int32_t caracal_rt_routine_call(caracal::codegen::EvalState* state, const caracal::planner::Expr* call,
                                const caracal::planner::Datum* args, int32_t n, caracal::planner::Datum* out);
// random() at draw site `site` (StatementHooks::Random); it cannot fail.
double caracal_rt_random(caracal::codegen::EvalState* state, int32_t site);
// On the way out of failed code: records where (EvalState::error_at: the statement, or
// the variable whose DECLARE default failed; `where` is an ErrorWhere).
void caracal_rt_error_at(caracal::codegen::EvalState* state, const void* at, int32_t where);
}
