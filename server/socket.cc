#include "server/socket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace caracal::server {

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

// Waits until `fd` is ready for `events`; false on timeout.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return true;  // let the read/write report the error
  }
}

}  // namespace

Socket::Read Socket::Fill(Clock::time_point deadline) {
  in_at_ = in_end_ = 0;
  for (;;) {
    ssize_t r = ::recv(fd_, in_.data(), in_.size(), MSG_DONTWAIT);
    if (r > 0) {
      in_end_ = static_cast<size_t>(r);
      return Read::kOk;
    }
    if (r == 0) return Read::kClosed;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return Read::kClosed;
    if (!WaitFor(fd_, POLLIN, deadline)) return Read::kTimeout;
  }
}

Socket::Read Socket::ReadExact(std::string& out, size_t n, Clock::time_point deadline) {
  while (n > 0) {
    if (in_at_ == in_end_) {
      Read r = Fill(deadline);
      if (r != Read::kOk) return r;
    }
    const size_t take = std::min(n, in_end_ - in_at_);
    out.append(in_.data() + in_at_, take);
    in_at_ += take;
    n -= take;
  }
  return Read::kOk;
}

bool Socket::WriteAll(std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    ssize_t r = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (r > 0) {
      data.remove_prefix(static_cast<size_t>(r));
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!WaitFor(fd_, POLLOUT, deadline)) return false;
      continue;
    }
    return false;
  }
  return true;
}

void Socket::Shutdown() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

bool Socket::PeerIsLoopback() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return false;
  if (addr.ss_family == AF_INET) {
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (addr.ss_family == AF_INET6) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
    if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) return true;
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) return in6->sin6_addr.s6_addr[12] == 127;
  }
  return addr.ss_family == AF_UNIX;
}

}  // namespace caracal::server
