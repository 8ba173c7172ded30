// Catalog emulation: answers to the queries that psql, pgbench and the drivers send
// about the server and its catalog (SELECT version(), current_setting(...),
// current_database(), and psql's \d-family queries on pg_catalog), made up from this
// database's catalog. There is no general SQL engine over pg_catalog behind this: each
// supported query shape is recognised (catalog_queries.cc lists them) and answered with
// the columns its client reads; any other query on pg_catalog or information_schema
// fails with 0A000 naming the relation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "planner/parser/parse_tree.h"
#include "server/connection_settings.h"
#include "server/shared_session.h"
#include "server/wire_result.h"

namespace caracal::server {

struct CatalogContext {
  SharedSession& shared;
  const ConnectionSettings& settings;
  const std::string& user;
  const std::string& database;
  int32_t pid;
};

// Whether `stmt` is answered here (it reads pg_catalog / information_schema, or only
// calls server-information functions).
bool IsCatalogQuery(const planner::ParsedStatement& stmt, const std::string& text);
// The answer, or nullopt if `stmt` is not a catalog query.
std::optional<WireResult> AnswerCatalogQuery(const planner::ParsedStatement& stmt, const std::string& text,
                                             CatalogContext& context);

}  // namespace caracal::server
