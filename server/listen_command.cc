#include "server/listen_command.h"

#include <pthread.h>
#include <signal.h>

#include <optional>
#include <thread>

#include "server/server.h"

namespace caracal::server {

int Serve(const ServerConfig& config, frontend::Session& session, std::ostream& log) {
  // SIGINT/SIGTERM are taken by one waiting thread (every thread started from here on
  // inherits the mask), so no handler has to reach the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::optional<Server> server;
  try {
    server.emplace(config, session);
  } catch (const std::exception& e) {
    log << "caracal: error: " << e.what() << std::endl;
    return 2;
  }
  log << "caracal: listening on " << config.host << ":" << server->port() << " ("
      << (config.password ? "SCRAM-SHA-256" : config.trust_remote ? "trust" : "trust, loopback clients only") << ")"
      << std::endl;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server->Stop();
  });
  server->Run();
  waiter.join();
  log << "caracal: server stopped" << std::endl;
  return 0;
}

}  // namespace caracal::server
