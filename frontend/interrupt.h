// Ctrl-C for the shell. psql's rule: Ctrl-C cancels the current input line or the wait
// for a result; it never stops the database. A SIGINT handler only sets a flag (the one
// piece of process-wide state here, because a signal handler can reach nothing else);
// the shell polls it while it waits and libedit's read returns early when it is set.
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

}  // namespace caracal::frontend
