#include "server/server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace caracal::server {

Server::Server(ServerConfig config, frontend::Session& session) : config_(std::move(config)), shared_(session) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  std::string port = std::to_string(config_.port);
  const char* host = config_.host.empty() || config_.host == "*" ? nullptr : config_.host.c_str();
  if (int rc = ::getaddrinfo(host, port.c_str(), &hints, &found); rc != 0)
    throw std::runtime_error(fmt::format("could not resolve \"{}\": {}", config_.host, gai_strerror(rc)));
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> guard(found, freeaddrinfo);
  std::string error = "no address";
  for (addrinfo* a = found; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 512) == 0) {
      listen_fd_ = fd;
      break;
    }
    error = std::strerror(errno);
    ::close(fd);
  }
  if (listen_fd_ < 0)
    throw std::runtime_error(fmt::format("could not listen on {}:{}: {}", config_.host, config_.port, error));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                      : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

Server::~Server() {
  Stop();
  std::lock_guard lock(mutex_);
  for (Slot& s : slots_) {
    s.connection->Stop();
    if (s.thread.joinable()) s.thread.join();
  }
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void Server::Stop() { stopping_ = true; }

void Server::CancelRequest(int32_t pid, int32_t secret) {
  std::lock_guard lock(mutex_);
  for (Slot& s : slots_)
    if (s.connection->pid() == pid && s.connection->secret() == secret && !s.done) s.connection->Cancel();
}

bool Server::Admit() {
  std::lock_guard lock(mutex_);
  if (admitted_ >= config_.max_connections) return false;
  ++admitted_;
  return true;
}

void Server::Reap() {
  std::lock_guard lock(mutex_);
  for (auto it = slots_.begin(); it != slots_.end();) {
    if (!it->done) {
      ++it;
      continue;
    }
    it->thread.join();
    it = slots_.erase(it);
  }
}

void Server::Run() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, 200);  // wakes to notice Stop() and to reap
    Reap();
    if (ready <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;  // EMFILE and friends: the client sees a reset; we go on
    std::lock_guard lock(mutex_);
    int32_t pid = next_pid_++;
    int32_t secret = static_cast<int32_t>(rng_());
    Slot& slot = slots_.emplace_back();
    slot.connection = std::make_shared<Connection>(Socket(fd), config_, shared_, static_cast<ConnectionHost&>(*this), pid, secret);
    slot.thread = std::thread([this, &slot] {
      slot.connection->Run();
      std::lock_guard done_lock(mutex_);
      if (slot.connection->admitted()) --admitted_;
      slot.done = true;
    });
  }
  // Stopping: every connection ends (FATAL 57P01 at its next message) and is joined.
  {
    std::lock_guard lock(mutex_);
    for (Slot& s : slots_) s.connection->Stop();
  }
  for (;;) {
    Reap();
    {
      std::lock_guard lock(mutex_);
      if (slots_.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace caracal::server
