// EXPLAIN CALL name(args): the concrete write set a call with these arguments would
// declare, found by running the procedure's own init program (the same code the engine's
// Declare step runs) against the last committed state. Nothing is written and no
// sequence advances: nextval() shows the value the next call would draw.
#pragma once

#include <memory>
#include <vector>

#include "engine/storage/database.h"
#include "engine/types/value.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/result_set.h"

namespace caracal::codegen {

// One row per declaration, in declaration order: statement, line, table_name, access
// (insert, upsert, update, row_update, delete, range_update, range_delete, prefetch,
// index_entry, recon_read), key (the primary-key values, or a range [lo, hi)).
// Call only between epochs (the session drains first). Throws SqlError as the init
// program would (e.g. a reconnaissance read that fails).
planner::ResultSet ExplainCall(std::shared_ptr<const planner::ProcedureIr> ir, const planner::Catalog& catalog,
                               engine::Database& db, std::vector<engine::Value> args);

}  // namespace caracal::codegen
