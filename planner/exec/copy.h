// COPY table [(columns)] FROM {'file' | STDIN} [[WITH] (FORMAT {text | csv} [, HEADER]
// [, DELIMITER 'c'] [, NULL 's'] [, QUOTE 'c'] [, ESCAPE 'c'])], and the old spellings
// (DELIMITER 'c', NULL 's', CSV, HEADER without parentheses): bulk loading through the engine's
// LoadRow path, between epochs. Every line is parsed, converted and checked (types,
// NOT NULL, duplicate keys within the file and against the table) before the first row
// is loaded, so a failing COPY loads nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "engine/execution/engine.h"
#include "planner/binder/query_binder.h"
#include "planner/catalog/catalog.h"

struct PgQuery__CopyStmt;

namespace caracal::planner {

// Called with the number of rows read so far, every kCopyProgressRows rows and once at
// the end of the file (the shell shows progress on a terminal); it may throw to cancel
// the COPY, which then loads nothing.
using CopyProgress = std::function<void(int64_t rows)>;
inline constexpr int64_t kCopyProgressRows = 10000;

// COPY {table [(columns)] | (SELECT ...)} TO {STDOUT | 'file'} [options as above]: the
// rows as an ad-hoc SELECT reads them (the last committed snapshot), one line each, in
// the text format or CSV, with HEADER the column names first.
struct CopyOutput {
  std::string data;        // for the client (empty when written to a file)
  int64_t rows = 0;
  bool to_client = true;   // TO STDOUT
};
CopyOutput CopyTo(const PgQuery__CopyStmt* stmt, const Catalog& catalog, engine::Database& db,
                  const TableRowEstimator& estimate);

// COPY ... FROM STDIN's data, all of it (in the text format, a line `\.` ends it), from
// the client: the shell reads the lines after the statement, the server the CopyData
// messages. Throws SqlError when the client gave up (CopyFail).
using CopyInput = std::function<std::string()>;

// Returns the number of rows loaded. Throws SqlError (with a CONTEXT naming the line);
// COPY FROM STDIN without `input` is 0A000.
int64_t CopyFrom(const PgQuery__CopyStmt* stmt, Catalog& catalog, engine::Engine& engine, const CopyProgress& progress = {},
                 const CopyInput& input = {});

// COPY ... FROM inside a transaction block: the rows read and converted as CopyFrom does
// (the same errors, with their CONTEXT lines), then given as the one INSERT ... SELECT
// FROM unnest(...) of them that the block runs with its other statements. Array columns
// are 0A000.
struct CopyAsInsert {
  std::string sql;
  int64_t rows = 0;
};
CopyAsInsert CopyFromAsInsert(const PgQuery__CopyStmt* stmt, const Catalog& catalog, const CopyInput& input);
// The columns COPY ... FROM fills, in the data's order: the list given, else every column
// but the generated ones. Throws what PostgreSQL throws before reading any data (42P01,
// 42703, 42701, 42P10 for a generated column), so a server can refuse before COPY mode.
std::vector<int> CopyFromColumns(const PgQuery__CopyStmt* stmt, const Catalog& catalog);

}  // namespace caracal::planner
