// to_char(timestamp | timestamptz | interval, format) and to_timestamp / to_date(text,
// format): PostgreSQL's template patterns (formatting.c), the common ones. Patterns are
// matched longest first, upper- and lower-case spellings alike except where the case
// is the output's (MONTH / Month / month, DY / Dy / dy, AM / am, ...).
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <optional>

#include "planner/types/datetime.h"
#include "planner/types/sql_error.h"

namespace caracal::planner::datetime {

namespace {

constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
constexpr const char* kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr const char* kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};

// Patterns, longest first among those sharing a prefix.
constexpr std::array<std::string_view, 60> kPatterns = {
    "A.D.", "A.M.", "AD",    "AM",   "B.C.", "BC",   "CC",   "DAY",  "DDD",  "DD",    "DY",   "Day",
    "Dy",   "D",    "FF1",   "FF2",  "FF3",  "FF4",  "FF5",  "FF6",  "HH24", "HH12",  "HH",   "IDDD",
    "ID",   "IW",   "IYYY",  "IYY",  "IY",   "I",    "J",    "MI",   "MM",   "MONTH", "MON",  "MS",
    "Month", "Mon", "OF",    "P.M.", "PM",   "Q",    "RM",   "SSSSS", "SSSS", "SS",   "TZH",  "TZM",
    "TZ",   "US",   "WW",    "W",    "Y,YYY", "YYYY", "YYY",  "YY",   "Y",    "rm",   "tz",   "of"};

bool StartsWithCI(std::string_view s, std::string_view p) {
  if (s.size() < p.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(s[i])) != std::toupper(static_cast<unsigned char>(p[i]))) return false;
  return true;
}

// The pattern at the start of `s`, or "". Case-sensitive spellings (Month, Day, Dy, Mon,
// am, ...) are recognised by their first letters' case.
std::string_view MatchPattern(std::string_view s) {
  for (std::string_view p : kPatterns)
    if (StartsWithCI(s, p)) return p;
  return {};
}

enum class Case { kUpper, kCapital, kLower };

Case CaseOf(std::string_view written) {
  if (written.size() > 1 && std::islower(static_cast<unsigned char>(written[0]))) return Case::kLower;
  if (written.size() > 1 && std::islower(static_cast<unsigned char>(written[1]))) return Case::kCapital;
  return std::islower(static_cast<unsigned char>(written[0])) ? Case::kLower : Case::kUpper;
}

std::string InCase(std::string_view name, Case c) {
  std::string out(name);
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char ch = static_cast<unsigned char>(out[i]);
    out[i] = static_cast<char>(c == Case::kUpper || (c == Case::kCapital && i == 0) ? std::toupper(ch) : std::tolower(ch));
  }
  return out;
}

std::string Ordinal(int64_t n, bool upper) {
  int64_t last2 = std::abs(n) % 100, last = std::abs(n) % 10;
  const char* s = (last2 >= 11 && last2 <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return upper ? InCase(s, Case::kUpper) : s;
}

struct Fields {
  int64_t year = 0;  // astronomical
  int month = 0, day = 0;
  int64_t hour = 0, minute = 0, second = 0, us = 0;
  int64_t days = 0;  // since 2000-01-01 (timestamps)
  bool interval = false;
  bool with_zone = false;
};

}  // namespace

