// Snapshot tries: a transaction run on the caller's thread against the engine's last
// committed epoch, alone, with its writes kept private and dropped at the end. What a
// transaction block shows its client while it is open (a kTry BlockProcedure) needs no
// epoch: COMMIT runs the block again at its serial position and validates everything
// the client saw (engine/README.md, "Transaction blocks"), so any committed state is a
// sound one to show; the last one is the likeliest to still hold at COMMIT.
#pragma once

#include <optional>

#include "engine/procedure/procedure.h"
#include "engine/procedure/worker_scratch.h"
#include "engine/storage/database.h"

namespace caracal::engine {

// Runs `procedure` (Sequence, Declare, Execute) on `input` over a snapshot of `db`'s last
// committed epoch and returns its result, which nothing else sees: no row is written,
// no sequence advances, nothing is logged. nullopt when the transaction needs the
// engine instead: it draws a sequence value (nextval, currval) or its reconnaissance
// asks to retry. Safe while epochs run; `scratch` is the caller's own.
std::optional<TxnResult> RunOnSnapshot(Database& db, const Procedure& procedure, TxnInput input, WorkerScratch& scratch);

}  // namespace caracal::engine
