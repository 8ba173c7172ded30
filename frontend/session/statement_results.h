// What a client gets back from a failed statement and from a call's transaction, shaped
// as PostgreSQL shapes them. Shared by the session's statements and its transaction
// blocks.
#pragma once

#include <exception>
#include <string>

#include "engine/procedure/procedure.h"
#include "frontend/session/session.h"
#include "planner/plan/call_plan.h"

namespace caracal::frontend {

// Any exception out of a statement as the error a client sees: a SqlError as it is, an
// engine error with its SQLSTATE, anything else as an internal error (never a crash).
StatementResult FailedResult(std::exception_ptr error, const std::string& text);

// What a call's transaction gives its client: the rows it emitted shaped as the call
// statement's output, its NOTICEs, or its error.
StatementResult CallResult(const planner::CallPlan& call, engine::TxnResult&& txn);

}  // namespace caracal::frontend
