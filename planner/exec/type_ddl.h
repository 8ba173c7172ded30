// Type DDL: CREATE TYPE ... AS ENUM, ALTER TYPE ... ADD VALUE / RENAME VALUE / RENAME
// TO, DROP TYPE, with PostgreSQL's errors. Enum types live in the catalog
// (types/enum_type.h says what a value of one is and why labels are only appended).
// Like all DDL, these run between epochs and a failing one changes nothing.
#pragma once

#include "engine/execution/engine.h"
#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"

struct PgQuery__CreateEnumStmt;
struct PgQuery__AlterEnumStmt;
struct PgQuery__DropStmt;
struct PgQuery__RenameStmt;
struct PgQuery__CreateDomainStmt;
struct PgQuery__CompositeTypeStmt;

namespace caracal::planner {

DdlOutcome CreateEnum(const PgQuery__CreateEnumStmt* stmt, Catalog& catalog, engine::Engine& engine);
DdlOutcome AlterEnum(const PgQuery__AlterEnumStmt* stmt, Catalog& catalog, engine::Engine& engine);
// DROP TYPE [IF EXISTS] name, ... [RESTRICT]: refused (2BP01) while a column or a
// routine's signature uses an enum type; CASCADE, which would drop those, is not
// supported. A composite type goes (routines made with it keep its fields).
DdlOutcome DropTypes(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine);
// CREATE DOMAIN name [AS] type [DEFAULT expr] [NOT NULL | NULL] [[CONSTRAINT c] CHECK
// (expr)] ...: the CHECKs over VALUE, named name_check (numbered) when not named.
DdlOutcome CreateDomain(const PgQuery__CreateDomainStmt* stmt, Catalog& catalog, engine::Engine& engine);
// DROP DOMAIN [IF EXISTS] name, ...: refused (2BP01) while a column or a routine's
// signature uses it, as DROP TYPE.
DdlOutcome DropDomains(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine);

// CREATE TYPE name AS (field type, ...): a composite type (catalog.h's CompositeType).
DdlOutcome CreateComposite(const PgQuery__CompositeTypeStmt* stmt, Catalog& catalog, engine::Engine& engine);

// ALTER TYPE name RENAME TO new_name.
DdlOutcome RenameType(const PgQuery__RenameStmt* stmt, Catalog& catalog, engine::Engine& engine);

}  // namespace caracal::planner
