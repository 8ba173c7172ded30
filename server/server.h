// Server: `caracal --listen`: accepts PostgreSQL clients on a TCP port and serves each
// on its own thread (Connection), all on one SharedSession. It owns the connection
// limit, the cancel keys, and an orderly stop: Stop() closes the listener, tells every
// connection to finish (FATAL 57P01), and Run() returns once all have.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "server/connection.h"
#include "server/server_config.h"
#include "server/shared_session.h"

namespace caracal::server {

class Server : private ConnectionHost {
 public:
  // Binds and listens; throws std::runtime_error if the address cannot be used.
  Server(ServerConfig config, frontend::Session& session);
  ~Server() override;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The port actually bound (config port 0: an ephemeral one).
  int port() const { return port_; }
  // Accepts clients until Stop(); returns when every connection has finished.
  void Run();
  // From any thread (a signal-waiting thread): stop accepting and end the connections.
  void Stop();

 private:
  struct Slot {
    std::shared_ptr<Connection> connection;
    std::thread thread;
    std::atomic<bool> done{false};
    bool admitted = false;
  };

  void CancelRequest(int32_t pid, int32_t secret) override;
  bool Admit() override;
  // Joins the threads of finished connections.
  void Reap();

  ServerConfig config_;
  SharedSession shared_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};

  std::mutex mutex_;  // guards slots_, admitted_, next_pid_, rng_
  std::list<Slot> slots_;
  int admitted_ = 0;
  int32_t next_pid_ = 1;
  std::mt19937 rng_{std::random_device{}()};
};

}  // namespace caracal::server
