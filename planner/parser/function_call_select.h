// The statement forms of functions the front ends serve themselves (setval, set_config,
// current_setting, currval, lastval): a SELECT of calls by the function's plain or
// pg_catalog-qualified name, and the checks that recognise one.
#pragma once

#include <pg_query/pg_query.pb-c.h>

#include <string>

namespace caracal::planner {

// Whether `s` is nothing but its target list: no FROM, WHERE, GROUP BY, HAVING, ORDER
// BY, LIMIT / OFFSET, WITH, INTO, VALUES, DISTINCT or set operation.
bool HasOnlyTargets(const PgQuery__SelectStmt* s);

// The call output `target` is - `f(...)` or `pg_catalog.f(...)`, not an aggregate or
// window call - with its function's name in `name`; null for any other target.
const PgQuery__FuncCall* PlainCallTarget(const PgQuery__Node* target, std::string& name);

}  // namespace caracal::planner
