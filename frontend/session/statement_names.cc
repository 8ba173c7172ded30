#include "frontend/session/statement_names.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

namespace caracal::frontend {

std::string StatementName(const PgQuery__Node* stmt) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT: return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT: return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT: return "DELETE";
    case PG_QUERY__NODE__NODE_MERGE_STMT: return "MERGE";
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT: return "CREATE FUNCTION/PROCEDURE";
    case PG_QUERY__NODE__NODE_CALL_STMT: return "CALL";
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT: return "EXPLAIN";
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT: return "BEGIN/COMMIT/ROLLBACK";
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT: return "SET";
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: return "SHOW";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT: return "ALTER TABLE";
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT: return "TRUNCATE";
    case PG_QUERY__NODE__NODE_VIEW_STMT: return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT: return "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_DO_STMT: return "DO";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT: return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT: return "ALTER SEQUENCE";
    case PG_QUERY__NODE__NODE_PREPARE_STMT: return "PREPARE";
    case PG_QUERY__NODE__NODE_EXECUTE_STMT: return "EXECUTE";
    case PG_QUERY__NODE__NODE_VACUUM_STMT: return "VACUUM";
    case PG_QUERY__NODE__NODE_COMMENT_STMT: return "COMMENT";
    case PG_QUERY__NODE__NODE_GRANT_STMT: return "GRANT/REVOKE";
    case PG_QUERY__NODE__NODE_CREATE_STMT: return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_INDEX_STMT: return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_DROP_STMT: return "DROP";
    case PG_QUERY__NODE__NODE_COPY_STMT: return "COPY";
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT: return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_RENAME_STMT: return "ALTER ... RENAME";
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT: return "CREATE EXTENSION";
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT: return "CHECKPOINT";
    default: return "this statement";
  }
}

}  // namespace caracal::frontend
