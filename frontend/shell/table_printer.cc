#include "frontend/shell/table_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace caracal::frontend {

namespace {

// Decodes one UTF-8 character at `s[i]`; returns its length (1 for an invalid byte,
// which is then taken as a code point of its own).
size_t DecodeUtf8(std::string_view s, size_t i, char32_t& cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (n == 1 || i + n > s.size()) {
    cp = c;
    return 1;
  }
  cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) {
      cp = c;
      return 1;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  return n;
}

// Terminal width of one code point: -1 for control characters, 0 for combining marks,
// 2 for wide East Asian characters (the ranges psql's ucs_wcwidth treats so).
int CharWidth(char32_t c) {
  if (c == 0) return 0;
  if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return -1;
  struct Range {
    char32_t lo, hi;
  };
  static constexpr Range kZero[] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                                    {0x064B, 0x065F}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
                                    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}};
  for (const Range& r : kZero)
    if (c >= r.lo && c <= r.hi) return 0;
  static constexpr Range kWide[] = {{0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},  {0x3040, 0xA4CF},
                                    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},  {0xFE30, 0xFE6F},
                                    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
                                    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
  for (const Range& r : kWide)
    if (c >= r.lo && c <= r.hi) return 2;
  return 1;
}

// One display line of a cell.
struct Line {
  std::string text;
  int width = 0;
};

// A cell as psql's aligned format shows it: split at newlines, tabs expanded to the next
// multiple of 8, carriage returns as "\r", other control characters as "\xNN".
std::vector<Line> FormatCell(std::string_view s) {
  std::vector<Line> lines(1);
  for (size_t i = 0; i < s.size();) {
    char32_t c;
    size_t n = DecodeUtf8(s, i, c);
    Line& line = lines.back();
    if (c == '\n') {
      lines.emplace_back();
    } else if (c == '\r') {
      line.text += "\\r";
      line.width += 2;
    } else if (c == '\t') {
      do {
        line.text += ' ';
        ++line.width;
      } while (line.width % 8 != 0);
    } else {
      int w = CharWidth(c);
      if (w < 0) {
        line.text += c < 0x80 ? fmt::format("\\x{:02X}", static_cast<unsigned>(c)) : fmt::format("\\u{:04X}", static_cast<unsigned>(c));
        line.width += c < 0x80 ? 4 : 6;
      } else {
        line.text.append(s.substr(i, n));
        line.width += w;
      }
    }
    i += n;
  }
  return lines;
}

int MaxWidth(const std::vector<Line>& lines) {
  int w = 0;
  for (const Line& l : lines) w = std::max(w, l.width);
  return w;
}

std::string Spaces(int n) { return std::string(std::max(n, 0), ' '); }

// The characters of a line style (psql's printTextFormat): each rule's horizontal line
// and its left, middle and right joints; the data rows' vertical lines; the newline mark.
struct Rule {
  const char* h;
  const char* left;
  const char* mid;
  const char* right;
};
struct LineStyle {
  Rule top, middle, bottom, data;
  const char* newline;  // after a cell (or header) line that continues on the next
};
constexpr LineStyle kAscii{{"-", "+", "+", "+"}, {"-", "+", "+", "+"}, {"-", "+", "+", "+"}, {"", "|", "|", "|"}, "+"};
constexpr LineStyle kUnicode{{"\u2500", "\u250c", "\u252c", "\u2510"},
                             {"\u2500", "\u251c", "\u253c", "\u2524"},
                             {"\u2500", "\u2514", "\u2534", "\u2518"},
                             {"", "\u2502", "\u2502", "\u2502"},
                             "\u21b5"};

const LineStyle& StyleOf(const PrintOptions& o) { return o.unicode ? kUnicode : kAscii; }

