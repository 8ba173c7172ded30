// CREATE [OR REPLACE] FUNCTION / PROCEDURE and DROP FUNCTION / PROCEDURE / ROUTINE:
// binds and analyses a procedure (procedure_binder.h, write_set_analysis.h) and stores
// it in the catalog between epochs. A failing CREATE stores nothing.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"

struct PgQuery__CreateFunctionStmt;
struct PgQuery__DropStmt;

namespace caracal::planner {

// `statement_text` is the statement's own text, found at byte `statement_location` of
// the text the parse tree's locations refer to; SqlError locations refer to the latter.
// A PL/pgSQL routine (any, with `check_function_bodies` off) whose body names a table,
// column, function or type that does not exist yet is stored as a PendingRoutine
// instead of failing, as PostgreSQL checks those only when the statements run.
DdlOutcome CreateProcedure(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text,
                           int statement_location, Catalog& catalog, engine::Engine& engine,
                           bool check_function_bodies = true);
// Binds the pending routines that now bind (after DDL that may have created what they
// name), as often as that lets more of them bind; the others keep waiting with the
// latest error. Stores what it binds between epochs.
void BindPendingRoutines(Catalog& catalog, engine::Engine& engine);
DdlOutcome DropProcedures(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine);
// Binds and analyses again, from their source, the procedures whose statements use one
// of `tables`, against the catalog as it is now (as PostgreSQL replans after DDL), and
// returns them; stores nothing. A procedure that no longer compiles is 2BP01, naming it
// (or, with `skip_failing`, left out: its old IR stays, for changes it may ignore safely).
std::vector<std::shared_ptr<const ProcedureIr>> ReanalyzedProceduresUsing(std::span<const TableInfo* const> tables,
                                                                           const Catalog& catalog, bool skip_failing = false);
// Stores `routines` in the catalog (each replacing the one with its signature), then
// binds again, from their source, the procedures that call one of them inside an
// expression - and so on up the calls - so that every caller runs the function as it now
// is and is analysed with it (a function that now writes makes its callers serial). Call
// it between epochs (inside Engine::RunExclusive). A caller that no longer binds is
// XX000: a replacement keeps the signature and result type, which is all a caller binds.
void StoreRoutines(std::vector<std::shared_ptr<const ProcedureIr>> routines, Catalog& catalog);
// The same for one table, storing them in place of the old ones between epochs: after
// CREATE INDEX, whose entries their writes must now declare.
void ReanalyzeProceduresUsing(const TableInfo& table, Catalog& catalog, engine::Engine& engine);

}  // namespace caracal::planner
