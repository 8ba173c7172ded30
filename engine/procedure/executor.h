// Executor: where transactions are submitted. Two implementations: the epoch-based
// multi-version Engine and the single-threaded ReferenceExecutor (the oracle).
#pragma once

#include <functional>

#include "engine/procedure/procedure.h"

namespace caracal::engine {

struct TxnRequest {
  const Procedure* procedure = nullptr;
  TxnInput input;
  // Called once the transaction's outcome is final and its epoch committed, in serial
  // order, from the executor's own thread: it must be quick and must not submit.
  std::function<void(TxnResult&&)> on_done;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Queues a transaction; its serial order is the order of Submit calls.
  virtual void Submit(TxnRequest request) = 0;
  // Returns once every transaction submitted so far has completed.
  virtual void Drain() = 0;
};

}  // namespace caracal::engine
