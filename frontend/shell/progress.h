// Progress of a long COPY on a terminal: "COPY: 1200000 rows, 410000 rows/s" redrawn on
// stderr's line, from the first second on, erased when the COPY ends. When stderr is not
// a terminal nothing is ever printed (scripts and tests see no difference). Ctrl-C
// cancels the COPY (which then loads nothing).
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace caracal::frontend {

class CopyProgressMeter {
 public:
  // `terminal`: whether `err` is a terminal; if not, Update never prints.
  CopyProgressMeter(std::ostream& err, bool terminal) : err_(err), terminal_(terminal) {}
  // Starts timing a new COPY.
  void Start();
  // Rows read so far; throws planner::SqlError (57014) when Ctrl-C was pressed.
  void Update(int64_t rows);
  // Erases the progress line if one was drawn.
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  bool terminal_;
  bool drawn_ = false;
  Clock::time_point start_, last_;
};

}  // namespace caracal::frontend
