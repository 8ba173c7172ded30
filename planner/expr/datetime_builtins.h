// Evaluation of the date/time builtins (Func::kNow .. Func::kTimezone) over
// planner/types/datetime.h.
#pragma once

#include <optional>
#include <span>

#include "planner/expr/expr.h"
#include "planner/types/datum.h"

namespace caracal::planner {

Datum EvalDateTimeFunction(Func func, const SqlType& result, std::span<const Datum> args);

// The wall clock as a timestamptz: now() where no transaction timestamp is drawn (an
// ad-hoc SELECT, a bulk load; neither is replayed from the input log as SQL). While a
// StatementClock lives on this thread, its time, so that every now() of a statement
// is the same.
int64_t WallClockTimestamp();

// Fixes WallClockTimestamp() for the statement being bound and run on this thread
// (the session holds one per statement): at `fixed` (a transaction block's timestamp),
// else at the outer clock's time if one lives (a statement run by another, as EXECUTE's),
// else at the clock's; nests, restoring the outer one.
class StatementClock {
 public:
  explicit StatementClock(std::optional<int64_t> fixed = std::nullopt);
  ~StatementClock();
  StatementClock(const StatementClock&) = delete;
  StatementClock& operator=(const StatementClock&) = delete;

 private:
  std::optional<int64_t> outer_;
};

}  // namespace caracal::planner
