// COPY table [(columns)] FROM 'file' [WITH] (FORMAT csv [, HEADER] [, DELIMITER 'c']
// [, NULL 's'] [, QUOTE 'c'] [, ESCAPE 'c']): bulk loading through the engine's
// LoadRow path, between epochs. Every line is parsed, converted and checked (types,
// NOT NULL, duplicate keys within the file and against the table) before the first row
// is loaded, so a failing COPY loads nothing.
#pragma once

#include <cstdint>
#include <functional>

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"

struct PgQuery__CopyStmt;

namespace caracal::planner {

// Called with the number of rows read so far, every kCopyProgressRows rows and once at
// the end of the file (the shell shows progress on a terminal); it may throw to cancel
// the COPY, which then loads nothing.
using CopyProgress = std::function<void(int64_t rows)>;
inline constexpr int64_t kCopyProgressRows = 10000;

// Returns the number of rows loaded. Throws SqlError (with a CONTEXT naming the line).
int64_t CopyFrom(const PgQuery__CopyStmt* stmt, Catalog& catalog, engine::Engine& engine, const CopyProgress& progress = {});

}  // namespace caracal::planner