std::string ToChar(TimeKind kind, int64_t value, const Interval& iv, std::string_view format) {
  Fields f;
  if (kind == TimeKind::kInterval) {
    f.interval = true;
    IntervalFields parts = SplitInterval(iv);
    f.year = parts.year, f.month = static_cast<int>(parts.month), f.day = static_cast<int>(parts.day);
    f.hour = parts.hour, f.minute = parts.minute, f.second = parts.second, f.us = parts.us;
  } else {
    if (!IsFiniteTimestamp(value)) return "";
    Civil c = CivilFromTimestamp(value);
    f.year = c.year, f.month = c.month, f.day = c.day;
    f.hour = c.hour, f.minute = c.minute, f.second = c.second, f.us = c.us;
    f.days = FloorDiv(value, kUsPerDay);
    f.with_zone = kind == TimeKind::kTimestampTz;
  }
  const int64_t shown_year = f.interval ? f.year : (f.year > 0 ? f.year : 1 - f.year);
  const int dow = DayOfWeek(f.days);
  std::string out;
  size_t p = 0;
  while (p < format.size()) {
    std::string_view rest = format.substr(p);
    bool fill = false;  // FM: no padding
    if (StartsWithCI(rest, "FM")) {
      fill = true;
      p += 2;
      rest = format.substr(p);
    }
    if (StartsWithCI(rest, "TM")) {  // translation mode: the C locale's names anyway
      p += 2;
      rest = format.substr(p);
    }
    std::string_view pat = MatchPattern(rest);
    if (pat.empty()) {
      if (rest[0] == '"') {
        size_t end = p + 1;
        while (end < format.size() && format[end] != '"') {
          if (format[end] == '\\' && end + 1 < format.size()) ++end;
          out += format[end++];
        }
        p = end + 1;
      } else if (rest[0] == '\\' && rest.size() > 1 && rest[1] == '"') {
        out += '"';
        p += 2;
      } else {
        out += rest[0];
        ++p;
      }
      continue;
    }
    std::string_view written = rest.substr(0, pat.size());
    p += pat.size();
    std::string upat = InCase(pat, Case::kUpper);
    auto num = [&](int64_t v, int width) {
      std::string s = fill ? fmt::format("{}", v) : (v < 0 ? fmt::format("-{:0{}}", -v, width - 1) : fmt::format("{:0{}}", v, width));
      // An ordinal suffix (TH / th) follows a number.
      std::string_view after = format.substr(p);
      if (StartsWithCI(after, "TH")) {
        s += Ordinal(v, after[0] == 'T');
        p += 2;
      }
      out += s;
    };
    auto name = [&](std::string_view full, size_t abbrev) {
      std::string text = abbrev ? std::string(full.substr(0, abbrev)) : std::string(full);
      text = InCase(text, CaseOf(written));
      if (!abbrev && !fill) text += std::string(9 - std::min<size_t>(9, text.size()), ' ');
      out += text;
    };
    int64_t hour12 = f.hour % 12 == 0 ? 12 : f.hour % 12;
    if (upat == "HH24") num(f.hour, 2);
    else if (upat == "HH12" || upat == "HH") num(f.interval ? f.hour % 12 : hour12, 2);
    else if (upat == "MI") num(f.minute, 2);
    else if (upat == "SS") num(f.second, 2);
    else if (upat == "SSSS" || upat == "SSSSS") num((f.hour * 60 + f.minute) * 60 + f.second, 0);
    else if (upat == "MS") num(f.us / 1000, 3);
    else if (upat == "US") num(f.us, 6);
    else if (upat.size() == 3 && upat[0] == 'F' && upat[1] == 'F') {
      int digits = upat[2] - '0';
      int64_t v = f.us;
      for (int i = digits; i < 6; ++i) v /= 10;
      num(v, digits);
    } else if (upat == "AM" || upat == "PM" || upat == "A.M." || upat == "P.M.") {
      bool pm = f.hour % 24 >= 12;
      std::string text = upat.size() == 2 ? (pm ? "PM" : "AM") : (pm ? "P.M." : "A.M.");
      out += CaseOf(written) == Case::kUpper ? text : InCase(text, Case::kLower);
    } else if (upat == "AD" || upat == "BC" || upat == "A.D." || upat == "B.C.") {
      bool bc = !f.interval && f.year <= 0;
      std::string text = upat.size() == 2 ? (bc ? "BC" : "AD") : (bc ? "B.C." : "A.D.");
      out += CaseOf(written) == Case::kUpper ? text : InCase(text, Case::kLower);
    } else if (upat == "Y,YYY") {
      out += fmt::format("{},{:03}", shown_year / 1000, shown_year % 1000);
    } else if (upat == "YYYY") num(shown_year, 4);
    else if (upat == "YYY") num(shown_year % 1000, 3);
    else if (upat == "YY") num(shown_year % 100, 2);
    else if (upat == "Y") num(shown_year % 10, 1);
    else if (upat == "IYYY" || upat == "IYY" || upat == "IY" || upat == "I" || upat == "IW" || upat == "IDDD" ||
             upat == "ID") {
      int64_t iy = IsoWeek(f.days).first;
      int64_t iddd = f.days - IsoYearStart(iy) + 1;
      if (upat == "IW") num((iddd - 1) / 7 + 1, 2);
      else if (upat == "IDDD") num(iddd, 3);
      else if (upat == "ID") num(dow == 0 ? 7 : dow, 1);
      else {
        int64_t y = iy > 0 ? iy : 1 - iy;
        int width = static_cast<int>(upat.size());
        int64_t mod = width == 4 ? 0 : width == 3 ? 1000 : width == 2 ? 100 : 10;
        num(mod ? y % mod : y, width);
      }
    } else if (upat == "MONTH" || upat == "MON") {
      if (f.month == 0) continue;
      name(kMonths[f.month - 1], upat == "MON" ? 3 : 0);
    } else if (upat == "MM") num(f.month, 2);
    else if (upat == "DAY" || upat == "DY") name(kDays[dow], upat == "DY" ? 3 : 0);
    else if (upat == "DDD") num(f.interval ? f.day : f.days - DaysFromCivil(f.year, 1, 1) + 1, 3);
    else if (upat == "DD") num(f.day, 2);
    else if (upat == "D") num(dow + 1, 1);
    else if (upat == "WW") num((f.days - DaysFromCivil(f.year, 1, 1)) / 7 + 1, 2);
    else if (upat == "W") num((f.day - 1) / 7 + 1, 1);
    else if (upat == "Q") {
      if (f.month == 0) continue;
      num((f.month - 1) / 3 + 1, 1);
    } else if (upat == "CC") {
      int64_t cc = f.interval ? f.year / 100 : (f.year > 0 ? (f.year + 99) / 100 : -((99 - (f.year - 1)) / 100));
      num(cc, 2);
    } else if (upat == "J") num(f.days + 2451545, 0);
    else if (upat == "RM") {
      if (f.month == 0) continue;
      std::string r = kRoman[f.month - 1];
      if (written[0] == 'r') r = InCase(r, Case::kLower);
      if (!fill) r += std::string(4 - r.size(), ' ');
      out += r;
    } else if (upat == "TZ") {
      if (f.with_zone) out += written[0] == 't' ? "utc" : "UTC";
    } else if (upat == "OF" || upat == "TZH") {
      out += "+00";  // a timestamp without time zone is printed as UTC too
    } else if (upat == "TZM") {
      out += "00";
    }
  }
  return out;
}

