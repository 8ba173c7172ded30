// SELECT setval('seq', value [, is_called]) [, setval(...) ...]: pg_dump writes one per
// sequence to restore its position. It sets the sequence between epochs, so that every
// transaction after it in serial order draws from the new position; with a data
// directory the session logs the statement like DDL, and replay runs it again.
//
// Served: a SELECT whose every output is a setval call (constants, or over a query);
// setval inside other expressions or a procedure body is not supported yet.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <functional>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

// Whether `stmt` is a SELECT whose every output is a setval call (it may still be
// malformed: RunSetval reports what is wrong with it).
bool IsSetvalSelect(const PgQuery__Node* stmt);

// The columns it returns: one bigint "setval" per call.
std::vector<ResultColumn> SetvalColumns(const PgQuery__SelectStmt* select);

// Runs an ad-hoc query on the committed state (the session's SELECT path).
using QueryRunner = std::function<ResultSet(const PgQuery__SelectStmt*)>;

// Runs it: PostgreSQL's semantics, nextval then returns `value` + increment if
// is_called (the default), else `value` itself. Arguments that are not constants, or a
// FROM / WHERE / ..., make it a query of the arguments run by `run_query` (Django's
// `SELECT setval(pg_get_serial_sequence('t', 'id'), coalesce(max(id), 1), max(id) IS NOT
// null) FROM t`): each row sets its sequence, in order; a NULL argument sets nothing.
// Throws SqlError for an unknown sequence (42P01) or a value out of its bounds (22003).
ResultSet RunSetval(const PgQuery__SelectStmt* select, const Catalog& catalog, engine::Engine& engine,
                    const QueryRunner& run_query = {});

}  // namespace caracal::planner
