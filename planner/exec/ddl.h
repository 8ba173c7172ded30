// DDL: CREATE TABLE / INDEX / SEQUENCE and DROP, bound against the Catalog and applied
// to the engine between epochs (inside Engine::RunExclusive). A failing statement
// changes nothing.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"

struct PgQuery__Node;

namespace caracal::planner {

struct ProcedureIr;

struct DdlOutcome {
  std::string tag;                   // "CREATE TABLE", "DROP INDEX", ...
  std::vector<std::string> notices;  // "relation \"t\" already exists, skipping"
  // CREATE FUNCTION / PROCEDURE: what was stored (the session compiles it at once).
  std::shared_ptr<const ProcedureIr> procedure;
};

// Whether `stmt` is a DDL statement this module executes.
bool IsDdl(const PgQuery__Node* stmt);
// `statement_text` / `statement_location`: the statement's own text and where it starts
// in the parsed input (CREATE FUNCTION binds its body from the text).
struct DdlOptions {
  // PostgreSQL's check_function_bodies: off, a routine's body may name what does not
  // exist yet in any language (procedure_ddl.h). Recovery replays with it off.
  bool check_function_bodies = true;
};
DdlOutcome ExecuteDdl(const PgQuery__Node* stmt, Catalog& catalog, engine::Engine& engine,
                      std::string_view statement_text = {}, int statement_location = 0, const DdlOptions& options = {});

}  // namespace caracal::planner
