// INSERT INTO t [(columns)] <query> (a SELECT that is not a plain VALUES list, which
// procedures take): the query runs on the committed state between epochs, and its rows are
// converted to the columns (assignment casts, defaults for the columns not listed), checked
// (NOT NULL, duplicate keys among them and against the table) and loaded through the
// engine's LoadRow path, as COPY loads - all of them or, when one fails, none. It is one
// transaction at its place in the serial order: nothing runs while it reads and loads.
#pragma once

#include <cstdint>

#include "engine/execution/engine.h"
#include "planner/binder/query_block.h"
#include "planner/catalog/catalog.h"
#include "planner/types/result_set.h"

struct PgQuery__InsertStmt;

namespace caracal::planner {

// Whether `stmt` is an INSERT whose source needs the query planner and that InsertSelect
// loads between epochs (not with ON CONFLICT or RETURNING, nor one that leaves a column
// drawing from a sequence to its default: those run in an epoch).
bool IsInsertSelect(const PgQuery__InsertStmt* stmt, const Catalog& catalog);

// EXPLAIN of it: "Insert on t" over the source query's plan.
ResultSet ExplainInsertSelect(const PgQuery__InsertStmt* stmt, const Catalog& catalog, const TableRowEstimator& estimate);

// Runs it; returns the number of rows inserted. Throws SqlError, having inserted nothing.
int64_t InsertSelect(const PgQuery__InsertStmt* stmt, Catalog& catalog, engine::Engine& engine,
                     const TableRowEstimator& estimate);

}  // namespace caracal::planner
