#include "frontend/session.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include "engine/errors.h"
#include "frontend/parser.h"
#include "frontend/statement_names.h"
#include "planner/copy.h"
#include "planner/ddl.h"
#include "planner/select_exec.h"
#include "planner/select_plan.h"
#include "planner/sql_error.h"

namespace caracal::frontend {

int CharacterPosition(std::string_view text, int offset) {
  int chars = 0;
  for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  return chars + 1;
}

Session::Session(SessionOptions options)
    : db_(std::make_unique<Database>()),
      engine_(std::make_unique<Engine>(*db_, options.engine)),
      catalog_(std::make_unique<planner::Catalog>(*db_)) {}

Session::~Session() {
  // The engine's threads must stop before the database they run on goes away.
  engine_.reset();
}

StatementResult Session::RunStatement(const PgQuery__Node* stmt) {
  StatementResult result;
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT: {
      planner::SelectPlan plan = planner::PlanSelect(stmt->select_stmt, *catalog_);
      result.rows = planner::ExecuteSelect(plan, *db_);
      result.tag = fmt::format("SELECT {}", result.rows->rows.size());
      return result;
    }
    case PG_QUERY__NODE__NODE_COPY_STMT: {
      int64_t n = planner::CopyFrom(stmt->copy_stmt, *catalog_, *engine_);
      result.tag = fmt::format("COPY {}", n);
      return result;
    }
    default: break;
  }
  if (planner::IsDdl(stmt)) {
    planner::DdlOutcome outcome = planner::ExecuteDdl(stmt, *catalog_, *engine_);
    result.tag = outcome.tag;
    result.notices = std::move(outcome.notices);
    return result;
  }
  throw planner::SqlError(planner::sqlstate::kFeatureNotSupported,
                          fmt::format("{} is not supported yet", StatementName(stmt)));
}

std::vector<StatementResult> Session::Execute(std::string_view sql) {
  std::vector<StatementResult> results;
  std::string text(sql);
  auto fail = [&](ErrorReport report) {
    report.query = text;
    StatementResult r;
    r.error = std::move(report);
    results.push_back(std::move(r));
  };
  std::optional<ParseTree> tree;
  try {
    tree.emplace(ParseTree::Parse(text));
  } catch (const SyntaxError& e) {
    fail(ErrorReport{"ERROR", "42601", e.what(), "", "", "", e.position(), ""});
    return results;
  }
  for (const ParsedStatement& s : tree->statements()) {
    try {
      results.push_back(RunStatement(s.node));
    } catch (const planner::SqlError& e) {
      ErrorReport r{"ERROR", e.sqlstate(), e.what(), e.detail(), e.hint(), e.context(), 0, ""};
      if (e.location() >= 0) r.position = CharacterPosition(text, e.location());
      fail(std::move(r));
      return results;
    } catch (const EngineError& e) {
      fail(ErrorReport{"ERROR", e.sqlstate(), e.what(), "", "", "", 0, ""});
      return results;
    } catch (const std::exception& e) {
      // A bug of ours, not the user's: still an error, never a crash.
      fail(ErrorReport{"ERROR", "XX000", fmt::format("internal error: {}", e.what()), "", "", "", 0, ""});
      return results;
    }
  }
  return results;
}

}  // namespace caracal::frontend