std::string Repeat(const char* s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string RowCount(size_t n) { return fmt::format("({} row{})", n, n == 1 ? "" : "s"); }

// The footers printed under a table: its own, else the row count (if wanted).
std::vector<std::string> FootersWithDefault(const planner::TextTable& t, const PrintOptions& o) {
  if (!t.footers.empty()) return t.footers;
  if (t.default_footer && o.footer) return {RowCount(t.rows.size())};
  return {};
}

// ---- aligned -------------------------------------------------------------------------

// A horizontal rule: under the header ("-----+------" at border 1), and around a
// border-2 table ("+----+-----+"); border 0 separates the columns' dashes by spaces.
void HorizontalRule(const std::vector<int>& widths, int border, const Rule& r, std::ostream& out) {
  std::string s = border == 2 ? std::string(r.left) + r.h : border == 1 ? std::string(r.h) : "";
  for (size_t i = 0; i < widths.size(); ++i) {
    s += Repeat(r.h, widths[i]);
    if (i + 1 < widths.size()) s += border == 0 ? std::string(" ") : std::string(r.h) + r.mid + r.h;
  }
  s += border == 2 ? std::string(r.h) + r.right : border == 1 ? std::string(r.h) : "";
  out << s << '\n';
}

// The width of the aligned table: what \x auto compares with the terminal.
int AlignedWidth(const std::vector<int>& widths, int border) {
  int n = static_cast<int>(widths.size());
  int total = border == 0 ? n : border == 1 ? n * 3 - (n > 0 ? 1 : 0) : n * 3 + 1;
  for (int w : widths) total += w;
  return total;
}

std::vector<int> ColumnWidths(const planner::TextTable& t, const std::vector<std::vector<Line>>& header_lines,
                              const std::vector<std::vector<std::vector<Line>>>& cell_lines) {
  std::vector<int> widths(t.headers.size(), 0);
  for (size_t c = 0; c < widths.size(); ++c) {
    widths[c] = MaxWidth(header_lines[c]);
    for (const auto& row : cell_lines) widths[c] = std::max(widths[c], MaxWidth(row[c]));
  }
  return widths;
}

void PrintAligned(const planner::TextTable& t, const PrintOptions& o, const std::vector<std::vector<Line>>& header_lines,
                  const std::vector<std::vector<std::vector<Line>>>& cell_lines, const std::vector<int>& widths,
                  std::ostream& out) {
  const int border = o.border;
  const size_t ncols = t.headers.size();
  const LineStyle& ls = StyleOf(o);
  const Rule& v = ls.data;
  if (!o.tuples_only) {
    if (!t.title.empty()) {
      int total = AlignedWidth(widths, border);
      int tw = MaxWidth(FormatCell(t.title));
      if (tw >= total) out << t.title << '\n';
      else out << Spaces((total - tw) / 2) << t.title << '\n';
    }
    if (border == 2) HorizontalRule(widths, border, ls.top, out);
    // Headers, centred; multi-line headers continue with '+' marks.
    size_t header_height = 0;
    for (const auto& h : header_lines) header_height = std::max(header_height, h.size());
    for (size_t line = 0; line < header_height; ++line) {
      std::string s;
      if (border == 2) s += v.left;
      for (size_t c = 0; c < ncols; ++c) {
        const auto& h = header_lines[c];
        if (border != 0) s += " ";
        bool has = line < h.size();
        if (has) {
          int space = widths[c] - h[line].width;
          s += Spaces(space / 2) + h[line].text + Spaces((space + 1) / 2);
        } else {
          s += Spaces(widths[c]);
        }
        bool more = line + 1 < h.size();
        s += more ? ls.newline : " ";
        if (border != 0 && c + 1 < ncols) s += v.mid;
      }
      if (border == 2) s += v.right;
      out << s << '\n';
    }
    HorizontalRule(widths, border, ls.middle, out);
  }
  for (const auto& row : cell_lines) {
    size_t height = 0;
    for (const auto& cell : row) height = std::max(height, cell.size());
    for (size_t line = 0; line < height; ++line) {
      std::string s;
      if (border == 2) s += v.left;
      for (size_t c = 0; c < ncols; ++c) {
        const auto& cell = row[c];
        bool last = c + 1 == ncols;
        bool final_spaces = border == 2 || !last;
        if (border != 0) s += " ";
        bool has = line < cell.size();
        bool more = line + 1 < cell.size();  // a newline mark follows
        if (!has) {
          if (final_spaces) s += Spaces(widths[c]);
        } else if (t.right_aligned[c]) {
          s += Spaces(widths[c] - cell[line].width) + cell[line].text;
        } else {
          s += cell[line].text;
          if (final_spaces || more) s += Spaces(widths[c] - cell[line].width);
        }
        if (more) s += ls.newline;
        else if (final_spaces) s += " ";
        if (border != 0 && !last) s += v.mid;
      }
      if (border == 2) s += v.right;
      out << s << '\n';
    }
  }
  if (border == 2) HorizontalRule(widths, border, ls.bottom, out);
  if (!o.tuples_only)
    for (const std::string& f : FootersWithDefault(t, o)) out << f << '\n';
  out << '\n';
}

// ---- aligned, expanded (\x) ----------------------------------------------------------

// The line above each record: "-[ RECORD n ]----+-----" (record 0: a plain rule).
void RecordLine(int border, size_t record, int hwidth, int dwidth, const Rule& r, std::ostream& out) {
  std::string s;
  if (border == 2) s += std::string(r.left) + r.h;
  else if (border == 1) s += r.h;
  int reclen = 0;
  if (record) {
    std::string label = border == 0 ? fmt::format("* Record {}", record) : fmt::format("[ RECORD {} ]", record);
    s += label;
    reclen = static_cast<int>(label.size());
  }
  if (border != 2) ++reclen;
  for (int i = reclen; i < hwidth; ++i) s += border > 0 ? r.h : " ";
  reclen -= hwidth;
  if (border > 0) {
    if (reclen-- <= 0) s += r.h;
    if (reclen-- <= 0) s += r.mid;
    if (reclen-- <= 0) s += r.h;
  } else {
    if (reclen-- <= 0) s += " ";
  }
  if (reclen < 0) reclen = 0;
  for (int i = reclen; i < dwidth; ++i) s += border > 0 ? r.h : " ";
  if (border == 2) s += std::string(r.h) + r.right;
  out << s << '\n';
}

void PrintAlignedExpanded(const planner::TextTable& t, const PrintOptions& o, std::ostream& out) {
  const int border = o.border;
  const size_t ncols = t.headers.size();
  const LineStyle& ls = StyleOf(o);
  const Rule& v = ls.data;
  if (t.rows.empty()) {
    if (!o.tuples_only)
      for (const std::string& f : FootersWithDefault(t, o)) out << f << '\n';
    out << '\n';
    return;
  }
  std::vector<std::vector<Line>> headers;
  int hwidth = 0, dwidth = 0;
  bool hmultiline = false, dmultiline = false;
  for (const std::string& h : t.headers) {
    headers.push_back(FormatCell(h));
    hwidth = std::max(hwidth, MaxWidth(headers.back()));
    if (headers.back().size() > 1) hmultiline = true;
  }
  std::vector<std::vector<std::vector<Line>>> cells;
  for (const auto& row : t.rows) {
    cells.emplace_back();
    for (const std::string& v : row) {
      cells.back().push_back(FormatCell(v));
      dwidth = std::max(dwidth, MaxWidth(cells.back().back()));
      if (cells.back().back().size() > 1) dmultiline = true;
    }
  }
  if (!o.tuples_only && !t.title.empty()) out << t.title << '\n';
  size_t record = 1;
  for (size_t r = 0; r < cells.size(); ++r) {
    const Rule& rule = r == 0 ? ls.top : ls.middle;
    if (!o.tuples_only) RecordLine(border, record++, hwidth, dwidth, rule, out);
    else if (r != 0 || border == 2) RecordLine(border, 0, hwidth, dwidth, rule, out);
    for (size_t c = 0; c < ncols; ++c) {
      const auto& h = headers[c];
      const auto& d = cells[r][c];
      size_t hline = 0, dline = 0;
      bool hdone = false, ddone = false;
      while (!hdone || !ddone) {
        std::string s;
        if (border == 2) s += v.left;
        if (!hdone) {
          if (border == 2) s += " ";
          s += h[hline].text + Spaces(hwidth - h[hline].width);
          // Without a border, a column of newline marks appears only if some header
          // needs one.
          bool marks = border > 0 || hmultiline;
          if (hline + 1 < h.size()) {
            if (marks) s += ls.newline;
            ++hline;
          } else {
            if (marks) s += " ";
            hdone = true;
          }
        } else {
          s += Spaces(hwidth + border + (border == 0 && hmultiline ? 1 : 0));
        }
        if (border > 0) s += v.mid;
        if (!ddone) {
          s += " " + d[dline].text;
          int space = dwidth - d[dline].width;
          if (dline + 1 < d.size()) {
            if (border > 1 || dmultiline) s += Spaces(space) + ls.newline;
            ++dline;
          } else {
            if (border > 1) s += Spaces(space) + " ";
            ddone = true;
          }
          if (border == 2) s += v.right;
        } else if (border == 2) {
          s += Spaces(dwidth) + "  " + v.right;
        }
        out << s << '\n';
      }
    }
  }
  if (border == 2) RecordLine(border, 0, hwidth, dwidth, ls.bottom, out);
  if (!o.tuples_only && !t.footers.empty()) {
    if (border < 2) out << '\n';
    for (const std::string& f : t.footers) out << f << '\n';
  }
  out << '\n';
}

// ---- unaligned -----------------------------------------------------------------------

std::string FieldSep(const PrintOptions& o) { return o.field_separator_zero ? std::string(1, '\0') : o.field_separator; }
std::string RecordSep(const PrintOptions& o) { return o.record_separator_zero ? std::string(1, '\0') : o.record_separator; }

void PrintUnaligned(const planner::TextTable& t, const PrintOptions& o, std::ostream& out) {
  const std::string fs = FieldSep(o), rs = RecordSep(o);
  bool need_rs = false;
  if (!o.tuples_only) {
    if (!t.title.empty()) out << t.title << rs;
    for (size_t c = 0; c < t.headers.size(); ++c) out << (c ? fs : "") << t.headers[c];
    need_rs = true;
  }
  for (const auto& row : t.rows) {
    if (need_rs) out << rs;
    for (size_t c = 0; c < row.size(); ++c) out << (c ? fs : "") << row[c];
    need_rs = true;
  }
  if (!o.tuples_only) {
    for (const std::string& f : FootersWithDefault(t, o)) {
      if (need_rs) out << rs;
      out << f;
      need_rs = true;
    }
  }
  // The last record ends with a newline whatever the record separator (a NUL with -0).
  if (need_rs) out << (o.record_separator_zero ? std::string(1, '\0') : std::string("\n"));
}

void PrintUnalignedExpanded(const planner::TextTable& t, const PrintOptions& o, std::ostream& out) {
  const std::string fs = FieldSep(o), rs = RecordSep(o);
  bool need_rs = false;
  if (!o.tuples_only && !t.title.empty()) {
    out << t.title;
    need_rs = true;
  }
  for (const auto& row : t.rows) {
    if (need_rs) out << rs << rs;  // records are separated by an empty line
    for (size_t c = 0; c < row.size(); ++c) {
      out << t.headers[c] << fs << row[c];
      if (c + 1 < row.size()) out << rs;
    }
    need_rs = true;
  }
  if (!o.tuples_only && !t.footers.empty()) {
    out << rs;
    for (const std::string& f : t.footers) out << rs << f;
  }
  if (need_rs) out << (o.record_separator_zero ? std::string(1, '\0') : std::string("\n"));
}

// ---- CSV -----------------------------------------------------------------------------

std::string CsvField(const std::string& s, char sep) {
  bool quote = s.find(sep) != std::string::npos || s.find_first_of("\r\n\"") != std::string::npos || s == "\\." ||
               sep == '\\' || sep == '.';
  if (!quote) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

void PrintCsv(const planner::TextTable& t, const PrintOptions& o, std::ostream& out) {
  char sep = o.csv_field_separator.empty() ? ',' : o.csv_field_separator[0];
  if (!o.tuples_only) {
    for (size_t c = 0; c < t.headers.size(); ++c) out << (c ? std::string(1, sep) : "") << CsvField(t.headers[c], sep);
    out << '\n';
  }
  for (const auto& row : t.rows) {
    for (size_t c = 0; c < row.size(); ++c) out << (c ? std::string(1, sep) : "") << CsvField(row[c], sep);
    out << '\n';
  }
}

void PrintCsvExpanded(const planner::TextTable& t, const PrintOptions& o, std::ostream& out) {
  char sep = o.csv_field_separator.empty() ? ',' : o.csv_field_separator[0];
  for (const auto& row : t.rows)
    for (size_t c = 0; c < row.size(); ++c) out << CsvField(t.headers[c], sep) << sep << CsvField(row[c], sep) << '\n';
}

}  // namespace

int DisplayWidth(std::string_view text) {
  int w = 0;
  for (size_t i = 0; i < text.size();) {
    char32_t c;
    i += DecodeUtf8(text, i, c);
    w += std::max(CharWidth(c), 0);
  }
  return w;
}

void Print(const planner::TextTable& t, const PrintOptions& options, std::ostream& out, int terminal_columns) {
  PrintOptions o = options;
  o.border = std::clamp(o.border, 0, 2);
  bool expanded = o.expanded == ExpandedMode::kOn;
  switch (o.format) {
    case OutputFormat::kUnaligned:
      return expanded ? PrintUnalignedExpanded(t, o, out) : PrintUnaligned(t, o, out);
    case OutputFormat::kCsv:
      return expanded ? PrintCsvExpanded(t, o, out) : PrintCsv(t, o, out);
    case OutputFormat::kAligned: break;
  }
  if (expanded) return PrintAlignedExpanded(t, o, out);
  std::vector<std::vector<Line>> header_lines;
  for (const std::string& h : t.headers) header_lines.push_back(FormatCell(h));
  std::vector<std::vector<std::vector<Line>>> cell_lines;
  for (const auto& row : t.rows) {
    cell_lines.emplace_back();
    for (const std::string& v : row) cell_lines.back().push_back(FormatCell(v));
  }
  std::vector<int> widths = ColumnWidths(t, header_lines, cell_lines);
  int columns = o.columns > 0 ? o.columns : terminal_columns;
  if (o.expanded == ExpandedMode::kAuto && columns > 0 && !t.rows.empty() && AlignedWidth(widths, o.border) > columns)
    return PrintAlignedExpanded(t, o, out);
  PrintAligned(t, o, header_lines, cell_lines, widths, out);
}

}  // namespace caracal::frontend
