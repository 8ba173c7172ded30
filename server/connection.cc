#include "server/connection.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <fmt/format.h>

#include "planner/types/sql_error.h"
#include "server/scram.h"

namespace caracal::server {

namespace {

// The start-up packet is small in every real client; PostgreSQL bounds it at 10000.
constexpr int32_t kMaxStartupPacket = 10000;
// Replies are sent once this much is buffered even before a Sync (big results).
constexpr size_t kFlushThreshold = 64 * 1024;

int32_t BigEndian32(const std::string& b, size_t at) {
  auto u = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(b[at + i])); };
  return static_cast<int32_t>((u(0) << 24) | (u(1) << 16) | (u(2) << 8) | u(3));
}

}  // namespace

Connection::Connection(Socket socket, const ServerConfig& config, SharedSession& shared, ConnectionHost& host,
                       int32_t pid, int32_t secret)
    : socket_(std::move(socket)), config_(config), shared_(shared), host_(host), pid_(pid), secret_(secret) {}

void Connection::Flush() {
  if (out_.empty()) return;
  socket_.WriteAll(out_.bytes(), Clock::now() + config_.message_timeout);
  out_.clear();
}

void Connection::SendFatal(const std::string& sqlstate, const std::string& message) {
  ErrorFields e;
  e.severity = "FATAL";
  e.sqlstate = sqlstate;
  e.message = message;
  out_.Error(e);
  Flush();
}

void Connection::SendError(const ErrorFields& e) {
  out_.Error(e);
}

bool Connection::Startup() {
  Clock::time_point deadline = Clock::now() + config_.startup_timeout;
  for (;;) {
    std::string packet;
    Socket::Read r = socket_.ReadExact(packet, 4, deadline);
    if (r == Socket::Read::kTimeout) {
      SendFatal("08006", "canceling authentication due to timeout");
      return false;
    }
    if (r != Socket::Read::kOk) return false;
    int32_t len = BigEndian32(packet, 0);
    if (len < 8 || len > kMaxStartupPacket) {
      SendFatal("08P01", "invalid length of startup packet");
      return false;
    }
    packet.clear();
    r = socket_.ReadExact(packet, static_cast<size_t>(len - 4), deadline);
    if (r != Socket::Read::kOk) {
      if (r == Socket::Read::kTimeout) SendFatal("08006", "canceling authentication due to timeout");
      return false;
    }
    int32_t code = BigEndian32(packet, 0);
    if (code == kSslRequestCode || code == kGssEncRequestCode) {
      // No TLS, no GSSAPI encryption: 'N', and the client goes on in the clear (or leaves).
      if (!socket_.WriteAll("N", deadline)) return false;
      continue;
    }
    if (code == kCancelRequestCode) {
      if (len == 16) host_.CancelRequest(BigEndian32(packet, 4), BigEndian32(packet, 8));
      return false;  // PostgreSQL closes a cancel connection without a reply
    }
    if ((code >> 16) != 3) {
      SendFatal("0A000", fmt::format("unsupported frontend protocol {}.{}: server supports 3.0 to 3.0", code >> 16,
                                     code & 0xFFFF));
      return false;
    }
    // name\0value\0 ... \0
    MessageReader in(std::string_view(packet).substr(4));
    std::map<std::string, std::string> params;
    try {
      for (;;) {
        std::string name = in.String();
        if (name.empty()) break;
        params[name] = in.String();
      }
      if (in.remaining() != 0) throw ProtocolError("invalid startup packet layout: expected terminator as last byte");
    } catch (const ProtocolError& e) {
      SendFatal("08P01", e.what());
      return false;
    }
    if (params.count("replication") && params["replication"] != "false" && params["replication"] != "0") {
      SendFatal("0A000", "replication connections are not supported");
      return false;
    }
    if (params.count("user")) user_ = params["user"];
    if (user_.empty()) {
      SendFatal("28000", "no PostgreSQL user name specified in startup packet");
      return false;
    }
    database_ = params.count("database") && !params["database"].empty() ? params["database"] : user_;
    if (!host_.Admit()) {
      SendFatal("53300", "sorry, too many clients already");
      return false;
    }
    admitted_ = true;
    try {
      for (const auto& [name, value] : params)
        if (name != "user" && name != "database" && name != "options" && name != "replication")
          settings_.SetFromStartup(name, value);
    } catch (const planner::SqlError& e) {
      SendFatal(e.sqlstate(), e.what());
      return false;
    }
    if (!Authenticate(user_)) return false;
    out_.AuthenticationOk();
    for (const auto& [name, value] : settings_.Reported())
      out_.ParameterStatus(name, name == "session_authorization" ? user_ : value);
    out_.BackendKeyData(pid_, secret_);
    SendReadyForQuery();
    Flush();
    return true;
  }
}

