// Names of statement kinds as PostgreSQL's command tags spell them, for "X is not
// supported yet" errors.
#pragma once

#include <string>

struct PgQuery__Node;

namespace caracal::frontend {

std::string StatementName(const PgQuery__Node* stmt);

}  // namespace caracal::frontend
