// Socket: one connected TCP socket (owned, closed on destruction) with the blocking
// reads and writes a connection needs, each bounded by a deadline so a silent or
// half-sending client cannot hold its thread forever.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::server {

using Clock = std::chrono::steady_clock;

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket();
  Socket(Socket&& other) noexcept
      : fd_(other.fd_), in_(std::move(other.in_)), in_at_(other.in_at_), in_end_(other.in_end_) {
    other.fd_ = -1;
  }
  Socket& operator=(Socket&&) = delete;
  Socket(const Socket&) = delete;

  enum class Read { kOk, kClosed, kTimeout };
  // Reads exactly `n` bytes into `out` (appended), waiting until `deadline` at most.
  // Reads are buffered: one recv takes whatever the peer has sent (several messages of a
  // pipeline), and the socket is polled only when nothing is there.
  Read ReadExact(std::string& out, size_t n, Clock::time_point deadline);
  // Writes everything; false if the peer is gone (or stalls past `deadline`).
  bool WriteAll(std::string_view data, Clock::time_point deadline);
  // Wakes a thread blocked in ReadExact (server shutdown); the fd stays open.
  void Shutdown();
  // Whether the peer's address is a loopback address.
  bool PeerIsLoopback() const;
  int fd() const { return fd_; }

 private:
  // Refills the (empty) buffer with what has arrived, waiting until `deadline` at most
  // for something.
  Read Fill(Clock::time_point deadline);

  int fd_;
  std::vector<char> in_ = std::vector<char>(16384);  // received, not yet read: [in_at_, in_end_)
  size_t in_at_ = 0, in_end_ = 0;
};

}  // namespace caracal::server
