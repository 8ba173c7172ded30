#include "server/wire_result.h"

#include <fmt/format.h>

#include "planner/parser/parse_tree.h"
#include "planner/types/sql_error.h"
#include "server/pg_types.h"

namespace caracal::server {

std::vector<WireColumn> WireColumns(const std::vector<planner::ResultColumn>& columns) {
  std::vector<WireColumn> out;
  out.reserve(columns.size());
  for (const planner::ResultColumn& c : columns) out.push_back({c.name, TypeOid(c.type), TypeModifier(c.type)});
  return out;
}

ErrorFields ErrorFromReport(const frontend::ErrorReport& r) {
  ErrorFields e;
  e.severity = r.severity.empty() ? "ERROR" : r.severity;
  e.sqlstate = r.sqlstate.empty() ? "XX000" : r.sqlstate;
  e.message = r.message;
  e.detail = r.detail;
  e.hint = r.hint;
  e.context = r.context;
  e.position = r.position;
  return e;
}

WireResult FromStatementResult(frontend::StatementResult&& r) {
  WireResult w;
  w.tag = std::move(r.tag);
  for (std::string& n : r.notices) {
    ErrorFields f;
    f.severity = "NOTICE";
    f.sqlstate = "00000";
    if (n.rfind("WARNING:", 0) == 0) {
      f.severity = "WARNING";
      f.sqlstate = "01000";
      n.erase(0, 8);
      while (!n.empty() && n[0] == ' ') n.erase(0, 1);
    }
    f.message = std::move(n);
    w.notices.push_back(std::move(f));
  }
  w.copy_out = std::move(r.copy_out);
  if (r.rows) {
    w.columns = WireColumns(r.rows->columns);
    w.rows = std::move(r.rows->rows);
  }
  if (r.error) w.error = ErrorFromReport(*r.error);
  return w;
}

WireResult FromCurrentException(const std::string& query) {
  WireResult w;
  ErrorFields e;
  try {
    throw;
  } catch (const planner::SqlError& x) {
    e.sqlstate = x.sqlstate();
    e.message = x.what();
    e.detail = x.detail();
    e.hint = x.hint();
    e.context = x.context();
    if (x.location() >= 0) e.position = frontend::CharacterPosition(query, x.location());
  } catch (const planner::SyntaxError& x) {
    e.sqlstate = "42601";
    e.message = x.what();
    e.hint = x.hint();
    e.position = x.position();
  } catch (const std::exception& x) {
    e.message = fmt::format("internal error: {}", x.what());
  }
  w.error = std::move(e);
  return w;
}

WireResult TextRows(std::vector<std::string> names, std::vector<std::vector<std::optional<std::string>>> rows,
                    std::string tag) {
  WireResult w;
  w.columns.emplace();
  for (std::string& n : names) w.columns->push_back({std::move(n), 25, -1});
  w.tag = tag.empty() ? fmt::format("SELECT {}", rows.size()) : std::move(tag);
  w.rows = std::move(rows);
  return w;
}

}  // namespace caracal::server
