// SQL-level PREPARE / EXECUTE (PostgreSQL's commands/prepare.c): a statement kept by name
// with the declared types of its $n parameters. EXECUTE evaluates its arguments, converts
// each to its parameter's type and gives the statement's text with them substituted as
// typed literals, as the wire server binds the extended protocol's parameters, so that
// the statement is bound and planned anew each time (a plan cache is issue 41's). The
// caller (the shell's session, a wire connection) keeps the statements, one namespace per
// session as in PostgreSQL, and runs the text it gets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "planner/parser/parameter_tokens.h"
#include "planner/parser/parse_tree.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {
class Catalog;
}

namespace caracal::planner {

struct PreparedStatement {
  std::string name;
  std::string text;                  // the statement after AS
  std::vector<ParameterSlot> slots;  // its $n
  std::vector<SqlType> types;        // per parameter, declared; kUnknown where not (typed by its use)
};

// PREPARE `stmt`, whose whole text is `text`. Throws SqlError: a $n beyond the declared
// types is untyped; a statement that does not scan is a syntax error.
PreparedStatement Prepare(const PgQuery__PrepareStmt* stmt, std::string_view text, const Catalog* catalog);

// The text EXECUTE `stmt` of `prepared` runs. Throws SqlError: 42601 "wrong number of
// parameters ..." (PostgreSQL's wording), an argument that is not a constant expression
// or does not convert to its parameter's type.
std::string ExecuteText(const PreparedStatement& prepared, const PgQuery__ExecuteStmt* stmt);

// A prepared statement's text (PREPARE's, or ExecuteText's) parsed; throws SyntaxError,
// or 42601 unless it is one statement.
ParseTree ParseExecuteText(const std::string& text);

// PostgreSQL's errors for a prepared statement's name: 42P05 taken, 26000 unknown.
SqlError PreparedStatementExists(const std::string& name);
SqlError PreparedStatementMissing(const std::string& name);

}  // namespace caracal::planner
