// Ctrl-C for the shell. psql's rule: Ctrl-C cancels the current input line or the wait
// for a result; it never stops the database. A SIGINT handler only sets a flag (the one
// piece of process-wide state here, because a signal handler can reach nothing else);
// the shell polls it while it waits and libedit's read returns early when it is set.
#pragma once

namespace caracal::frontend {

// Installs the SIGINT handler (without SA_RESTART, so a blocking read returns EINTR).
void InstallInterruptHandler();
// Whether Ctrl-C was pressed since the last ClearInterrupt().
bool Interrupted();
void ClearInterrupt();

}  // namespace caracal::frontend
