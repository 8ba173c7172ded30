// DDL: CREATE TABLE / INDEX / SEQUENCE and DROP, bound against the Catalog and applied
// to the engine between epochs (inside Engine::RunExclusive). A failing statement
// changes nothing.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"
#include "planner/catalog.h"

struct PgQuery__Node;

namespace caracal::planner {

struct DdlOutcome {
  std::string tag;                   // "CREATE TABLE", "DROP INDEX", ...
  std::vector<std::string> notices;  // "relation \"t\" already exists, skipping"
};

// Whether `stmt` is a DDL statement this module executes.
bool IsDdl(const PgQuery__Node* stmt);
DdlOutcome ExecuteDdl(const PgQuery__Node* stmt, Catalog& catalog, Engine& engine);

}  // namespace caracal::planner
