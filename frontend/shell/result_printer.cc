#include "frontend/shell/result_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace caracal::frontend {

namespace {

// libpq's reportErrorPosition: the statement line holding the error, cut to about 60
// screen columns around it, and a caret under the offending character (wide characters
// count two columns, tabs print as spaces; "\r\n" is one line break).
void AppendPosition(std::string& msg, const std::string& query, int position) {
  constexpr int kDisplaySize = 60, kMinRightCut = 10;
  std::vector<std::string> chars;  // UTF-8 characters
  for (size_t i = 0; i < query.size();) {
    size_t n = 1;
    while (i + n < query.size() && (static_cast<unsigned char>(query[i + n]) & 0xC0) == 0x80) ++n;
    chars.push_back(query[i] == '\t' ? std::string(" ") : query.substr(i, n));
    i += n;
  }
  auto width = [](const std::string& c) { return std::max(DisplayWidth(c), 1); };
  const int count = static_cast<int>(chars.size());
  const int loc = std::clamp(position - 1, 0, count);
  std::vector<int> column(count + 1, 0);  // screen column where each character starts
  int line = 1, ibeg = 0, iend = -1;
  for (int i = 0; i < count; ++i) {
    if (chars[i] == "\r" || chars[i] == "\n") {
      if (i < loc) {
        if (chars[i] == "\r" || i == 0 || chars[i - 1] != "\r") ++line;
        ibeg = i + 1;
      } else {
        iend = i;
        break;
      }
    }
    column[i + 1] = column[i] + width(chars[i]);
  }
  if (iend < 0) iend = count;
  bool beg_trunc = false, end_trunc = false;
  if (column[iend] - column[ibeg] > kDisplaySize) {
    if (column[ibeg] + kDisplaySize >= column[loc] + kMinRightCut) {
      while (column[iend] - column[ibeg] > kDisplaySize) --iend;
      end_trunc = true;
    } else {
      while (column[loc] + kMinRightCut < column[iend]) {
        --iend;
        end_trunc = true;
      }
      while (column[iend] - column[ibeg] > kDisplaySize) {
        ++ibeg;
        beg_trunc = true;
      }
    }
  }
  std::string prefix = fmt::format("LINE {}: ", line) + (beg_trunc ? "..." : "");
  std::string text;
  for (int i = ibeg; i < iend; ++i) text += chars[i];
  msg += prefix + text + (end_trunc ? "..." : "") + "\n";
  msg += std::string(DisplayWidth(prefix) + column[loc] - column[ibeg], ' ') + "^\n";
}

}  // namespace

planner::TextTable TableFromResult(const planner::ResultSet& rs, const PrintOptions& options) {
  planner::TextTable t;
  for (const planner::ResultColumn& c : rs.columns) {
    t.headers.push_back(c.name);
    t.right_aligned.push_back(c.type.is_numeric_category());
  }
  t.rows.reserve(rs.rows.size());
  for (const auto& row : rs.rows) {
    // Every row gets exactly one cell per column, whatever produced it.
    std::vector<std::string> cells(t.headers.size(), options.null_display);
    for (size_t c = 0; c < row.size() && c < cells.size(); ++c)
      if (row[c]) cells[c] = *row[c];
    t.rows.push_back(std::move(cells));
  }
  return t;
}

std::string FormatError(const ErrorReport& e, const std::string& location_prefix, Verbosity verbosity,
                        ShowContext show_context) {
  std::string msg = location_prefix + e.severity + ":  ";
  if (verbosity == Verbosity::kSqlstate && !e.sqlstate.empty()) return msg + e.sqlstate + "\n";
  if (verbosity == Verbosity::kVerbose && !e.sqlstate.empty()) msg += e.sqlstate + ": ";
  msg += e.message;
  if (verbosity == Verbosity::kTerse || verbosity == Verbosity::kSqlstate) {
    if (e.position > 0) msg += fmt::format(" at character {}", e.position);
    return msg + "\n";
  }
  msg += "\n";
  if (e.position > 0) AppendPosition(msg, e.query, e.position);
  if (!e.detail.empty()) msg += "DETAIL:  " + e.detail + "\n";
  if (!e.hint.empty()) msg += "HINT:  " + e.hint + "\n";
  if (!e.context.empty() && show_context != ShowContext::kNever) msg += "CONTEXT:  " + e.context + "\n";
  return msg;
}

std::string FormatNotice(const std::string& message, const std::string& location_prefix) {
  return location_prefix + "NOTICE:  " + message + "\n";
}

}  // namespace caracal::frontend
