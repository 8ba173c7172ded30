// Ctrl-C for the shell. psql's rule: Ctrl-C cancels the current input line or the wait
// for a result; it never stops the database. A SIGINT handler only sets a flag and wakes
// a pipe (the one piece of process-wide state here, because a signal handler can reach
// nothing else); the shell polls the flag while it waits for a result, and the terminal
// is read through WaitForInput, which returns when Ctrl-C comes, before or during it.
#pragma once

#include <csignal>

namespace caracal::frontend {

// While one of these lives, SIGPIPE is ignored: a pager or a \o / \g pipe that exits
// early makes writes fail instead of killing the shell. (Writes to stdout keep the
// default, so `caracal ... | head` ends quietly, as psql does.)
class IgnoreSigpipe {
 public:
  IgnoreSigpipe();
  ~IgnoreSigpipe();
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};

// Installs the SIGINT handler (without SA_RESTART, so a blocking read returns EINTR).
void InstallInterruptHandler();
// Whether Ctrl-C was pressed since the last ClearInterrupt().
bool Interrupted();
void ClearInterrupt();
enum class WaitResult { kReady, kInterrupted, kOtherSignal };
// Waits until `fd` can be read without blocking (input, end of file or an error):
// kReady; or until Ctrl-C is pressed: kInterrupted. A Ctrl-C that came after the last
// ClearInterrupt() but before this call also returns kInterrupted at once; a blocking
// read would miss it (it was not inside the read when the signal came). kOtherSignal:
// another signal (a window resize, a continue after Ctrl-Z) interrupted the wait.
WaitResult WaitForInput(int fd);

}  // namespace caracal::frontend
