// Resolves a parsed type name (CREATE TABLE column types, CAST targets) to a SqlType,
// with PostgreSQL's errors for unknown types and bad modifiers.
#pragma once

#include <string>

#include "planner/types/sql_type.h"

struct PgQuery__TypeName;
struct PgQuery__CollateClause;

namespace caracal::planner {

class Catalog;

// Built-in types first (as pg_catalog comes first on PostgreSQL's search path), then the
// enum types of `catalog` (null: built-in types only).
SqlType ResolveTypeName(const PgQuery__TypeName* type_name, const Catalog* catalog);
// A parameter's or result's type as a routine's signature keeps it: PostgreSQL ignores
// the modifiers given there (numeric(5,2) is numeric), but a domain stays itself.
inline SqlType SignatureType(const SqlType& t) { return t.domain ? t : t.Base(); }

// The type name as the user wrote it, for error messages (PostgreSQL prints e.g. "foo").
std::string TypeNameText(const PgQuery__TypeName* type_name);

// A COLLATE clause on a value or column of `type`. Strings here compare byte by byte,
// which is PostgreSQL's "C" collation (and the database default), so "C", "POSIX" and
// "default" are accepted and change nothing; any other collation is 0A000, and a type
// that is not a string 42804 as in PostgreSQL.
void CheckCollation(const PgQuery__CollateClause* clause, const SqlType& type);

}  // namespace caracal::planner
