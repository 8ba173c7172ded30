// Triggers' DDL: CREATE FUNCTION ... RETURNS trigger (kept as its text, bound per table
// when a write fires it: binder/row_triggers.h), CREATE [OR REPLACE] TRIGGER, DROP
// TRIGGER, and what \d prints of a trigger. Each change binds and analyses again the
// procedures whose writes now fire other triggers (or another version of a function),
// between epochs. See planner/README.md, "Triggers".
#pragma once

#include <string>
#include <string_view>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"

struct PgQuery__CreateFunctionStmt;
struct PgQuery__CreateTrigStmt;
struct PgQuery__DropStmt;

namespace caracal::planner {

// Whether `stmt` creates a trigger function (RETURNS trigger).
bool ReturnsTrigger(const PgQuery__CreateFunctionStmt* stmt);
// CREATE [OR REPLACE] FUNCTION f() RETURNS trigger: checks the body parses and stores it;
// a replacement rebinds every procedure whose writes fire it.
DdlOutcome CreateTriggerFunction(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text,
                                 Catalog& catalog, engine::Engine& engine);
// DROP FUNCTION of trigger function `name`: 2BP01 while a trigger executes it. Returns
// false if there is no trigger function of that name.
bool DropTriggerFunction(const std::string& name, Catalog& catalog, engine::Engine& engine);

// `statement_location`: where `statement_text` starts in the text error positions refer to.
DdlOutcome CreateTrigger(const PgQuery__CreateTrigStmt* stmt, std::string_view statement_text, int statement_location,
                         Catalog& catalog, engine::Engine& engine);
DdlOutcome DropTriggers(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine);

// `when` (a trigger's WHEN as written) with NEW.column and OLD.column renamed to
// `new_name`, as ALTER TABLE ... RENAME COLUMN leaves PostgreSQL's stored condition.
std::string RenameColumnInWhen(const std::string& when, const std::string& column, const std::string& new_name);

// pg_get_triggerdef's pretty text without "CREATE TRIGGER ", as \d lists it:
// `t BEFORE INSERT OR UPDATE OF a ON accounts FOR EACH ROW WHEN (...) EXECUTE FUNCTION f('x')`.
std::string TriggerDefinition(const TriggerInfo& trigger, const TableInfo& table);

}  // namespace caracal::planner
