// psql 15's catalog queries (its \d family, \df, \sf, \l) recognised by their text and
// answered from this database's catalog with the columns psql reads.
#pragma once

#include <optional>
#include <string>

#include "server/catalog_queries.h"
#include "server/wire_result.h"

namespace caracal::server {

// The answer to one of psql's describe queries, or nullopt if `text` is not one.
std::optional<WireResult> AnswerDescribeQuery(const std::string& text, CatalogContext& context);

}  // namespace caracal::server
