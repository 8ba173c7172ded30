#include "planner/exec/privileges.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include <string>
#include <vector>

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

void CheckSchema(const std::string& schema) {
  if (schema != "public" && schema != "pg_catalog")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", schema));
}

void CheckRelation(const PgQuery__RangeVar* rv, const Catalog& catalog) {
  if (rv->schemaname && *rv->schemaname) CheckSchema(rv->schemaname);
  if (!catalog.RelationExists(rv->relname))
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", rv->relname));  // PostgreSQL gives no position
}

// A function or procedure named by an ObjectWithArgs: by name (overloads are not told
// apart: every one of them would be granted the same nothing).
void CheckRoutine(const PgQuery__ObjectWithArgs* o, const Catalog& catalog, bool procedure) {
  const std::vector<std::string> names = NameList(o->objname, o->n_objname);
  if (names.size() > 1) CheckSchema(names[0]);
  if (names.empty() || (catalog.FindProcedures(names.back()).empty() && !catalog.FindPendingRoutine(names.back()) &&
                        !catalog.FindTriggerFunction(names.back())))
    throw SqlError(sqlstate::kUndefinedFunction,
                   fmt::format("{} {} does not exist", procedure ? "procedure" : "function", names.empty() ? "" : names.back()));
}

}  // namespace

DdlOutcome AcceptGrant(const PgQuery__GrantStmt* stmt, const Catalog& catalog) {
  const std::string tag = stmt->is_grant ? "GRANT" : "REVOKE";
  if (stmt->targtype == PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_ALL_IN_SCHEMA) {
    for (size_t i = 0; i < stmt->n_objects; ++i) CheckSchema(StringValue(stmt->objects[i]));
    return {tag, {}, nullptr};
  }
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* o = stmt->objects[i];
    switch (stmt->objtype) {
      case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE: CheckRelation(o->range_var, catalog); break;
      case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
      case PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE:
      case PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE:
        CheckRoutine(o->object_with_args, catalog, stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE);
        break;
      case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA: CheckSchema(StringValue(o)); break;
      default: break;  // databases, languages, types: nothing here to check them against
    }
  }
  return {tag, {}, nullptr};
}

DdlOutcome AcceptOwnerChange(const PgQuery__AlterOwnerStmt* stmt, const Catalog& catalog) {
  switch (stmt->object_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
      CheckRoutine(stmt->object->object_with_args, catalog, false);
      return {"ALTER FUNCTION", {}, nullptr};
    case PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE:
      CheckRoutine(stmt->object->object_with_args, catalog, true);
      return {"ALTER PROCEDURE", {}, nullptr};
    case PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE:
      CheckRoutine(stmt->object->object_with_args, catalog, false);
      return {"ALTER ROUTINE", {}, nullptr};
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
      CheckSchema(StringValue(stmt->object));
      return {"ALTER SCHEMA", {}, nullptr};
    case PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE: return {"ALTER DATABASE", {}, nullptr};
    case PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN:
    case PG_QUERY__OBJECT_TYPE__OBJECT_TYPE: {
      const PgQuery__Node* o = stmt->object;
      std::vector<std::string> parts;
      if (o->node_case == PG_QUERY__NODE__NODE_LIST) parts = NameList(o->list->items, o->list->n_items);
      else if (o->node_case == PG_QUERY__NODE__NODE_TYPE_NAME) parts = NameList(o->type_name->names, o->type_name->n_names);
      if (parts.empty() || (parts.size() > 1 && parts[0] != "public") ||
          !(catalog.FindEnum(parts.back()) || catalog.FindDomain(parts.back())))
        throw SqlError(sqlstate::kUndefinedObject,
                       fmt::format("type \"{}\" does not exist", parts.empty() ? std::string() : parts.back()));
      return {stmt->object_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN ? "ALTER DOMAIN" : "ALTER TYPE", {}, nullptr};
    }
    default: throw NotSupported("ALTER ... OWNER TO of this kind of object");
  }
}

}  // namespace caracal::planner
