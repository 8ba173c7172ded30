#include "frontend/shell/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace caracal::frontend {

namespace {

// Written by the signal handler, read by the shell: the only state a handler may touch.
volatile std::sig_atomic_t g_interrupted = 0;
// The write end of a pipe the handler puts a byte into (the self-pipe trick): the handler
// may run on any thread, and Ctrl-C may come between a check of the flag and a blocking
// wait; a wait that also watches the pipe's read end cannot miss it.
int g_wake_read = -1;
int g_wake_write = -1;

extern "C" void OnSigint(int) {
  int saved = errno;
  g_interrupted = 1;
  if (g_wake_write >= 0) {
    [[maybe_unused]] ssize_t n = write(g_wake_write, "!", 1);  // a full pipe already wakes
  }
  errno = saved;
}

void DrainWakePipe() {
  if (g_wake_read < 0) return;
  char buffer[64];
  while (read(g_wake_read, buffer, sizeof buffer) > 0) {
  }
}

}  // namespace

void InstallInterruptHandler() {
  if (g_wake_read < 0) {
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0) {
      g_wake_read = fds[0];
      g_wake_write = fds[1];
    }
  }
  struct sigaction sa {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: reads are interrupted
  sigaction(SIGINT, &sa, nullptr);
}

IgnoreSigpipe::IgnoreSigpipe() {
  struct sigaction sa {};
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, &previous_);
}

IgnoreSigpipe::~IgnoreSigpipe() { sigaction(SIGPIPE, &previous_, nullptr); }

bool Interrupted() { return g_interrupted != 0; }

void ClearInterrupt() {
  g_interrupted = 0;
  DrainWakePipe();
}

WaitResult WaitForInput(int fd) {
  for (;;) {
    if (Interrupted()) return WaitResult::kInterrupted;
    pollfd fds[2] = {{fd, POLLIN, 0}, {g_wake_read, POLLIN, 0}};
    int ready = poll(fds, g_wake_read >= 0 ? 2 : 1, -1);
    if (ready < 0) {
      if (errno != EINTR) return WaitResult::kReady;  // let the read report the error
      // SIGINT's handler may run on another thread, after this one saw EINTR: its byte
      // in the pipe wakes the next poll.
      if (!Interrupted()) return WaitResult::kOtherSignal;
      continue;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
      return Interrupted() ? WaitResult::kInterrupted : WaitResult::kReady;
  }
}

}  // namespace caracal::frontend
