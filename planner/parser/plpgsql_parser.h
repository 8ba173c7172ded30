// ParsePlpgsql: the PL/pgSQL body of one CREATE FUNCTION / CREATE PROCEDURE statement,
// parsed by libpg_query's pg_query_parse_plpgsql into its JSON tree (the statements;
// embedded SQL and expressions stay text, which the procedure binder parses again).
//
// libpg_query 15-4.0.0 compiles every body as if the function returned void and had no
// OUT parameters, so PL/pgSQL's `RETURN NEXT;` (valid with OUT parameters or RETURNS
// TABLE) fails to parse there. Bodies of such functions are rewritten first: each bare
// `RETURN NEXT ;` (found by token, never inside strings or comments) gets the marker
// expression kReturnNextOutRow, which the binder reads as "the OUT parameters' row".
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/parser/cursor_statements.h"

namespace caracal::planner {

inline constexpr std::string_view kReturnNextOutRow = "caracal_out_parameters_row";
inline constexpr std::string_view kAliasPlaceholderType = "\"$alias\"";

struct PlpgsqlBody {
  nlohmann::json function;  // the "PLpgSQL_function" object: "datums", "action"
  std::string body;         // the body as written (the AS string)
  int body_offset = -1;     // byte offset of the body in the statement text; -1: unknown
  // The expression of each RETURN NEXT, in order, with its line: libpg_query's JSON
  // leaves it out ("" for a bare RETURN NEXT).
  std::vector<std::pair<int, std::string>> return_next;
  // `name ALIAS FOR $n;` / `name ALIAS FOR param;` declarations of the top block, which
  // libpg_query cannot parse (it compiles the body without the function's parameters):
  // listed here, names case-folded, and replaced in the text it parses by a declaration
  // of the same name of type kAliasPlaceholderType (so the name is known to it as an
  // INTO target; the binder maps that datum to the aliased slot).
  struct Alias {
    std::string name;
    std::string target;  // "$2" or a parameter name
    int line = 0;
    int target_offset = 0;  // byte offset of the target in the body
    bool nested = false;    // declared in a nested block (after the first BEGIN)
  };
  std::vector<Alias> aliases;
  // The cursor statements, replaced by markers in the text libpg_query parsed
  // (cursor_statements.h).
  std::vector<CursorStatement> cursors;
  // Declarations of a row-type variable (`r t%ROWTYPE;`, and `r t;` where the caller
  // said t is a row type), which libpg_query cannot type (it knows no table) and so
  // would not let `r.f := x` assign a field: parsed as `r RECORD;` (a record datum), and
  // listed here with the type as written (names case-folded) for the binder.
  struct RowTypeDeclaration {
    std::string name;
    std::string type;  // "t%rowtype" or "t"
    int line = 0;
  };
  std::vector<RowTypeDeclaration> row_types;
};

// Throws SqlError (42601 with PostgreSQL's message and a CONTEXT naming the line) when
// the body does not parse. `returns_out_row`: the function has OUT parameters or
// RETURNS TABLE (enables the RETURN NEXT rewrite above). `body_text`: the PL/pgSQL body
// to parse instead of the statement's own (a SQL function's, translated:
// binder/sql_function_body.h); positions in it are then unknown (body_offset -1).
// `is_row_type`: whether a type name (case-folded) names a table's or composite type's
// row type (null: only %ROWTYPE declarations are row types).
PlpgsqlBody ParsePlpgsql(std::string_view statement_text, bool returns_out_row,
                         const std::optional<std::string>& body_text = std::nullopt,
                         const std::function<bool(const std::string&)>& is_row_type = nullptr);

// A dollar-quote tag ($caracal$, $caracal_$, ...) that does not occur in `body`, to quote
// it as a function body.
std::string DollarTagFor(std::string_view body);

}  // namespace caracal::planner
