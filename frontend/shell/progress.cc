#include "frontend/shell/progress.h"

#include <fmt/format.h>

#include "frontend/shell/interrupt.h"
#include "planner/types/sql_error.h"

namespace caracal::frontend {

void CopyProgressMeter::Start() {
  start_ = last_ = Clock::now();
  drawn_ = false;
}

void CopyProgressMeter::Update(int64_t rows) {
  if (Interrupted()) {
    ClearInterrupt();
    Finish();
    err_ << "Cancel request sent\n";  // as psql says before the server's error
    err_.flush();
    throw planner::SqlError("57014", "canceling statement due to user request");
  }
  if (!terminal_) return;
  Clock::time_point now = Clock::now();
  double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  err_ << fmt::format("\rCOPY: {} rows, {:.0f} rows/s\x1b[K", rows, rows / elapsed);
  err_.flush();
  drawn_ = true;
}

void CopyProgressMeter::Finish() {
  if (!drawn_) return;
  err_ << "\r\x1b[K";
  err_.flush();
  drawn_ = false;
}

}  // namespace caracal::frontend
