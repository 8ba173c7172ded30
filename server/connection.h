// Connection: one client of the server, run on its own thread from accept to close:
// the start-up packet (SSL/GSSAPI encryption requests refused with 'N', CancelRequest
// handed to the server), authentication (trust or SCRAM-SHA-256), then PostgreSQL's
// message loop: the simple query protocol and the extended one (Parse / Bind / Describe
// / Execute / Sync / Close / Flush) with named and unnamed statements and portals.
//
// Per-connection state is here (settings, transaction-block status, prepared statements,
// portals); the database is the SharedSession every connection uses. Replies are
// buffered and sent at ReadyForQuery, Flush, or when the buffer grows large. A client
// that breaks the protocol gets an ErrorResponse (FATAL) and is disconnected; nothing
// it sends can reach beyond its own connection.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/exec/prepared_statement.h"
#include "planner/exec/setting_call.h"
#include "planner/parser/parse_tree.h"
#include "server/connection_settings.h"
#include "server/parameters.h"
#include "server/protocol.h"
#include "server/server_config.h"
#include "server/shared_session.h"
#include "server/socket.h"
#include "server/wire_result.h"

namespace caracal::server {

// What a connection asks of its server (cancel keys, the connection limit).
class ConnectionHost {
 public:
  virtual ~ConnectionHost() = default;
  // A CancelRequest arrived on a fresh connection.
  virtual void CancelRequest(int32_t pid, int32_t secret) = 0;
  // Whether this connection may be served (the limit on connections at once).
  virtual bool Admit() = 0;
};

class Connection {
 public:
  Connection(Socket socket, const ServerConfig& config, SharedSession& shared, ConnectionHost& host, int32_t pid,
             int32_t secret);
  // Serves the client until it leaves, breaks the protocol or the server stops.
  void Run();
  // From another thread: a CancelRequest for this connection (statements not started
  // yet fail with 57014; a call already submitted still commits or aborts).
  void Cancel() { cancel_requested_ = true; }
  // From another thread: the server stops; Run returns soon.
  void Stop() {
    stopping_ = true;
    socket_.Shutdown();
  }
  int32_t pid() const { return pid_; }
  // Whether the server admitted it (it counts against the connection limit).
  bool admitted() const { return admitted_; }
  int32_t secret() const { return secret_; }

  // The statement state of the extended protocol.
  struct Prepared {
    std::string text;
    std::shared_ptr<const planner::ParseTree> tree;  // at most one statement
    std::vector<planner::ParameterSlot> slots;
    std::vector<int32_t> types;  // declared or inferred; 0: unknown (text, bound untyped)
  };
  struct Portal {
    std::shared_ptr<const Prepared> statement;
    std::string text;                                // with the parameters bound
    std::shared_ptr<const planner::ParseTree> tree;  // of `text`
    std::vector<int16_t> result_formats;
    std::optional<WireResult> result;  // once run (Describe or Execute)
    size_t rows_sent = 0;
  };

 private:
  // Start-up: false if the connection should close (after what was sent).
  bool Startup();
  bool Authenticate(const std::string& user);
  // Reads one message: type and body. False when the client left or timed out.
  bool ReadMessage(char& type, std::string& body);
  void Flush();
  void SendFatal(const std::string& sqlstate, const std::string& message);

  // The message loop's handlers.
  void SimpleQuery(MessageReader& in);
  void ParseMessage(MessageReader& in);
  void BindMessage(MessageReader& in);
  void DescribeMessage(MessageReader& in);
  void ExecuteMessage(MessageReader& in);
  void CloseMessage(MessageReader& in);
  void SendReadyForQuery();

  // Runs one statement of `text` (local statements, catalog emulation, or the database),
  // keeping the transaction-block status.
  WireResult RunStatement(const planner::ParsedStatement& stmt, const std::string& text);
  // RunStatement in two halves, for a message whose statements all start before any
  // result is taken (an implicit block): what is answered at once, or what to wait for.
  struct Started {
    std::optional<WireResult> done;
    std::optional<frontend::PendingResult> pending;
  };
  Started StartStatement(const planner::ParsedStatement& stmt, const std::string& text);
  static WireResult Finish(Started& started);
  // One statement's answer in the simple protocol; false if it was an error.
  bool SendStatementResult(WireResult& r);
  // SET inside a transaction block (PostgreSQL's semantics): the first one keeps the
  // values the block started with; `local` ones are restored when the block ends.
  // `canonical` empty: RESET ALL.
  void NoteSettingInBlock(const std::string& canonical, bool local);
  // The block ended: keep the SETs (but not SET LOCAL) if it committed, else undo them;
  // changed reported parameters go out as ParameterStatus with `r`.
  void EndBlockSettings(bool committed, WireResult& r);
  // Statements answered by the connection itself: BEGIN/COMMIT/ROLLBACK, per-connection
  // SET/SHOW/RESET, DEALLOCATE, DISCARD (local_statements.cc).
  std::optional<WireResult> RunLocal(const planner::ParsedStatement& stmt, const std::string& text);
  // SELECT set_config(...) / current_setting(...) alone (planner/exec/setting_call.h).
  WireResult RunSettingCall(const planner::SettingCall& call);
  // COPY ... FROM STDIN: CopyInResponse, the client's CopyData up to CopyDone (CopyFail:
  // the COPY fails, 57014), then the COPY with that data, under the session's lock.
  WireResult RunCopyFromStdin(const planner::ParsedStatement& stmt, const std::string& text);
  // Describing a local statement without running it: SHOW's one column, or no columns;
  // nullopt for statements that are not local.
  std::optional<WireResult> RunLocalDescribe(const planner::ParsedStatement& stmt);
  // The columns a prepared statement returns (nullopt: none), for Describe.
  std::optional<std::vector<WireColumn>> DescribeColumns(const Prepared& p);
  // Sends a result's notices (filtered by client_min_messages) and parameter changes.
  void SendSideMessages(const WireResult& r);
  // Sends a portal's rows (all when max_rows is 0) and its CommandComplete or PortalSuspended.
  void SendRows(Portal& portal, int32_t max_rows);
  void SendError(const ErrorFields& e);
  void RunPortal(Portal& portal);

  Socket socket_;
  const ServerConfig& config_;
  SharedSession& shared_;
  ConnectionHost& host_;
  const int32_t pid_;
  const int32_t secret_;
  std::atomic<bool> cancel_requested_{false};
  std::atomic<bool> stopping_{false};
  bool admitted_ = false;

  std::string user_ = "caracal";
  std::string database_;
  ConnectionSettings settings_;
  // BEGIN ... COMMIT of this connection (frontend/session/transaction_block.h); a
  // connection that closes inside one discards it, as a ROLLBACK.
  frontend::TransactionBlock block_;
  ReplyBuffer out_;
  std::optional<ConnectionSettings> settings_at_block_start_;  // set by a SET inside a block
  std::map<std::string, std::string> local_restore_;          // SET LOCAL: values to restore at COMMIT
  bool skip_until_sync_ = false;  // an extended-protocol message failed
  std::map<std::string, std::shared_ptr<const Prepared>> statements_;  // "" is the unnamed one
  // SQL PREPARE's statements (EXECUTE runs them; DEALLOCATE drops them and statements_'s).
  std::map<std::string, planner::PreparedStatement> sql_prepared_;
  std::map<std::string, Portal> portals_;
};

}  // namespace caracal::server
