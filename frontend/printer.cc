#include "frontend/printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace caracal::frontend {

namespace {

int DisplayWidth(std::string_view s) {
  int w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;
  return w;
}

bool RightAligned(const planner::SqlType& t) { return t.is_numeric_category(); }

void PrintAligned(const planner::ResultSet& rs, const PrintOptions& o, std::ostream& out) {
  size_t n = rs.columns.size();
  std::vector<int> width(n, 0);
  for (size_t c = 0; c < n; ++c) {
    if (!o.tuples_only) width[c] = DisplayWidth(rs.columns[c].name);
    for (const auto& row : rs.rows) width[c] = std::max(width[c], row[c] ? DisplayWidth(*row[c]) : 0);
  }
  auto pad = [](int k) { return std::string(std::max(k, 0), ' '); };
  if (!o.tuples_only) {
    std::string line;
    for (size_t c = 0; c < n; ++c) {
      // Headers are centred, as psql does.
      int extra = width[c] - DisplayWidth(rs.columns[c].name);
      line += (c ? "| " : " ") + pad(extra / 2) + rs.columns[c].name + pad(extra - extra / 2) + " ";
    }
    out << line.substr(0, line.size()) << "\n";
    std::string rule;
    for (size_t c = 0; c < n; ++c) rule += (c ? "+" : "") + std::string(width[c] + 2, '-');
    out << rule << "\n";
  }
  for (const auto& row : rs.rows) {
    std::string line;
    for (size_t c = 0; c < n; ++c) {
      std::string v = row[c].value_or("");
      int extra = width[c] - DisplayWidth(v);
      bool last = c + 1 == n;
      if (RightAligned(rs.columns[c].type)) line += (c ? "| " : " ") + pad(extra) + v + (last ? "" : " ");
      else line += (c ? "| " : " ") + v + (last ? "" : pad(extra) + " ");
    }
    // psql pads every column but the last.
    out << line << "\n";
  }
  if (!o.tuples_only) out << fmt::format("({} row{})\n\n", rs.rows.size(), rs.rows.size() == 1 ? "" : "s");
}

void PrintUnaligned(const planner::ResultSet& rs, const PrintOptions& o, std::ostream& out) {
  if (!o.tuples_only) {
    for (size_t c = 0; c < rs.columns.size(); ++c) out << (c ? o.field_separator : "") << rs.columns[c].name;
    out << "\n";
  }
  for (const auto& row : rs.rows) {
    for (size_t c = 0; c < row.size(); ++c) out << (c ? o.field_separator : "") << row[c].value_or("");
    out << "\n";
  }
  if (!o.tuples_only) out << fmt::format("({} row{})\n", rs.rows.size(), rs.rows.size() == 1 ? "" : "s");
}

// libpq's reportErrorPosition: the statement line holding the error, cut to about 60
// columns around it, and a caret under the offending character.
void AppendPosition(std::string& msg, const std::string& query, int position) {
  constexpr int kDisplaySize = 60, kMinRightCut = 10;
  // Split into characters (UTF-8), tabs shown as spaces.
  std::vector<std::string> chars;
  for (size_t i = 0; i < query.size();) {
    size_t n = 1;
    while (i + n < query.size() && (static_cast<unsigned char>(query[i + n]) & 0xC0) == 0x80) ++n;
    chars.push_back(query[i] == '\t' ? std::string(" ") : query.substr(i, n));
    i += n;
  }
  int loc = std::min<int>(position - 1, static_cast<int>(chars.size()));
  int line = 1, ibeg = 0;
  for (int i = 0; i < loc; ++i)
    if (chars[i] == "\n" || chars[i] == "\r") {
      ++line;
      ibeg = i + 1;
    }
  int iend = ibeg;
  while (iend < static_cast<int>(chars.size()) && chars[iend] != "\n" && chars[iend] != "\r") ++iend;
  bool beg_trunc = false, end_trunc = false;
  if (iend - ibeg > kDisplaySize) {
    if (ibeg + kDisplaySize >= loc + kMinRightCut) {
      while (iend - ibeg > kDisplaySize) --iend;
      end_trunc = true;
    } else {
      while (loc + kMinRightCut < iend) {
        --iend;
        end_trunc = true;
      }
      while (iend - ibeg > kDisplaySize) {
        ++ibeg;
        beg_trunc = true;
      }
    }
  }
  std::string prefix = fmt::format("LINE {}: ", line) + (beg_trunc ? "..." : "");
  std::string text;
  for (int i = ibeg; i < iend; ++i) text += chars[i];
  msg += prefix + text + (end_trunc ? "..." : "") + "\n";
  msg += std::string(prefix.size() + (loc - ibeg), ' ') + "^\n";
}

}  // namespace

void PrintResult(const StatementResult& r, const PrintOptions& o, std::ostream& out, std::ostream& err,
                 const std::string& location_prefix) {
  for (const std::string& n : r.notices) err << location_prefix << "NOTICE:  " << n << "\n";
  if (r.rows) {
    if (o.unaligned) PrintUnaligned(*r.rows, o, out);
    else PrintAligned(*r.rows, o, out);
  } else if (!o.quiet && !r.tag.empty()) {
    out << r.tag << "\n";
  }
}

std::string FormatError(const ErrorReport& e, const std::string& location_prefix) {
  std::string msg = location_prefix + e.severity + ":  " + e.message + "\n";
  if (e.position > 0) AppendPosition(msg, e.query, e.position);
  if (!e.detail.empty()) msg += "DETAIL:  " + e.detail + "\n";
  if (!e.hint.empty()) msg += "HINT:  " + e.hint + "\n";
  if (!e.context.empty()) msg += "CONTEXT:  " + e.context + "\n";
  return msg;
}

}  // namespace caracal::frontend
