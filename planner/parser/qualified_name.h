// A relation named by a string, as PostgreSQL reads one when text becomes a regclass
// (nextval('s'), setval('public.s', 1), 'accounts'::regclass): dot-separated
// identifiers, unquoted ones folded to lower case, double-quoted ones kept as written
// ("" inside is one quote).
#pragma once

#include <string>
#include <string_view>

struct PgQuery__RangeVar;

namespace caracal::planner {

struct RelationText {
  std::string name;     // in this database's one schema
  std::string display;  // as PostgreSQL names it in "does not exist": schema.name when qualified
  bool in_pg_catalog = false;  // qualified by pg_catalog: only a system view can be meant
};

// Throws SqlError: 42602 "invalid name
// syntax" for text that is not one to three identifiers; 3F000 for a schema other than
// public (or pg_catalog, whose relations are the system views); 0A000 for a
// cross-database reference (three names).
RelationText RelationNameFromText(std::string_view text);

// A RangeVar's relation name: an optional "public" schema, nothing else (3F000 for
// another schema, at the RangeVar's location).
std::string RangeVarRelationName(const PgQuery__RangeVar* rv);

// `name` as a regclass prints it: as is when it is a plain lower-case identifier, else
// double-quoted (so RelationNameFromText reads it back as the same name). Keywords are
// not quoted (PostgreSQL quotes them).
std::string RegclassText(std::string_view name);

}  // namespace caracal::planner
