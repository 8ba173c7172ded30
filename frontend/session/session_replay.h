// Session::Replayer: what recovery (engine/durability/durable_store.h) needs from the session:
// logged DDL run again through the session's own DDL path, and the procedures the log's
// epochs name found again: CREATEd ones in the catalog by signature (as of that point of
// the log, since DDL records replay in order), ad-hoc DML bound again from its text,
// native ones from SessionOptions::native_procedures. Private to the session.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/durability/log_replay.h"
#include "frontend/session/session.h"

namespace caracal::frontend {

class Session::Replayer final : public engine::ReplayHost {
 public:
  Replayer(Session& session, std::vector<const engine::Procedure*> natives);
  std::shared_ptr<const engine::Procedure> Resolve(std::string_view identity) override;
  void ReplayDdl(const std::string& sql) override;

 private:
  Session& session_;
  std::map<std::string, const engine::Procedure*, std::less<>> natives_;
};

}  // namespace caracal::frontend
