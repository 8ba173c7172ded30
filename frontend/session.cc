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

namespace {

// Any exception out of a statement as the error a client sees: a SqlError as it is, an
// engine error with its SQLSTATE, anything else as an internal error (never a crash).
StatementResult Failed(std::exception_ptr error, const std::string& text) {
  ErrorReport r;
  r.query = text;
  try {
    std::rethrow_exception(error);
  } catch (const planner::SqlError& e) {
    r = ErrorReport{"ERROR", e.sqlstate(), e.what(), e.detail(), e.hint(), e.context(), 0, text};
    if (e.location() >= 0) r.position = CharacterPosition(text, e.location());
  } catch (const EngineError& e) {
    r = ErrorReport{"ERROR", e.sqlstate(), e.what(), "", "", "", 0, text};
  } catch (const std::exception& e) {
    r = ErrorReport{"ERROR", "XX000", fmt::format("internal error: {}", e.what()), "", "", "", 0, text};
  }
  StatementResult result;
  result.error = std::move(r);
  return result;
}

}  // namespace

PendingResult::PendingResult(StatementResult done) : done_(std::move(done)) {}

PendingResult::PendingResult(std::shared_future<TxnResult> txn, std::function<StatementResult(TxnResult&&)> finish)
    : txn_(std::move(txn)), finish_(std::move(finish)) {}

StatementResult PendingResult::Get() {
  if (!done_) {
    TxnResult r = txn_.get();
    done_ = finish_(std::move(r));
  }
  return std::move(*done_);
}

PendingResult Session::StartStatement(const PgQuery__Node* stmt, const std::string& text) {
  try {
    return PendingResult(RunStatement(stmt));
  } catch (...) {
    return PendingResult(Failed(std::current_exception(), text));
  }
}

std::vector<StatementResult> Session::Execute(std::string_view sql) {
  std::vector<StatementResult> results;
  std::string text(sql);
  std::optional<ParseTree> tree;
  try {
    tree.emplace(ParseTree::Parse(text));
  } catch (const SyntaxError& e) {
    StatementResult r;
    r.error = ErrorReport{"ERROR", "42601", e.what(), "", "", "", e.position(), text};
    results.push_back(std::move(r));
    return results;
  }
  for (const ParsedStatement& s : tree->statements()) {
    results.push_back(StartStatement(s.node, text).Get());
    if (results.back().error) break;
  }
  return results;
}

std::vector<PendingResult> Session::Submit(std::string_view sql) {
  std::vector<PendingResult> results;
  std::string text(sql);
  std::optional<ParseTree> tree;
  try {
    tree.emplace(ParseTree::Parse(text));
  } catch (const SyntaxError& e) {
    StatementResult r;
    r.error = ErrorReport{"ERROR", "42601", e.what(), "", "", "", e.position(), text};
    results.emplace_back(std::move(r));
    return results;
  }
  for (const ParsedStatement& s : tree->statements()) results.push_back(StartStatement(s.node, text));
  return results;
}

}  // namespace caracal::frontend
