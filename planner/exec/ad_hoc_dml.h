// BindAdHocDml: an ad-hoc INSERT / UPDATE / DELETE as a parameterless procedure that the
// engine runs as one transaction (DESIGN §3: "through the same compiler"). Its body is
// the statement bound by TableStatementBinder (a multi-row INSERT becomes one kInsert per
// row, in order); it is analysed like any procedure, so its write set is declared the
// same way. `command_tag` is set ("INSERT", "UPDATE", "DELETE"); with RETURNING, each
// returned row is a result row (`emit_returning`, `result_columns`). A DO block is bound
// here too (exec/do_block.h), so that every one-shot statement the session submits, and
// the input log replays, comes through one entry point.
#pragma once

#include <memory>
#include <string_view>

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

struct PgQuery__Node;

namespace caracal::planner {

// Throws SqlError. `text` is the statement's text (kept as the IR's source).
std::shared_ptr<ProcedureIr> BindAdHocDml(const PgQuery__Node* stmt, std::string_view text, const Catalog& catalog);

}  // namespace caracal::planner
