// CREATE SEQUENCE, ALTER SEQUENCE and the sequence options of identity columns, with
// PostgreSQL's options and checks: AS smallint | integer | bigint, INCREMENT, MINVALUE /
// NO MINVALUE, MAXVALUE / NO MAXVALUE, START, RESTART (ALTER), CACHE, [NO] CYCLE, OWNED
// BY table.column | NONE, and an identity column's SEQUENCE NAME. pg_dump writes every
// serial column as such a sequence, owned by the column, and its default.
//
// A sequence changes between epochs (Engine::RunExclusive), so every transaction after the
// statement in serial order draws by the new definition; the session logs the
// statement as DDL and replay runs it again.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"

namespace caracal::planner {

// A sequence definition read from options, over the defaults of a new sequence of
// `type` (CREATE, an identity column) or over `altering` (ALTER SEQUENCE).
struct SequenceOptions {
  SequenceInfo definition;
  std::optional<int64_t> restart;  // ALTER ... RESTART [WITH n]
  std::optional<std::string> sequence_name;  // an identity column's SEQUENCE NAME
  // OWNED BY: table and column; both empty for NONE.
  std::optional<std::pair<std::string, std::string>> owned_by;
};
// Throws SqlError with PostgreSQL's messages: 22023 for bounds that do not hold
// (MINVALUE must be less than MAXVALUE, START / RESTART within them, values within the
// type, INCREMENT not zero, CACHE above zero), 42601 for a repeated option.
SequenceOptions ParseSequenceOptions(PgQuery__Node* const* options, size_t n, const SequenceInfo* altering,
                                     TypeId type = TypeId::kInt8);

DdlOutcome CreateSequence(const PgQuery__CreateSeqStmt* stmt, Catalog& catalog, engine::Engine& engine);
DdlOutcome AlterSequence(const PgQuery__AlterSeqStmt* stmt, Catalog& catalog, engine::Engine& engine);

// OWNED BY: makes `column` of `table` own sequence `sequence` (dropping the table drops
// it), or, for an empty table, no column own it. Call inside RunExclusive.
void SetSequenceOwner(Catalog& catalog, const std::string& sequence, const std::string& table, const std::string& column);

}  // namespace caracal::planner
