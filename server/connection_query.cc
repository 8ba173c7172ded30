// The query part of Connection: the simple query protocol, the extended protocol's
// statement and portal messages, and running one statement.
extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include "planner/exec/copy.h"
#include "planner/exec/sequence_setval.h"
#include "planner/types/sql_error.h"
#include "server/catalog_queries.h"
#include "server/connection.h"
#include "server/pg_types.h"

namespace caracal::server {

namespace {

ErrorFields Error(const std::string& sqlstate, const std::string& message) {
  ErrorFields e;
  e.sqlstate = sqlstate;
  e.message = message;
  return e;
}

int16_t FormatOf(const std::vector<int16_t>& formats, size_t column) {
  if (formats.empty()) return 0;
  if (formats.size() == 1) return formats[0];
  return column < formats.size() ? formats[column] : 0;
}

}  // namespace

Connection::Started Connection::StartStatement(const planner::ParsedStatement& stmt, const std::string& text) {
  Started started;
  if (cancel_requested_.exchange(false)) {
    started.done.emplace();
    started.done->error = Error("57014", "canceling statement due to user request");
    return started;
  }
  try {
    if (std::optional<planner::SettingCall> call = planner::AsSettingCall(stmt.node)) {
      started.done = RunSettingCall(*call);
      return started;
    }
    if (std::optional<WireResult> local = RunLocal(stmt, text)) {
      started.done = std::move(*local);
      return started;
    }
    CatalogContext context{shared_, settings_, user_, database_, pid_};
    // pg_dump's `SELECT pg_catalog.setval(...)` names pg_catalog but reads no catalog.
    if (std::optional<WireResult> answer = planner::IsSetvalSelect(stmt.node) ? std::nullopt
                                                                                : AnswerCatalogQuery(stmt, text, context)) {
      started.done = std::move(*answer);
      return started;
    }
  } catch (...) {
    started.done = FromCurrentException(text);
    return started;
  }
  const PgQuery__Node* n = stmt.node;
  if (n != nullptr && n->node_case == PG_QUERY__NODE__NODE_COPY_STMT && n->copy_stmt->is_from &&
      !n->copy_stmt->is_program && (n->copy_stmt->filename == nullptr || *n->copy_stmt->filename == '\0')) {
    started.done = RunCopyFromStdin(stmt, text);
    return started;
  }
  started.pending = shared_.Start(stmt, text, block_);
  return started;
}

WireResult Connection::Finish(Started& started) {
  if (started.done) return std::move(*started.done);
  return FromStatementResult(started.pending->Get());
}

WireResult Connection::RunStatement(const planner::ParsedStatement& stmt, const std::string& text) {
  Started started = StartStatement(stmt, text);
  WireResult r = Finish(started);
  // The block that SET changed parameters in has ended: ROLLBACK (or a COMMIT that
  // failed) undoes them; COMMIT keeps them but for those set LOCAL.
  if (settings_at_block_start_ && block_.status() == frontend::TransactionBlock::Status::kIdle)
    EndBlockSettings(!r.error && r.tag == "COMMIT", r);
  return r;
}

WireResult Connection::RunCopyFromStdin(const planner::ParsedStatement& stmt, const std::string& text) {
  const PgQuery__CopyStmt* copy = stmt.node->copy_stmt;
  int16_t columns = static_cast<int16_t>(copy->n_attlist);
  if (copy->relation != nullptr) {
    // What PostgreSQL checks before COPY mode (the table, the columns) fails here, before
    // the client starts sending data.
    try {
      columns = shared_.With([&](frontend::Session& s) {
        return static_cast<int16_t>(planner::CopyFromColumns(copy, s.catalog()).size());
      });
    } catch (const planner::SqlError& e) {
      WireResult r;
      r.error = Error(e.sqlstate(), e.what());
      if (!e.detail().empty()) r.error->detail = e.detail();
      return r;
    }
  }
  out_.CopyInResponse(columns);
  Flush();
  std::string data;
  std::optional<std::string> failed;
  for (bool done = false; !done;) {
    char type = 0;
    std::string body;
    if (!ReadMessage(type, body)) throw ProtocolError("unexpected EOF on client connection with an open transaction");
    switch (type) {
      case 'd': data += body; break;
      case 'c': done = true; break;
      case 'f': {
        MessageReader in(body);
        failed = in.String();
        done = true;
        break;
      }
      case 'H':
      case 'S': break;  // PostgreSQL ignores Flush and Sync during COPY
      default:
        throw ProtocolError(fmt::format("unexpected message type 0x{:02x} during COPY from stdin",
                                        static_cast<unsigned char>(type)));
    }
  }
  if (failed) {
    WireResult r;
    r.error = Error("57014", fmt::format("COPY from stdin failed: {}", *failed));
    return r;
  }
  frontend::PendingResult pending = shared_.With([&](frontend::Session& s) {
    s.set_copy_input([&] { return std::move(data); });
    frontend::PendingResult p = s.StartStatement(stmt, text, true, &block_);
    s.set_copy_input({});
    return p;
  });
  return FromStatementResult(pending.Get());
}

void Connection::SendSideMessages(const WireResult& r) {
  for (const ErrorFields& n : r.notices)
    if (settings_.SendsSeverity(n.severity)) out_.Notice(n);
  for (const auto& [name, value] : r.parameter_status) out_.ParameterStatus(name, value);
}

void Connection::SimpleQuery(MessageReader& in) {
  std::string text = in.String();
  in.ExpectEnd();
  // A simple query ends any extended-protocol unnamed portal.
  portals_.erase("");
  std::optional<planner::ParseTree> tree;
  try {
    tree.emplace(planner::ParseTree::Parse(text));
  } catch (...) {
    WireResult r = FromCurrentException(text);
    SendError(*r.error);
    SendReadyForQuery();
    Flush();
    return;
  }
  if (tree->statements().empty()) out_.EmptyQueryResponse();
  // Several statements in one message are one transaction, as in PostgreSQL: known
  // whole before anything is shown, it runs once, and its statements' answers are that
  // run's (Session::BeginImplicitBlock), so every statement starts before any answer is
  // taken.
  if (shared_.With([&](frontend::Session& s) { return s.BeginImplicitBlock(*tree, block_); })) {
    std::vector<Started> started;
    bool failed = false;
    for (const planner::ParsedStatement& stmt : tree->statements()) {
      started.push_back(StartStatement(stmt, text));
      Started& last = started.back();
      if (!last.done && last.pending->WaitFor(std::chrono::milliseconds(0))) last.done = Finish(last);
      if (last.done && last.done->error) {
        failed = true;
        break;
      }
    }
    std::optional<frontend::PendingResult> commit =
        shared_.With([&](frontend::Session& s) { return s.EndImplicitBlock(block_, failed); });
    bool answered_error = false;
    for (Started& s : started) {
      WireResult r = Finish(s);
      if (!SendStatementResult(r)) {
        answered_error = true;
        break;
      }
    }
    if (commit)
      if (frontend::StatementResult done = commit->Get(); done.error && !answered_error)
        SendError(*FromStatementResult(std::move(done)).error);
  } else {
    for (const planner::ParsedStatement& stmt : tree->statements()) {
      WireResult r = RunStatement(stmt, text);
      if (!SendStatementResult(r)) break;
    }
  }
  SendReadyForQuery();
  Flush();
}

bool Connection::SendStatementResult(WireResult& r) {
  SendSideMessages(r);
  if (r.error) {
    SendError(*r.error);
    return false;
  }
  if (r.columns) {
    std::vector<FieldDescription> fields;
    for (const WireColumn& c : *r.columns)
      fields.push_back({c.name, c.type_oid, TypeSize(c.type_oid), c.type_modifier, 0});
    out_.RowDescription(fields);
    for (const auto& row : r.rows) {
      out_.DataRow(row);
      if (out_.bytes().size() > 64 * 1024) Flush();
    }
  }
  if (r.copy_out) out_.CopyOut(*r.copy_out);
  out_.CommandComplete(r.tag);
  return true;
}

void Connection::ParseMessage(MessageReader& in) {
  std::string name = in.String();
  std::string text = in.String();
  int16_t n = in.Int16();
  if (n < 0) throw ProtocolError("invalid number of parameter types");
  std::vector<int32_t> declared;
  for (int i = 0; i < n; ++i) declared.push_back(in.Int32());
  in.ExpectEnd();
  auto fail = [&](const ErrorFields& e) {
    SendError(e);
    skip_until_sync_ = true;
  };
  if (!name.empty() && statements_.count(name)) {
    fail(Error("42P05", fmt::format("prepared statement \"{}\" already exists", name)));
    return;
  }
  auto p = std::make_shared<Prepared>();
  p->text = text;
  try {
    p->tree = std::make_shared<const planner::ParseTree>(planner::ParseTree::Parse(text));
    if (p->tree->statements().size() > 1) {
      fail(Error("42601", "cannot insert multiple commands into a prepared statement"));
      return;
    }
    p->slots = planner::FindParameters(text);
    int count = 0;
    for (const planner::ParameterSlot& s : p->slots) count = std::max(count, s.number);
    const planner::ParsedStatement* stmt = p->tree->statements().empty() ? nullptr : &p->tree->statements()[0];
    p->types = shared_.With([&](frontend::Session& s) {
      return InferParameterTypes(stmt, s.catalog(), declared, count);
    });
  } catch (...) {
    fail(*FromCurrentException(text).error);
    return;
  }
  statements_[name] = std::move(p);
  out_.ParseComplete();
}

void Connection::BindMessage(MessageReader& in) {
  std::string portal_name = in.String();
  std::string statement_name = in.String();
  int16_t nformats = in.Int16();
  if (nformats < 0) throw ProtocolError("invalid number of parameter formats");
  std::vector<int16_t> formats;
  for (int i = 0; i < nformats; ++i) formats.push_back(in.Int16());
  int16_t nvalues = in.Int16();
  if (nvalues < 0) throw ProtocolError("invalid number of parameters");
  std::vector<std::optional<std::string>> raw;
  for (int i = 0; i < nvalues; ++i) {
    int32_t len = in.Int32();
    if (len == -1) {
      raw.emplace_back(std::nullopt);
      continue;
    }
    if (len < 0) throw ProtocolError("invalid parameter length");
    raw.emplace_back(std::string(in.Bytes(static_cast<size_t>(len))));
  }
  int16_t nresults = in.Int16();
  if (nresults < 0) throw ProtocolError("invalid number of result formats");
  std::vector<int16_t> result_formats;
  for (int i = 0; i < nresults; ++i) {
    int16_t f = in.Int16();
    if (f != 0 && f != 1) throw ProtocolError(fmt::format("unsupported format code: {}", f));
    result_formats.push_back(f);
  }
  in.ExpectEnd();
  auto fail = [&](const ErrorFields& e) {
    SendError(e);
    skip_until_sync_ = true;
  };
  auto it = statements_.find(statement_name);
  if (it == statements_.end()) {
    fail(Error("26000", fmt::format("prepared statement \"{}\" does not exist", statement_name)));
    return;
  }
  if (!portal_name.empty() && portals_.count(portal_name)) {
    fail(Error("42P03", fmt::format("portal \"{}\" already exists", portal_name)));
    return;
  }
  const Prepared& p = *it->second;
  if (nformats > 1 && nformats != nvalues)
    throw ProtocolError(fmt::format("bind message has {} parameter formats but {} parameters", nformats, nvalues));
  size_t expected = p.types.size();
  if (static_cast<size_t>(nvalues) != expected) {
    fail(Error("08P01", fmt::format("bind message supplies {} parameters, but prepared statement \"{}\" requires {}",
                                    nvalues, statement_name, expected)));
    return;
  }
  Portal portal;
  portal.statement = it->second;
  portal.result_formats = std::move(result_formats);
  try {
    std::vector<std::optional<std::string>> values;
    for (int i = 0; i < nvalues; ++i) {
      int16_t f = FormatOf(formats, i);
      if (f != 0 && f != 1) throw ProtocolError(fmt::format("unsupported format code: {}", f));
      if (!raw[i] || f == 0) values.push_back(std::move(raw[i]));
      else values.push_back(TextFromBinary(p.types[i], *raw[i]));
      if (values.back() && values.back()->find('\0') != std::string::npos)
        throw planner::SqlError("22021", "invalid byte sequence for encoding \"UTF8\": 0x00");
    }
    if (p.slots.empty()) {
      portal.text = p.text;
      portal.tree = p.tree;
    } else {
      portal.text = SubstituteParameters(p.text, p.slots, p.types, values);
      portal.tree = std::make_shared<const planner::ParseTree>(planner::ParseTree::Parse(portal.text));
    }
  } catch (const ProtocolError&) {
    throw;
  } catch (...) {
    fail(*FromCurrentException(p.text).error);
    return;
  }
  portals_[portal_name] = std::move(portal);
  out_.BindComplete();
}

void Connection::RunPortal(Portal& portal) {
  if (portal.result) return;
  if (portal.tree->statements().empty()) {
    portal.result.emplace();  // EmptyQueryResponse at Execute
    return;
  }
  WireResult r = RunStatement(portal.tree->statements()[0], portal.text);
  SendSideMessages(r);
  portal.result = std::move(r);
}

std::optional<std::vector<WireColumn>> Connection::DescribeColumns(const Prepared& p) {
  if (p.tree->statements().empty()) return std::nullopt;
  // Planned with NULL for every parameter: the columns do not depend on the values.
  std::string text = p.text;
  std::shared_ptr<const planner::ParseTree> tree = p.tree;
  if (!p.slots.empty()) {
    text = SubstituteParameters(p.text, p.slots, p.types, std::vector<std::optional<std::string>>(p.types.size()));
    tree = std::make_shared<const planner::ParseTree>(planner::ParseTree::Parse(text));
  }
  const planner::ParsedStatement& stmt = tree->statements()[0];
  if (std::optional<WireResult> local = RunLocalDescribe(stmt)) return local->columns;
  CatalogContext context{shared_, settings_, user_, database_, pid_};
  if (IsCatalogQuery(stmt, text)) {
    // pg_dump's `SELECT pg_catalog.setval(...)` names pg_catalog but reads no catalog.
    if (std::optional<WireResult> answer = planner::IsSetvalSelect(stmt.node) ? std::nullopt
                                                                                : AnswerCatalogQuery(stmt, text, context)) {
      if (answer->error) throw planner::SqlError(answer->error->sqlstate, answer->error->message);
      return answer->columns;
    }
  }
  std::optional<std::vector<planner::ResultColumn>> columns =
      shared_.With([&](frontend::Session& s) { return s.DescribeStatement(stmt); });
  if (!columns) return std::nullopt;
  return WireColumns(*columns);
}

void Connection::DescribeMessage(MessageReader& in) {
  char kind = static_cast<char>(in.Byte());
  std::string name = in.String();
  in.ExpectEnd();
  auto fail = [&](const ErrorFields& e) {
    SendError(e);
    skip_until_sync_ = true;
  };
  auto describe = [&](const std::optional<std::vector<WireColumn>>& columns, const std::vector<int16_t>& formats) {
    if (!columns) {
      out_.NoData();
      return;
    }
    std::vector<FieldDescription> fields;
    for (size_t i = 0; i < columns->size(); ++i) {
      const WireColumn& c = (*columns)[i];
      fields.push_back({c.name, c.type_oid, TypeSize(c.type_oid), c.type_modifier, FormatOf(formats, i)});
    }
    out_.RowDescription(fields);
  };
  if (kind == 'S') {
    auto it = statements_.find(name);
    if (it == statements_.end()) return fail(Error("26000", fmt::format("prepared statement \"{}\" does not exist", name)));
    std::vector<int32_t> oids;
    for (int32_t t : it->second->types) oids.push_back(t == 0 ? oid::kText : t);
    std::optional<std::vector<WireColumn>> columns;
    try {
      columns = DescribeColumns(*it->second);
    } catch (...) {
      return fail(*FromCurrentException(it->second->text).error);
    }
    out_.ParameterDescription(oids);
    describe(columns, {});
    return;
  }
  if (kind != 'P') throw ProtocolError(fmt::format("invalid DESCRIBE message subtype {}", static_cast<int>(kind)));
  auto it = portals_.find(name);
  if (it == portals_.end()) return fail(Error("34000", fmt::format("portal \"{}\" does not exist", name)));
  // The portal runs now, so its columns are exactly what Execute returns.
  RunPortal(it->second);
  const WireResult& r = *it->second.result;
  if (r.error) return fail(*r.error);
  describe(r.columns, it->second.result_formats);
}

void Connection::SendRows(Portal& portal, int32_t max_rows) {
  const WireResult& r = *portal.result;
  if (portal.tree->statements().empty()) {
    out_.EmptyQueryResponse();
    return;
  }
  if (r.columns) {
    size_t end = r.rows.size();
    if (max_rows > 0) end = std::min(end, portal.rows_sent + static_cast<size_t>(max_rows));
    const std::vector<WireColumn>& columns = *r.columns;
    for (; portal.rows_sent < end; ++portal.rows_sent) {
      const auto& row = r.rows[portal.rows_sent];
      bool any_binary = false;
      for (size_t c = 0; c < columns.size(); ++c) any_binary |= FormatOf(portal.result_formats, c) == 1;
      if (!any_binary) {
        out_.DataRow(row);
      } else {
        std::vector<std::optional<std::string>> values;
        for (size_t c = 0; c < row.size(); ++c)
          values.push_back(row[c] && FormatOf(portal.result_formats, c) == 1
                               ? std::optional<std::string>(BinaryFromText(columns[c].type_oid, *row[c]))
                               : row[c]);
        out_.DataRow(values);
      }
      if (out_.bytes().size() > 64 * 1024) Flush();
    }
    if (portal.rows_sent < r.rows.size()) {
      out_.PortalSuspended();
      return;
    }
  }
  if (r.copy_out) out_.CopyOut(*r.copy_out);
  out_.CommandComplete(r.tag);
}

void Connection::ExecuteMessage(MessageReader& in) {
  std::string name = in.String();
  int32_t max_rows = in.Int32();
  in.ExpectEnd();
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    SendError(Error("34000", fmt::format("portal \"{}\" does not exist", name)));
    skip_until_sync_ = true;
    return;
  }
  Portal& portal = it->second;
  RunPortal(portal);
  if (portal.result->error) {
    SendError(*portal.result->error);
    skip_until_sync_ = true;
    portals_.erase(it);
    return;
  }
  try {
    SendRows(portal, max_rows);
  } catch (...) {
    SendError(*FromCurrentException(portal.text).error);
    skip_until_sync_ = true;
  }
}

void Connection::CloseMessage(MessageReader& in) {
  char kind = static_cast<char>(in.Byte());
  std::string name = in.String();
  in.ExpectEnd();
  if (kind == 'S') {
    statements_.erase(name);
    sql_prepared_.erase(name);
  }
  else if (kind == 'P') portals_.erase(name);
  else throw ProtocolError(fmt::format("invalid CLOSE message subtype {}", static_cast<int>(kind)));
  out_.CloseComplete();
}

}  // namespace caracal::server
