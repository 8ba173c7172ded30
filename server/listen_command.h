// Serve: `caracal --listen`'s main: runs a Server on the session until SIGINT or
// SIGTERM, printing where it listens. Returns the process's exit status (2 if the
// address cannot be used).
#pragma once

#include <ostream>

#include "frontend/session/session.h"
#include "server/server_config.h"

namespace caracal::server {

int Serve(const ServerConfig& config, frontend::Session& session, std::ostream& log);

}  // namespace caracal::server
