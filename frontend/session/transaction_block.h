// TransactionBlock: one client's BEGIN ... COMMIT as the session runs it
// (Session::StartStatement). The block keeps the statements that read or write tables
// (its steps) with what each showed the client; every step runs as a try of the whole
// block so far (engine/procedure/block_procedure.h), and COMMIT submits the block once
// more, committing only if each step gives what the client saw. ROLLBACK and ROLLBACK TO
// SAVEPOINT just forget steps: nothing a try ran was ever written.
//
// A block belongs to one client (the shell's session, a wire connection) and is used from
// one thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/procedure/block_procedure.h"
#include "frontend/session/settings.h"

namespace caracal::frontend {

struct StatementResult;

class TransactionBlock {
 public:
  enum class Status : uint8_t { kIdle, kInBlock, kFailed };
  Status status() const { return status_; }
  // ReadyForQuery's transaction status: 'I' idle, 'T' in a block, 'E' in a failed block.
  char ready_status() const { return status_ == Status::kIdle ? 'I' : status_ == Status::kInBlock ? 'T' : 'E'; }
  // Forgets everything (ROLLBACK, a connection that closes inside a block).
  void Reset();

 private:
  friend class Session;

  struct Step {
    std::string text;        // the statement's own text: logged at COMMIT, bound again after DDL
    engine::BlockPart part;  // its arguments, drawn values and the digest of what it showed
    std::shared_ptr<const engine::Procedure> procedure;  // bound at catalog generation `generation`
    uint64_t generation = 0;
  };
  struct Savepoint {
    std::string name;
    size_t steps = 0;  // how many steps the block had when it was set
  };
  // The try of the step started last, until its outcome is settled into the steps.
  struct PendingTry;
  // An implicit block's one run, which every step's result waits for.
  struct WholeRun;

  Status status_ = Status::kIdle;
  int64_t timestamp_ = 0;  // now() in every statement of the block: BEGIN's time
  std::vector<Step> steps_;
  std::vector<Savepoint> savepoints_;
  std::shared_ptr<PendingTry> pending_;
  std::shared_ptr<WholeRun> whole_;  // set: an implicit block, run once when it ends
  // SET inside the block (PostgreSQL's rules): the settings as the block's first SET
  // found them, restored if it rolls back; the values SET LOCAL replaced, restored when
  // it ends either way.
  std::optional<Settings> settings_at_start_;
  std::map<std::string, std::string> local_restore_;
  // How many transactions this client submitted that have not completed yet (a client
  // that pipelines has some): a try may read the last committed snapshot only when
  // none is in flight, or it would miss the client's own earlier statements.
  std::shared_ptr<std::atomic<int>> in_flight_ = std::make_shared<std::atomic<int>>(0);
  // The sequence values this client's transactions drew, for currval() / lastval():
  // kept for the client's whole session (Reset leaves them), recorded by the engine's
  // completion callbacks (SubmitToEngine), hence the lock.
  struct DrawnValues {
    std::mutex mutex;
    // engine sequence name -> the latest value drawn (by TxnResult::Draw::order)
    std::map<std::string, engine::TxnResult::Draw> by_sequence;
    std::optional<engine::TxnResult::Draw> last;  // the latest of all
  };
  std::shared_ptr<DrawnValues> drawn_ = std::make_shared<DrawnValues>();
};

}  // namespace caracal::frontend
