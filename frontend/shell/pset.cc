// \pset (and -P, \a, \t, \x, \f, \C): the printing options, with psql 15's names,
// abbreviations, validation messages and "Border style is 2." style confirmations.
#include <fmt/format.h>

#include <cstdlib>

#include "frontend/shell/shell.h"

namespace caracal::frontend {

namespace {

const char* FormatName(OutputFormat f) {
  switch (f) {
    case OutputFormat::kAligned: return "aligned";
    case OutputFormat::kUnaligned: return "unaligned";
    case OutputFormat::kCsv: return "csv";
  }
  return "aligned";
}

// The confirmation psql prints after setting `name` (printPsetInfo).
std::string PsetInfo(const std::string& name, const PrintOptions& o) {
  if (name == "border") return fmt::format("Border style is {}.", o.border);
  if (name == "columns")
    return o.columns == 0 ? std::string("Target width is unset.") : fmt::format("Target width is {}.", o.columns);
  if (name == "expanded" || name == "x") {
    if (o.expanded == ExpandedMode::kAuto) return "Expanded display is used automatically.";
    return fmt::format("Expanded display is {}.", o.expanded == ExpandedMode::kOn ? "on" : "off");
  }
  if (name == "csv_fieldsep") return fmt::format("Field separator for CSV is \"{}\".", o.csv_field_separator);
  if (name == "fieldsep" || name == "fieldsep_zero")
    return o.field_separator_zero ? std::string("Field separator is zero byte.")
                                  : fmt::format("Field separator is \"{}\".", o.field_separator);
  if (name == "footer") return fmt::format("Default footer is {}.", o.footer ? "on" : "off");
  if (name == "format") return fmt::format("Output format is {}.", FormatName(o.format));
  if (name == "linestyle") return fmt::format("Line style is {}.", o.unicode ? "unicode" : "ascii");
  if (name == "null") return fmt::format("Null display is \"{}\".", o.null_display);
  if (name == "numericlocale")
    return fmt::format("Locale-adjusted numeric output is {}.", o.numeric_locale ? "on" : "off");
  if (name == "pager") {
    if (o.pager == 1) return "Pager is used for long output.";
    if (o.pager == 2) return "Pager is always used.";
    return "Pager usage is off.";
  }
  if (name == "pager_min_lines")
    return fmt::format("Pager won't be used for less than {} line{}.", o.pager_min_lines, o.pager_min_lines == 1 ? "" : "s");
  if (name == "recordsep" || name == "recordsep_zero") {
    if (o.record_separator_zero) return "Record separator is zero byte.";
    if (o.record_separator == "\n") return "Record separator is <newline>.";
    return fmt::format("Record separator is \"{}\".", o.record_separator);
  }
  if (name == "tableattr" || name == "T")
    return o.table_attr.empty() ? std::string("Table attributes unset.")
                                : fmt::format("Table attributes are \"{}\".", o.table_attr);
  if (name == "title" || name == "C")
    return o.title.empty() ? std::string("Title is unset.") : fmt::format("Title is \"{}\".", o.title);
  if (name == "tuples_only" || name == "t") return fmt::format("Tuples only is {}.", o.tuples_only ? "on" : "off");
  return "";
}

// A value as \pset with no arguments lists it.
std::string QuotedSeparator(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\'') out += "\\'";
    else out += c;
  }
  return out + "'";
}

}  // namespace

