// ServerConfig: how `caracal --listen` serves: the address, authentication and the
// limits that keep one client from disturbing the others.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace caracal::server {

struct ServerConfig {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  int port = 5432;
  // Connections served at once; one more gets FATAL 53300 "sorry, too many clients".
  int max_connections = 200;
  // A frontend message (or start-up packet, bounded at 10000 bytes) longer than this is
  // a protocol violation: ErrorResponse, then the connection closes.
  size_t max_message_bytes = size_t{64} << 20;
  // From accepting a connection to its first ReadyForQuery (authentication included).
  std::chrono::milliseconds startup_timeout{std::chrono::seconds(10)};
  // Between messages; 0 = wait forever (PostgreSQL's idle_session_timeout).
  std::chrono::milliseconds idle_timeout{0};
  // Once a message has started arriving, the rest of it must arrive within this.
  std::chrono::milliseconds message_timeout{std::chrono::seconds(30)};
  // Set: every client authenticates with SCRAM-SHA-256 against this password. Unset:
  // trust, and then only for loopback clients unless `trust_remote`.
  std::optional<std::string> password;
  bool trust_remote = false;
  std::string database_name = "caracal";
};

}  // namespace caracal::server
