#include "planner/exec/do_block.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include <string>

#include "planner/analysis/write_set_analysis.h"
#include "planner/binder/procedure_binder.h"
#include "planner/parser/fragment_parser.h"
#include "planner/parser/plpgsql_parser.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

std::shared_ptr<ProcedureIr> BindDoBlock(const PgQuery__DoStmt* stmt, std::string_view text, const Catalog& catalog) {
  std::string body;
  bool has_body = false;
  std::string language = "plpgsql";
  for (size_t i = 0; i < stmt->n_args; ++i) {
    const PgQuery__DefElem* d = stmt->args[i]->def_elem;
    const PgQuery__Node* arg = d->arg;
    const char* value = arg && arg->node_case == PG_QUERY__NODE__NODE_STRING ? arg->string->sval : "";
    if (std::string_view(d->defname) == "as") {
      body = value;
      has_body = true;
    } else if (std::string_view(d->defname) == "language") {
      language = value;
    }
  }
  // PostgreSQL's ExecuteDoStmt, in its order.
  if (!has_body) throw SqlError(sqlstate::kSyntaxError, "no inline code specified");
  if (language == "sql" || language == "internal" || language == "c")
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("language \"{}\" does not support inline code execution", language));
  if (language != "plpgsql")
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("language \"{}\" does not exist", language));

  // The body as the AS string of a procedure: PL/pgSQL numbers lines from the start of
  // that string, as it does for the DO body, so lines and CONTEXT come out the same.
  const std::string tag = DollarTagFor(body);
  const std::string head = "CREATE PROCEDURE inline_code_block() LANGUAGE plpgsql AS " + tag;
  const std::string create = head + body + tag;
  // Error positions point into `create`; the client knows `text`, where a dollar-quoted
  // body stands as it is (a body in '...' with doubled quotes is not found: no position).
  const size_t found = body.empty() ? std::string_view::npos : text.find(body);
  const int body_in_text = found == std::string_view::npos ? -1 : static_cast<int>(found);
  try {
    PgParse parse = PgParse::Parse(create);
    std::shared_ptr<ProcedureIr> ir = BindProcedure(parse.statement(0)->create_function_stmt, create, catalog);
    ir->command_tag = "DO";
    ir->source = std::string(text);
    AnalyzeProcedure(*ir, catalog);
    return ir;
  } catch (SqlError& e) {
    e.Relocate(static_cast<int>(head.size()), body_in_text);
    throw;
  }
}

}  // namespace caracal::planner