bool Shell::SetPrintOption(const std::string& name, const std::optional<std::string>& value, bool quiet,
                           PrintOptions* target) {
  PrintOptions& o = target ? *target : print_;
  auto boolean = [&](bool& target, const char* what) {
    if (!value) {
      target = !target;
      return true;
    }
    std::optional<bool> b = ParseBool(*value);
    if (!b) {
      LogError(fmt::format("unrecognized value \"{}\" for \"{}\": Boolean expected", *value, what));
      return false;
    }
    target = *b;
    return true;
  };
  auto integer = [&](int& target) {
    if (value) target = std::atoi(value->c_str());
  };
  bool silent = false;  // psql says nothing after footer/numericlocale/tuples_only with a value
  if (name == "format") {
    if (value) {
      static const char* kFormats[] = {"aligned", "asciidoc", "csv", "html", "latex", "latex-longtable", "troff-ms",
                                       "unaligned", "wrapped"};
      std::vector<std::string> matches;
      for (const char* f : kFormats)
        if (std::string(f).rfind(*value, 0) == 0) matches.push_back(f);
      for (const char* f : kFormats)
        if (*value == f) matches = {f};
      if (matches.size() > 1) {
        LogError(fmt::format("\\pset: ambiguous abbreviation \"{}\" matches both \"{}\" and \"{}\"", *value, matches[0],
                             matches[1]));
        return false;
      }
      if (matches.empty()) {
        LogError(
            "\\pset: allowed formats are aligned, asciidoc, csv, html, latex, latex-longtable, troff-ms, unaligned, "
            "wrapped");
        return false;
      }
      if (matches[0] == "aligned") o.format = OutputFormat::kAligned;
      else if (matches[0] == "unaligned") o.format = OutputFormat::kUnaligned;
      else if (matches[0] == "csv") o.format = OutputFormat::kCsv;
      else {
        LogError(fmt::format("\\pset: format {} is not supported by caracal (aligned, unaligned and csv are)", matches[0]));
        return false;
      }
    }
  } else if (name == "linestyle") {
    if (value) {
      if (!value->empty() && std::string("ascii").rfind(*value, 0) == 0) o.unicode = false;
      else if (!value->empty() && std::string("unicode").rfind(*value, 0) == 0) o.unicode = true;
      else if (*value == "old-ascii") {
        LogError("\\pset: line style old-ascii is not supported by caracal (ascii and unicode are)");
        return false;
      } else {
        LogError("\\pset: allowed line styles are ascii, old-ascii, unicode");
        return false;
      }
    }
  } else if (name == "border") {
    integer(o.border);
  } else if (name == "expanded" || name == "x") {
    if (!value) {
      o.expanded = o.expanded == ExpandedMode::kOn ? ExpandedMode::kOff : ExpandedMode::kOn;
    } else if (strcasecmp(value->c_str(), "auto") == 0) {
      o.expanded = ExpandedMode::kAuto;
    } else if (std::optional<bool> b = ParseBool(*value)) {
      o.expanded = *b ? ExpandedMode::kOn : ExpandedMode::kOff;
    } else {
      LogError(fmt::format("unrecognized value \"{}\" for \"expanded\"\nAvailable values are: on, off, auto.", *value));
      return false;
    }
  } else if (name == "csv_fieldsep") {
    if (value) {
      if (value->size() != 1 || *value == "\"" || *value == "\n" || *value == "\r") {
        LogError("\\pset: csv_fieldsep must be a single one-byte character");
        return false;
      }
      o.csv_field_separator = *value;
    }
  } else if (name == "fieldsep") {
    if (value) {
      o.field_separator = *value;
      o.field_separator_zero = false;
    }
  } else if (name == "fieldsep_zero") {
    o.field_separator_zero = true;
  } else if (name == "recordsep") {
    if (value) {
      o.record_separator = *value;
      o.record_separator_zero = false;
    }
  } else if (name == "recordsep_zero") {
    o.record_separator_zero = true;
  } else if (name == "null") {
    if (value) o.null_display = *value;
  } else if (name == "title" || name == "C") {
    o.title = value.value_or("");
  } else if (name == "tableattr" || name == "T") {
    o.table_attr = value.value_or("");
  } else if (name == "tuples_only" || name == "t") {
    if (!boolean(o.tuples_only, name.c_str())) return false;
    silent = value.has_value();
  } else if (name == "footer") {
    if (!boolean(o.footer, name.c_str())) return false;
    silent = value.has_value();
  } else if (name == "numericlocale") {
    if (!boolean(o.numeric_locale, name.c_str())) return false;
    silent = value.has_value();
  } else if (name == "pager") {
    if (!value) o.pager = o.pager ? 0 : 1;
    else if (strcasecmp(value->c_str(), "always") == 0) o.pager = 2;
    else if (std::optional<bool> b = ParseBool(*value)) o.pager = *b ? 1 : 0;
    else {
      LogError(fmt::format("unrecognized value \"{}\" for \"pager\": Boolean expected", *value));
      return false;
    }
  } else if (name == "pager_min_lines") {
    integer(o.pager_min_lines);
  } else if (name == "columns") {
    integer(o.columns);
  } else if (name == "unicode_border_linestyle" || name == "unicode_column_linestyle" ||
             name == "unicode_header_linestyle") {
    silent = true;  // only the ascii line style exists; accepted so .psqlrc-style scripts run
  } else {
    LogError(fmt::format("\\pset: unknown option: {}", name));
    return false;
  }
  if (!quiet && !silent) {
    FlushOut();
    out_ << PsetInfo(name, o) << '\n';
  }
  return true;
}

// \pset with no argument: every option and its value.
std::string PsetListing(const PrintOptions& o) {
  auto row = [](const std::string& name, const std::string& value) { return fmt::format("{:<24} {}\n", name, value); };
  std::string s;
  s += row("border", std::to_string(o.border));
  s += row("columns", std::to_string(o.columns));
  s += row("csv_fieldsep", QuotedSeparator(o.csv_field_separator));
  s += row("expanded", o.expanded == ExpandedMode::kAuto ? "auto" : o.expanded == ExpandedMode::kOn ? "on" : "off");
  s += row("fieldsep", o.field_separator_zero ? "ZERO" : QuotedSeparator(o.field_separator));
  s += row("fieldsep_zero", o.field_separator_zero ? "on" : "off");
  s += row("footer", o.footer ? "on" : "off");
  s += row("format", FormatName(o.format));
  s += row("linestyle", o.unicode ? "unicode" : "ascii");
  s += row("null", QuotedSeparator(o.null_display));
  s += row("numericlocale", o.numeric_locale ? "on" : "off");
  s += row("pager", std::to_string(o.pager));
  s += row("pager_min_lines", std::to_string(o.pager_min_lines));
  s += row("recordsep", o.record_separator_zero ? "ZERO" : QuotedSeparator(o.record_separator));
  s += row("recordsep_zero", o.record_separator_zero ? "on" : "off");
  s += row("tableattr", o.table_attr);
  s += row("title", o.title);
  s += row("tuples_only", o.tuples_only ? "on" : "off");
  s += row("unicode_border_linestyle", "single");
  s += row("unicode_column_linestyle", "single");
  s += row("unicode_header_linestyle", "single");
  return s;
}

}  // namespace caracal::frontend
