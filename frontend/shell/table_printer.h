// Printing a table the way psql does (its fe_utils/print.c behaviour, re-implemented):
// aligned (borders 0-2, ascii or unicode lines, multi-line cells with '+' marks,
// centred headers and titles),
// unaligned (-A), CSV (--csv), and each of them expanded (\x). Output is byte-identical
// to psql 15 for the same cells and options, so scripts can be diffed against PostgreSQL.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "planner/types/text_table.h"

namespace caracal::frontend {

enum class OutputFormat { kAligned, kUnaligned, kCsv };
enum class ExpandedMode { kOff, kOn, kAuto };

// psql's \pset state (what printing needs of it).
struct PrintOptions {
  OutputFormat format = OutputFormat::kAligned;
  ExpandedMode expanded = ExpandedMode::kOff;
  int border = 1;                     // 0, 1 or 2 (aligned format)
  bool unicode = false;               // \pset linestyle unicode (box-drawing characters)
  bool tuples_only = false;           // -t: no title, header or footer
  bool footer = true;                 // the default "(N rows)" footer
  std::string null_display;           // what NULL prints as
  std::string field_separator = "|";  // unaligned
  bool field_separator_zero = false;  // -z: a NUL byte
  std::string record_separator = "\n";
  bool record_separator_zero = false;  // -0
  std::string csv_field_separator = ",";
  std::string title;       // \pset title (empty: none)
  int columns = 0;         // \pset columns: the width expanded=auto compares with (0: terminal)
  int pager = 1;           // \pset pager: 0 off, 1 when taller than the terminal, 2 always
  int pager_min_lines = 0;
  bool numeric_locale = false;  // accepted for psql compatibility (no locale formatting)
  std::string table_attr;       // accepted for psql compatibility (no HTML output)
};

// Prints `table` as psql would with `options`. `terminal_columns` is the output's width
// when it is a terminal (0 otherwise); \x auto switches to expanded output when the
// aligned table would be wider.
void Print(const planner::TextTable& table, const PrintOptions& options, std::ostream& out, int terminal_columns = 0);

// The display width of UTF-8 text as a terminal shows it (wide East Asian characters
// count 2, combining marks 0).
int DisplayWidth(std::string_view text);

}  // namespace caracal::frontend
