// BindProcedure: CREATE FUNCTION / CREATE PROCEDURE ... LANGUAGE plpgsql -> the typed
// procedure IR (procedure_ir.h), before the write-set analysis. The signature comes from
// PostgreSQL's parse of the statement, the body from pg_query_parse_plpgsql (JSON), whose
// embedded SQL and expressions are parsed again and bound by the planner's binders with
// PL/pgSQL's scoping rules (plpgsql_scope.h, table_scope.h). See README.md, "Procedures".
#pragma once

#include <memory>
#include <string_view>

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__CreateFunctionStmt;

namespace caracal::planner {

// `statement_text` is the CREATE statement's own text; SqlError locations refer to it.
// Errors name the function and line in their CONTEXT, as PostgreSQL's compiler does.
std::shared_ptr<ProcedureIr> BindProcedure(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text,
                                           const Catalog& catalog);

// A trigger function (`function`, CREATE FUNCTION ... RETURNS trigger) bound for the
// rows of `table`: a procedure whose parameters are NEW's columns, OLD's and the TG_
// variables (TriggerArgument) and whose out values are the NEW row it returns and
// whether it returned NULL (ProcedureIr::trigger_table). `depth` (1 for a trigger of a
// statement outside any trigger function) bounds triggers that fire one another.
std::shared_ptr<ProcedureIr> BindTriggerFunction(const TriggerFunction& function, const TableInfo& table,
                                                 const Catalog& catalog, int depth);

}  // namespace caracal::planner
