// LANGUAGE sql functions, run as the PL/pgSQL body that does what PostgreSQL does with
// them: each statement in turn, the last one's rows the result - its first row's value for
// a function returning one value (NULL without a row), all of them for SETOF / TABLE, none
// for void. The procedure binder binds that body in place of the SQL one, so a SQL
// function has what a PL/pgSQL one has: write sets inferred, calls from other bodies.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// The PL/pgSQL body (a BEGIN ... END block) for SQL body `sql` of `ir`, whose signature and
// result are bound. Throws SqlError: 42601 if `sql` does not parse, 0A000 for what is not
// supported yet (OUT parameters, a last statement that returns rows from a write into a
// set, statements other than SELECT / VALUES / INSERT / UPDATE / DELETE).
struct TranslatedSqlBody {
  std::string plpgsql;
  // The line of `plpgsql` each SQL statement starts on, in order (ProcedureIr::
  // sql_statement_lines: CONTEXT names the statement as PostgreSQL does).
  std::vector<int> statement_lines;
};
TranslatedSqlBody SqlBodyAsPlpgsql(std::string_view sql, const ProcedureIr& ir);

}  // namespace caracal::planner
