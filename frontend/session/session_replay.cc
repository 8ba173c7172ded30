#include "frontend/session/session_replay.h"

#include "engine/procedure/block_procedure.h"

#include <fmt/format.h>

#include "codegen/interpreter/interpreted_procedure.h"
#include "planner/parser/parse_tree.h"
#include "planner/exec/ad_hoc_dml.h"
#include "planner/types/sql_error.h"

namespace caracal::frontend {

namespace {

std::shared_ptr<const engine::Procedure> Unowned(const engine::Procedure* p) {
  return std::shared_ptr<const engine::Procedure>(std::shared_ptr<const engine::Procedure>(), p);
}

}  // namespace

Session::Replayer::Replayer(Session& session, std::vector<const engine::Procedure*> natives) : session_(session) {
  for (const engine::Procedure* p : natives) natives_.emplace(std::string(p->log_identity()), p);
}

std::shared_ptr<const engine::Procedure> Session::Replayer::Resolve(std::string_view identity) {
  if (identity.starts_with(codegen::kLogCallPrefix)) {
    const std::string_view signature = identity.substr(codegen::kLogCallPrefix.size());
    for (const auto& ir : session_.catalog_->Procedures())
      if (ir->Signature() == signature) return Unowned(&session_.procedures_->Get(ir));
    return nullptr;
  }
  if (identity.starts_with(codegen::kLogDmlPrefix)) {
    const std::string text(identity.substr(codegen::kLogDmlPrefix.size()));
    planner::ParseTree tree = planner::ParseTree::Parse(text);
    if (tree.statements().size() != 1 || tree.statements()[0].node == nullptr) return nullptr;
    std::shared_ptr<const planner::ProcedureIr> ir =
        planner::BindAdHocDml(tree.statements()[0].node, text, *session_.catalog_);
    return std::make_shared<codegen::InterpretedProcedure>(ir, *session_.catalog_);
  }
  if (identity == engine::kBlockTryLogIdentity) return Unowned(&engine::ReplayedBlockTry());
  if (std::optional<std::vector<std::string>> texts = Session::BlockTexts(identity)) {
    // A committed transaction block: its steps bound again, as of this point of the log.
    std::vector<std::shared_ptr<const engine::Procedure>> parts;
    for (const std::string& text : *texts) parts.push_back(session_.BindStepText(text).procedure);
    return std::make_shared<engine::BlockProcedure>(std::move(parts), engine::BlockMode::kCommit, std::string(identity));
  }
  auto it = natives_.find(identity);
  return it == natives_.end() ? nullptr : Unowned(it->second);
}

void Session::Replayer::ReplayDdl(const std::string& sql) {
  planner::ParseTree tree = planner::ParseTree::Parse(sql);
  for (const planner::ParsedStatement& s : tree.statements()) {
    if (s.node == nullptr) throw planner::SqlError("XX000", "the log holds a statement that is not DDL: " + sql);
    try {
      session_.RunStatement(s, false);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("replaying \"{}\" failed: {}", sql, e.what()));
    }
  }
}

}  // namespace caracal::frontend