int64_t ParseWithFormat(std::string_view text, std::string_view format, bool /*date_only*/) {
  int64_t year = 1, hour = 0, minute = 0, second = 0, us = 0;
  int month = 1, day = 1;
  std::optional<bool> pm;
  bool bc = false;
  std::optional<int64_t> doy;
  size_t t = 0, p = 0;
  auto skip_blanks = [&]() {
    while (t < text.size() && std::isspace(static_cast<unsigned char>(text[t]))) ++t;
  };
  auto read_int = [&](std::string_view pat, int max_digits) -> int64_t {
    skip_blanks();
    bool neg = false;
    if (t < text.size() && text[t] == '-' && pat == "YYYY") neg = true, ++t;
    size_t start = t;
    int64_t v = 0;
    while (t < text.size() && std::isdigit(static_cast<unsigned char>(text[t])) &&
           (max_digits <= 0 || static_cast<int>(t - start) < max_digits))
      v = v * 10 + (text[t++] - '0');
    if (t == start) {
      std::string_view bad = text.substr(start);
      throw SqlError(sqlstate::kInvalidDatetimeFormat,
                     fmt::format("invalid value \"{}\" for \"{}\"", bad.substr(0, std::min<size_t>(bad.size(), pat.size())), pat))
          .WithDetail("Value must be an integer.");
    }
    return neg ? -v : v;
  };
  auto read_name = [&](std::string_view pat, const char* const* names, int count, bool abbrev) -> int {
    skip_blanks();
    for (int i = 0; i < count; ++i) {
      std::string_view n = names[i];
      if (abbrev) n = n.substr(0, 3);
      if (StartsWithCI(text.substr(t), n)) {
        t += n.size();
        return i;
      }
    }
    throw SqlError(sqlstate::kInvalidDatetimeFormat, fmt::format("invalid value \"{}\" for \"{}\"", text.substr(t, 3), pat))
        .WithDetail("The given value did not match any of the allowed values for this field.");
  };
  while (p < format.size()) {
    std::string_view rest = format.substr(p);
    if (StartsWithCI(rest, "FM") || StartsWithCI(rest, "FX") || StartsWithCI(rest, "TM")) {
      p += 2;
      continue;
    }
    std::string_view pat = MatchPattern(rest);
    if (pat.empty()) {
      // A separator or literal in the format skips one character of the input (blanks
      // in either are skipped freely).
      if (std::isspace(static_cast<unsigned char>(rest[0]))) skip_blanks();
      else if (t < text.size() && !std::isalnum(static_cast<unsigned char>(text[t]))) ++t;
      ++p;
      continue;
    }
    p += pat.size();
    std::string upat;
    for (char c : pat) upat += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // A year followed directly by another field (YYYYMMDD) has four digits; before a
    // separator or at the end, as many as there are.
    const bool packed = p < format.size() && std::isalpha(static_cast<unsigned char>(format[p]));
    if (upat == "YYYY" || upat == "IYYY") year = read_int(upat, packed ? 4 : 0);
    else if (upat == "Y,YYY") {
      int64_t hi = read_int(upat, 3);
      if (t < text.size() && text[t] == ',') ++t;
      year = hi * 1000 + read_int(upat, 3);
    } else if (upat == "YYY" || upat == "YY" || upat == "Y") {
      year = read_int(upat, static_cast<int>(upat.size()));
      if (upat == "YY") year += year < 70 ? 2000 : 1900;
      else if (upat == "YYY") year += year < 100 ? 2000 : 1000;
      else year += 2000;
    } else if (upat == "MM") month = static_cast<int>(read_int(upat, 2));
    else if (upat == "MONTH") month = read_name(upat, kMonths, 12, false) + 1;
    else if (upat == "MON") month = read_name(upat, kMonths, 12, true) + 1;
    else if (upat == "DAY") read_name(upat, kDays, 7, false);
    else if (upat == "DY") read_name(upat, kDays, 7, true);
    else if (upat == "DD") day = static_cast<int>(read_int(upat, 2));
    else if (upat == "DDD") doy = read_int(upat, 3);
    else if (upat == "HH24" || upat == "HH" || upat == "HH12") hour = read_int(upat, 2);
    else if (upat == "MI") minute = read_int(upat, 2);
    else if (upat == "SS") second = read_int(upat, 2);
    else if (upat == "MS") us = read_int(upat, 3) * 1000;
    else if (upat == "US") us = read_int(upat, 6);
    else if (upat == "AM" || upat == "PM" || upat == "A.M." || upat == "P.M.") {
      skip_blanks();
      std::string_view r = text.substr(t);
      bool dotted = upat.size() == 4;
      if (StartsWithCI(r, dotted ? "A.M." : "AM")) pm = false;
      else if (StartsWithCI(r, dotted ? "P.M." : "PM")) pm = true;
      else
        throw SqlError(sqlstate::kInvalidDatetimeFormat, fmt::format("invalid value \"{}\" for \"{}\"", r.substr(0, upat.size()), pat))
            .WithDetail("The given value did not match any of the allowed values for this field.");
      t += upat.size();
    } else if (upat == "BC" || upat == "AD" || upat == "B.C." || upat == "A.D.") {
      skip_blanks();
      bc = StartsWithCI(text.substr(t), "B");
      t += upat.size();
    } else if (upat == "J") {
      int64_t j = read_int(upat, 0) - 2451545;
      Civil c = CivilFromDays(j);
      year = c.year, month = c.month, day = c.day;
    } else if (upat == "TZ" || upat == "OF" || upat == "TZH" || upat == "TZM") {
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("formatting field \"{}\" is only supported in to_char", pat));
    } else {
      read_int(upat, static_cast<int>(upat.size()));  // fields that do not set the value (D, W, Q, ...)
    }
  }
  if (pm) {
    if (hour < 1 || hour > 12)
      throw SqlError(sqlstate::kInvalidDatetimeFormat, fmt::format("hour \"{}\" is invalid for the 12-hour clock", hour))
          .WithHint("Use the 24-hour clock, or give an hour between 1 and 12.");
    if (*pm && hour != 12) hour += 12;
    if (!*pm && hour == 12) hour = 0;
  }
  if (bc) year = 1 - year;
  if (doy) {
    int64_t d = DaysFromCivil(year, 1, 1) + *doy - 1;
    Civil c = CivilFromDays(d);
    month = c.month, day = c.day;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 24 || minute > 59 || second > 60)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date/time field value out of range: \"{}\"", text));
  return DaysFromCivil(year, month, day) * kUsPerDay + ((hour * 60 + minute) * 60 + second) * kUsPerSecond + us;
}

}  // namespace caracal::planner::datetime
