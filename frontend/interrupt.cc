#include "frontend/interrupt.h"

#include <csignal>

namespace caracal::frontend {

namespace {

// Written by the signal handler, read by the shell: the only state a handler may touch.
volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void OnSigint(int) { g_interrupted = 1; }

}  // namespace

void InstallInterruptHandler() {
  struct sigaction sa {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: reads are interrupted
  sigaction(SIGINT, &sa, nullptr);
}

bool Interrupted() { return g_interrupted != 0; }

void ClearInterrupt() { g_interrupted = 0; }

}  // namespace caracal::frontend
