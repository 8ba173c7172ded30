// GRANT / REVOKE and ALTER ... OWNER TO: accepted, checked and without effect. This
// database has one user, who owns every object and holds every privilege, so no grant
// changes what anyone may do; schema scripts and pg_dump output, which are full of them,
// run unchanged. What they name must exist (42P01 / 42883 / 3F000, as PostgreSQL
// reports it); role names are not checked (there are no roles to check them against).
#pragma once

#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"

struct PgQuery__GrantStmt;
struct PgQuery__AlterOwnerStmt;

namespace caracal::planner {

DdlOutcome AcceptGrant(const PgQuery__GrantStmt* stmt, const Catalog& catalog);
DdlOutcome AcceptOwnerChange(const PgQuery__AlterOwnerStmt* stmt, const Catalog& catalog);

}  // namespace caracal::planner
