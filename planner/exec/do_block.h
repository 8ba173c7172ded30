// BindDoBlock: `DO [LANGUAGE plpgsql] $$ body $$` as a parameterless procedure that the
// engine runs once, as one transaction, like an ad-hoc DML statement: the body is bound
// by the PL/pgSQL binder (as the body of a procedure PostgreSQL calls
// inline_code_block, the name its error CONTEXT lines use) and analysed like any
// procedure, so its write set is declared the same way. `command_tag` is "DO".
#pragma once

#include <memory>
#include <string_view>

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__DoStmt;

namespace caracal::planner {

// Throws SqlError (PostgreSQL's errors for a missing body or another language). `text`
// is the DO statement's text, kept as the IR's source (the input log's identity).
std::shared_ptr<ProcedureIr> BindDoBlock(const PgQuery__DoStmt* stmt, std::string_view text, const Catalog& catalog);

}  // namespace caracal::planner
