// CREATE TABLE name [(columns)] AS query [WITH [NO] DATA] and SELECT ... INTO name: a
// table (without a primary key: its rows keyed by their row identity) whose columns are
// the query's output columns - their names, or the ones given, and their types - then
// filled from the query as INSERT ... SELECT fills a table. The definition is a plain
// CREATE TABLE statement, run and logged as DDL, and the rows are loaded and logged as a
// load, so replay and checkpoints see what they see for CREATE TABLE and INSERT ... SELECT.
#pragma once

#include <string>

#include "planner/binder/query_binder.h"
#include "planner/catalog/catalog.h"

struct PgQuery__SelectStmt;
struct PgQuery__IntoClause;

namespace caracal::planner {

// The CREATE TABLE statement for `into`'s table over `query`'s columns. Throws SqlError
// (the query's own errors, 42601 for more column names than columns, 0A000 for what a
// table here cannot hold).
std::string CreateTableAsDefinition(const PgQuery__SelectStmt* query, const PgQuery__IntoClause* into,
                                    const Catalog& catalog, const TableRowEstimator& estimate);

}  // namespace caracal::planner
