// Resolves a parsed type name (CREATE TABLE column types, CAST targets) to a SqlType,
// with PostgreSQL's errors for unknown types and bad modifiers.
#pragma once

#include <string>

#include "planner/types/sql_type.h"

struct PgQuery__TypeName;

namespace caracal::planner {

SqlType ResolveTypeName(const PgQuery__TypeName* type_name);
// The type name as the user wrote it, for error messages (PostgreSQL prints e.g. "foo").
std::string TypeNameText(const PgQuery__TypeName* type_name);

}  // namespace caracal::planner
