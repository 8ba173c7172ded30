// BlockProcedure: the statements of an interactive transaction block (BEGIN ... COMMIT)
// run as one transaction. Each statement is a procedure of its own (a part); the block
// runs every part's Declare, in order, then every part's Execute, in order, in one
// attempt, so the parts read each other's writes and the block's write set is the union
// of theirs. See engine/README.md, "Transaction blocks", for why this is serializable.
//
// Two modes:
//   kTry    - what the client sees while the block is open: runs the parts and always
//             aborts at the end (it writes nothing), keeping each part's outcome (rows,
//             row count, notices, error) for the session to show.
//   kCommit - COMMIT: runs the parts and commits only if every part's outcome is the
//             one the client saw (its digest, in the input); otherwise it aborts with
//             40001 and writes nothing.
// In both, a part whose outcome the client already saw and which now comes out
// differently ends the block with 40001: the client decided what to send next on what
// it saw, and that is no longer what a serial execution at this position gives.
//
// A part draws its sequence values (nextval, now(), random()'s seed) once, at its first
// run (at sequencing, or as it runs when it needs a solo epoch); every later run of the
// block reuses them, so what the client saw stays what the
// block produces. now() is the block's timestamp in every part, as in PostgreSQL. The input carries every part's arguments, drawn values and expected
// digest (EncodeInput), so the input log replays a block like any transaction.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/procedure/procedure.h"

namespace caracal::engine {

// A 128-bit digest of what one statement gave its client.
struct OutcomeDigest {
  uint64_t lo = 0, hi = 0;
  bool operator==(const OutcomeDigest&) const = default;
};

// What one part gave its client in one run.
struct BlockPartOutcome {
  std::vector<std::vector<Value>> rows;
  int64_t row_count = -1;
  std::vector<std::string> notices;
  bool aborted = false;
  std::string sqlstate, message;
  ErrorFields error_fields;
  // The sequence values it drew as it ran (a procedure that runs alone in its epoch
  // draws them there, not at sequencing), in order, with their sequences.
  std::vector<std::pair<std::string, int64_t>> draws;
  OutcomeDigest Digest() const;
};

// One part as the session submits it.
struct BlockPart {
  TxnInput input;     // its arguments; once sequenced, also its drawn values
  bool sequenced = false;
  // What it drew as it ran the first time (BlockPartOutcome::draws): a later run gets the
  // same values for the same sequences again instead of drawing.
  std::vector<std::pair<std::string, int64_t>> execution_draws;
  std::optional<OutcomeDigest> expected;  // what the client saw; unset for a part not yet shown
  // `expected` was predicted, not run: the client was told the outcome a statement
  // that succeeds must have (a plain INSERT's row count). If it turns out otherwise, the
  // block fails with the statement's own error rather than 40001.
  bool predicted = false;
};

enum class BlockMode : uint8_t { kTry, kCommit };

// The SQLSTATE with which a kTry run ends when every part ran as expected.
inline constexpr std::string_view kBlockTryEnd = "00000";
// The log identity of every kTry run. A try writes nothing and draws its values at
// sequencing (the log keeps the sequences' states), so recovery only has to run a
// transaction that aborts as it did: ReplayedBlockTry().
inline constexpr std::string_view kBlockTryLogIdentity = "block-try";
const Procedure& ReplayedBlockTry();

class BlockProcedure final : public Procedure {
 public:
  BlockProcedure(std::vector<std::shared_ptr<const Procedure>> parts, BlockMode mode, std::string log_identity);

  // The block's input: its timestamp (the now() of every part), every part's
  // arguments, drawn values and expected digest.
  static TxnInput EncodeInput(const std::vector<BlockPart>& parts, int64_t timestamp);

  const std::string& name() const override { return name_; }
  void Sequence(SequenceContext& ctx, TxnInput& input) const override;
  void Declare(DeclareContext& ctx) const override;
  void Execute(ExecContext& ctx) const override;
  // The first part's reconnaissance reads the state at the block's position, as a
  // lone statement's; a later part's would miss the earlier parts' writes, so then the
  // block runs alone in its epoch, where a write need not have been declared.
  bool needs_epoch_head() const override;
  bool needs_solo_epoch() const override;
  std::string_view log_identity() const override { return log_identity_; }

  // Once the transaction is done (its on_done ran): each part's input as sequenced, and
  // the outcomes of the parts its last attempt ran (fewer than the parts if it stopped
  // early); `stopped_at` is the part that ended it (aborted, differed or threw), or -1.
  const std::vector<TxnInput>& sequenced_inputs() const { return sequenced_; }
  const std::vector<BlockPartOutcome>& outcomes() const { return outcomes_; }
  int stopped_at() const { return stopped_at_; }

 private:
  struct Decoded {
    int64_t timestamp = 0;
    std::vector<BlockPart> parts;
  };
  Decoded Decode(const TxnInput& input) const;

  std::vector<std::shared_ptr<const Procedure>> parts_;
  BlockMode mode_;
  std::string log_identity_;
  std::string name_ = "(transaction block)";
  // Written by the engine's threads one after another (sequencing, then the attempt's
  // worker), read by the session after on_done: one submission per object.
  mutable std::vector<TxnInput> sequenced_;
  mutable std::vector<BlockPartOutcome> outcomes_;
  mutable int stopped_at_ = -1;
};

}  // namespace caracal::engine
