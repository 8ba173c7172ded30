// FOREIGN KEY / REFERENCES in CREATE TABLE and ALTER TABLE ... ADD CONSTRAINT: binding
// a constraint as PostgreSQL checks it, validating a filled table against it, and the
// dependencies DROP TABLE and TRUNCATE must respect.
#pragma once

#include <string>
#include <vector>

#include "planner/catalog/catalog.h"

struct PgQuery__Constraint;

namespace caracal::planner {

// The constraint `c` of table `t`, whose referencing columns are `columns` (a column
// constraint's column, or the table constraint's list). `t` is being created when
// `creating`: it may reference itself then, by its primary key or by one of
// `own_unique_columns`. `taken`: constraint names already used on `t`. Throws
// PostgreSQL's errors (42P01, 42703, 42830, 42804) or 0A000 for what is not supported
// (MATCH FULL, SET NULL (columns)).
ForeignKey BindForeignKey(const TableInfo& t, const PgQuery__Constraint* c, const std::vector<std::string>& columns,
                          const Catalog& catalog, bool creating, const std::vector<std::vector<int>>& own_unique_columns,
                          const std::vector<std::string>& taken);

// ALTER TABLE ... ADD FOREIGN KEY on a table with rows: 23503 for the first row whose
// referenced row is missing from the committed state.
void ValidateForeignKey(const TableInfo& t, const ForeignKey& key, Catalog& catalog);

// The foreign keys of tables other than those named in `leaving` that reference `t`:
// DROP TABLE and TRUNCATE refuse them (or drop them, with CASCADE).
std::vector<ReferencingKey> ReferencesFromOutside(const TableInfo& t, const std::vector<std::string>& leaving);

// "ON DELETE CASCADE" and the like, as \d prints a constraint's definition.
std::string ForeignKeyDefinition(const TableInfo& t, const ForeignKey& key);

}  // namespace caracal::planner
