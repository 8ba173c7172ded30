#include "server/pg_catalog_describe.h"

namespace caracal::server {

std::optional<WireResult> AnswerDescribeQuery(const std::string& text, CatalogContext& context) {
  (void)text;
  (void)context;
  return std::nullopt;
}

}  // namespace caracal::server
