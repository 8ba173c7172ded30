// SELECT setval('seq', value [, is_called]) [, setval(...) ...]: pg_dump writes one per
// sequence to restore its position. It sets the sequence between epochs, so that every
// transaction after it in serial order draws from the new position; with a data
// directory the session logs the statement like DDL, and replay runs it again.
//
// Only that form is served: a SELECT of setval calls with constant arguments and
// nothing else (no FROM, WHERE, ...). setval inside a query or a procedure body is not
// supported yet.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

// Whether `stmt` is a SELECT whose every output is a setval call (it may still be
// malformed: RunSetval reports what is wrong with it).
bool IsSetvalSelect(const PgQuery__Node* stmt);

// The columns it returns: one bigint "setval" per call.
std::vector<ResultColumn> SetvalColumns(const PgQuery__SelectStmt* select);

// Runs it: PostgreSQL's semantics, nextval then returns `value` + increment if
// is_called (the default), else `value` itself. Throws SqlError for an unknown
// sequence (42P01), arguments that are not constants of the right types, or any other
// clause.
ResultSet RunSetval(const PgQuery__SelectStmt* select, const Catalog& catalog, engine::Engine& engine);

}  // namespace caracal::planner