bool Connection::Authenticate(const std::string& user) {
  if (!config_.password) {
    if (socket_.PeerIsLoopback() || config_.trust_remote) return true;
    SendFatal("28000", fmt::format("no password is configured, so only loopback connections are trusted (user \"{}\")", user));
    return false;
  }
  // SCRAM-SHA-256: SASL, SASLInitialResponse, SASLContinue, SASLResponse, SASLFinal.
  Clock::time_point deadline = Clock::now() + config_.startup_timeout;
  (void)deadline;
  ScramServer scram(*config_.password);
  out_.AuthenticationSasl({ScramServer::kMechanism});
  Flush();
  auto fail = [&](const std::string& message) {
    SendFatal("28P01", fmt::format("password authentication failed for user \"{}\"", user));
    (void)message;
    return false;
  };
  try {
    char type = 0;
    std::string body;
    if (!ReadMessage(type, body)) return false;
    if (type != 'p') throw ProtocolError(fmt::format("expected SASL response, got message type {}", static_cast<int>(type)));
    MessageReader in(body);
    std::string mechanism = in.String();
    if (mechanism != ScramServer::kMechanism)
      throw ProtocolError("client selected an invalid SASL authentication mechanism");
    int32_t n = in.Int32();
    if (n < 0) throw ProtocolError("invalid SASL initial response");
    std::string first(in.Bytes(static_cast<size_t>(n)));
    out_.AuthenticationSaslContinue(scram.ClientFirst(first));
    Flush();
    if (!ReadMessage(type, body)) return false;
    if (type != 'p') throw ProtocolError("expected SASL response");
    out_.AuthenticationSaslFinal(scram.ClientFinal(body));
    return true;
  } catch (const AuthenticationError& e) {
    return fail(e.what());
  } catch (const ProtocolError& e) {
    SendFatal(e.sqlstate(), e.what());
    return false;
  }
}

bool Connection::ReadMessage(char& type, std::string& body) {
  std::string head;
  Clock::time_point idle_deadline =
      config_.idle_timeout.count() > 0 ? Clock::now() + config_.idle_timeout : Clock::time_point::max();
  Socket::Read r = socket_.ReadExact(head, 1, idle_deadline);
  if (r == Socket::Read::kTimeout) {
    SendFatal("57P05", "terminating connection due to idle-session timeout");
    return false;
  }
  if (r != Socket::Read::kOk) return false;
  Clock::time_point deadline = Clock::now() + config_.message_timeout;
  r = socket_.ReadExact(head, 4, deadline);
  if (r != Socket::Read::kOk) return false;
  type = head[0];
  int32_t len = BigEndian32(head, 1);
  if (len < 4 || static_cast<size_t>(len) - 4 > config_.max_message_bytes)
    throw ProtocolError(fmt::format("invalid message length {}", len));
  body.clear();
  r = socket_.ReadExact(body, static_cast<size_t>(len) - 4, deadline);
  if (r == Socket::Read::kTimeout) throw ProtocolError("incomplete message from client");
  return r == Socket::Read::kOk;
}

void Connection::SendReadyForQuery() {
  // A cancel that arrived after the last statement started has nothing left to cancel:
  // as in PostgreSQL, it does not reach the next query.
  cancel_requested_ = false;
  out_.ReadyForQuery(block_.ready_status());
}

void Connection::Run() {
  int one = 1;
  ::setsockopt(socket_.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (!Startup()) return;
  try {
    for (;;) {
      if (stopping_) {
        SendFatal("57P01", "terminating connection due to administrator command");
        return;
      }
      char type = 0;
      std::string body;
      if (!ReadMessage(type, body)) return;
      MessageReader in(body);
      if (skip_until_sync_ && type != 'S' && type != 'X') continue;
      switch (type) {
        case 'Q': SimpleQuery(in); break;
        case 'P': ParseMessage(in); break;
        case 'B': BindMessage(in); break;
        case 'D': DescribeMessage(in); break;
        case 'E': ExecuteMessage(in); break;
        case 'C': CloseMessage(in); break;
        case 'H': Flush(); break;
        case 'S':
          in.ExpectEnd();
          skip_until_sync_ = false;
          // The end of the implicit transaction: unnamed portal and every portal go.
          portals_.clear();
          SendReadyForQuery();
          Flush();
          break;
        case 'X': return;
        case 'd':
        case 'c':
        case 'f': break;  // CopyData / CopyDone / CopyFail outside COPY: ignored, as PostgreSQL does
        case 'F': {
          ErrorFields e;
          e.sqlstate = "0A000";
          e.message = "the fast-path function call interface is not supported";
          SendError(e);
          skip_until_sync_ = true;
          break;
        }
        default:
          throw ProtocolError(fmt::format("invalid frontend message type {}", static_cast<int>(static_cast<unsigned char>(type))));
      }
      if (out_.bytes().size() > kFlushThreshold) Flush();
    }
  } catch (const ProtocolError& e) {
    SendFatal(e.sqlstate(), e.what());
  } catch (const std::exception& e) {
    SendFatal("XX000", fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace caracal::server
