#include "planner/types/datetime.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <optional>
#include <vector>

#include "planner/types/sql_error.h"

namespace caracal::planner::datetime {

namespace {

// PostgreSQL's range: 4714-11-24 BC (Julian day 0) up to, not including, 294277-01-01
// for timestamps, and up to 5874898-01-01 for dates.
constexpr int64_t kMinTimestamp = -211813488000000000LL;
constexpr int64_t kEndTimestamp = 9223371331200000000LL;
constexpr int64_t kMinDate = -2451545;
constexpr int64_t kEndDate = 2145031949;

[[noreturn]] void BadSyntax(std::string_view type_name, std::string_view text) {
  throw SqlError(sqlstate::kInvalidDatetimeFormat, fmt::format("invalid input syntax for type {}: \"{}\"", type_name, text));
}

[[noreturn]] void FieldOutOfRange(std::string_view text) {
  throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date/time field value out of range: \"{}\"", text));
}

[[noreturn]] void TimestampOutOfRange() { throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); }
[[noreturn]] void IntervalOutOfRange() { throw SqlError(sqlstate::kDatetimeFieldOverflow, "interval out of range"); }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

constexpr const char* kMonthNames[] = {"january", "february", "march",     "april",   "may",      "june",
                                       "july",    "august",   "september", "october", "november", "december"};
constexpr const char* kDayNames[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

// 1-12 for a month name or its three-letter abbreviation ("sept" too), else 0.
int MonthFromWord(std::string_view w) {
  for (int i = 0; i < 12; ++i) {
    std::string_view name = kMonthNames[i];
    if (w == name || (w.size() >= 3 && name.substr(0, w.size()) == w && (w.size() == 3 || w == "sept"))) return i + 1;
  }
  return 0;
}

bool IsDayWord(std::string_view w) {
  for (const char* d : kDayNames) {
    std::string_view name = d;
    if (w == name || (w.size() >= 3 && name.substr(0, w.size()) == w)) return true;
  }
  return false;
}

// The fields of a date/time string, as PostgreSQL's DecodeDateTime reads the common
// forms: ISO 8601 (2020-01-31 10:00:00.5+02, with T or a blank), MDY with slashes or
// dashes, month names (Jan 31 2020, 31-Jan-2020), compact 20200131, AM/PM, BC, zone
// offsets and UTC/GMT/Z.
struct Fields {
  bool has_date = false, has_time = false;
  int64_t year = 0, month = 0, day = 0;
  int64_t hour = 0, minute = 0, second = 0, us = 0;
  std::optional<int64_t> zone_seconds;  // east of UTC
  bool bc = false;
  enum class Special { kNone, kEpoch, kInfinity, kNegInfinity, kAllBalls } special = Special::kNone;
};

class FieldParser {
 public:
  FieldParser(std::string_view text, std::string_view type_name)
      : raw_(text), s_(Lower(TrimSpace(text))), type_(type_name) {}

  Fields Parse() {
    if (s_ == "epoch") return Special(Fields::Special::kEpoch);
    if (s_ == "infinity" || s_ == "+infinity") return Special(Fields::Special::kInfinity);
    if (s_ == "-infinity") return Special(Fields::Special::kNegInfinity);
    if (s_ == "allballs") return Special(Fields::Special::kAllBalls);
    if (s_ == "now" || s_ == "today" || s_ == "tomorrow" || s_ == "yesterday")
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("the special value '{}' is not supported (write now() or CURRENT_DATE)", s_))
          .WithHint("A literal is fixed when the statement is compiled; now() is the transaction's timestamp.");
    if (s_.empty()) Bad();
    int month_word = 0;
    std::vector<std::pair<int64_t, int>> loose;  // numbers beside a month name: value, digits
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
        ++p_;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t start = p_;
        int64_t n = Number();
        int digits = static_cast<int>(p_ - start);
        char next = p_ < s_.size() ? s_[p_] : '\0';
        if (next == ':') {
          Time(n);
        } else if ((next == '-' || next == '/' || next == '.') && !f_.has_date && month_word == 0) {
          Date(n, digits, next);
        } else if (digits == 8 && !f_.has_date && month_word == 0) {
          SetDate(n / 10000, 4, n / 100 % 100, n % 100);
        } else if (digits == 6 && f_.has_date && !f_.has_time) {
          f_.has_time = true;
          f_.hour = n / 10000, f_.minute = n / 100 % 100, f_.second = n % 100;
          Fraction();
        } else {
          loose.emplace_back(n, digits);
        }
      } else if ((c == '+' || c == '-') && (f_.has_time || f_.has_date)) {
        Zone();
      } else if (std::isalpha(static_cast<unsigned char>(c))) {
        size_t start = p_;
        while (p_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[p_])) || s_[p_] == '.')) ++p_;
        std::string word = s_.substr(start, p_ - start);
        if (word == "t" && p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) continue;
        if (word == "z" || word == "utc" || word == "gmt" || word == "zulu" || word == "ut") {
          f_.zone_seconds = 0;
        } else if (word == "am" || word == "a.m." || word == "pm" || word == "p.m.") {
          if (!f_.has_time || f_.hour > 12) Bad();
          if (word[0] == 'a' && f_.hour == 12) f_.hour = 0;
          if (word[0] == 'p' && f_.hour != 12) f_.hour += 12;
        } else if (word == "bc" || word == "b.c.") {
          f_.bc = true;
        } else if (word == "ad" || word == "a.d.") {
        } else if (int m = MonthFromWord(word); m && month_word == 0 && !f_.has_date) {
          month_word = m;
          if (p_ < s_.size() && (s_[p_] == '-' || s_[p_] == '/')) ++p_;
        } else if (!IsDayWord(word)) {
          Bad();
        }
      } else if ((c == '-' || c == '/') && month_word) {
        ++p_;
      } else {
        Bad();
      }
    }
    if (month_word) {
      // Jan 31 2020, 31 Jan 2020, 2020 Jan 31: the year is the number of 3+ digits or
      // the later one.
      if (loose.size() != 2) Bad();
      size_t year_at = loose[0].second > 2 ? 0 : 1;
      SetDate(loose[year_at].first, loose[year_at].second, month_word, loose[1 - year_at].first);
    } else if (!loose.empty()) {
      Bad();
    }
    if (f_.bc) {
      if (!f_.has_date || f_.year < 1) Bad();
      f_.year = 1 - f_.year;
    }
    return f_;
  }

 private:
  [[noreturn]] void Bad() { BadSyntax(type_, raw_); }

  Fields Special(Fields::Special s) {
    f_.special = s;
    return f_;
  }

  int64_t Number() {
    int64_t v = 0;
    int digits = 0;
    while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
      if (++digits > 12) Bad();
      v = v * 10 + (s_[p_++] - '0');
    }
    return v;
  }

  int64_t RequireNumber(int* digits = nullptr) {
    size_t start = p_;
    int64_t v = Number();
    if (p_ == start) Bad();
    if (digits) *digits = static_cast<int>(p_ - start);
    return v;
  }

  void SetDate(int64_t year, int year_digits, int64_t month, int64_t day) {
    if (f_.has_date) Bad();
    // Two-digit years are 1970-2069, as PostgreSQL reads them.
    if (year_digits <= 2) year += year < 70 ? 2000 : 1900;
    f_.has_date = true;
    f_.year = year, f_.month = month, f_.day = day;
  }

  void Date(int64_t first, int first_digits, char sep) {
    ++p_;  // the separator
    int second_digits = 0;
    int64_t second = 0;
    int month_word = 0;
    if (p_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[p_]))) {
      size_t start = p_;
      while (p_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[p_]))) ++p_;
      month_word = MonthFromWord(s_.substr(start, p_ - start));
      if (!month_word) Bad();
    } else {
      second = RequireNumber(&second_digits);
    }
    if (p_ >= s_.size() || s_[p_] != sep) Bad();
    ++p_;
    int third_digits = 0;
    int64_t third = RequireNumber(&third_digits);
    if (month_word) SetDate(third, third_digits, month_word, first);   // 31-Jan-2020
    else if (first_digits > 2) SetDate(first, first_digits, second, third);  // 2020-01-31
    else SetDate(third, third_digits, first, second);                   // 01/31/2020 (MDY)
  }

  void Fraction() {
    if (p_ >= s_.size() || s_[p_] != '.') return;
    ++p_;
    int64_t frac = 0;
    int digits = 0;
    bool round_up = false;
    while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
      if (digits < 6) frac = frac * 10 + (s_[p_] - '0');
      else if (digits == 6) round_up = s_[p_] >= '5';
      ++digits, ++p_;
    }
    for (int d = digits; d < 6; ++d) frac *= 10;
    f_.us = frac + (round_up ? 1 : 0);
  }

  void Time(int64_t hour) {
    if (f_.has_time) Bad();
    f_.has_time = true;
    f_.hour = hour;
    ++p_;
    f_.minute = RequireNumber();
    if (p_ < s_.size() && s_[p_] == ':') {
      ++p_;
      f_.second = RequireNumber();
      Fraction();
    }
  }

  void Zone() {
    bool negative = s_[p_++] == '-';
    int digits = 0;
    int64_t n = RequireNumber(&digits);
    int64_t h = n, m = 0, sec = 0;
    if (digits == 4) h = n / 100, m = n % 100;
    else if (digits > 2) Bad();
    if (p_ < s_.size() && s_[p_] == ':') {
      ++p_;
      m = RequireNumber();
      if (p_ < s_.size() && s_[p_] == ':') {
        ++p_;
        sec = RequireNumber();
      }
    }
    if (h > 15 || m > 59 || sec > 59)
      throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("time zone displacement out of range: \"{}\"", raw_));
    int64_t total = h * 3600 + m * 60 + sec;
    f_.zone_seconds = negative ? -total : total;
  }

  std::string_view raw_;
  std::string s_;
  std::string_view type_;
  size_t p_ = 0;
  Fields f_;
};

// The time of day in microseconds, validated as PostgreSQL does (24:00:00 allowed,
// a leap second 60 rolls over).
int64_t TimeOfDay(const Fields& f, std::string_view text) {
  if (f.hour < 0 || f.hour > 24 || f.minute > 59 || f.second > 60 || f.us > kUsPerSecond ||
      (f.hour == 24 && (f.minute || f.second || f.us)))
    FieldOutOfRange(text);
  return ((f.hour * 60 + f.minute) * 60 + f.second) * kUsPerSecond + f.us;
}

int64_t DateOf(const Fields& f, std::string_view text) {
  if (f.month < 1 || f.month > 12)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date/time field value out of range: \"{}\"", text))
        .WithHint("Perhaps you need a different \"datestyle\" setting.");
  if (f.day < 1 || f.day > DaysInMonth(f.year, static_cast<int>(f.month))) FieldOutOfRange(text);
  return DaysFromCivil(f.year, f.month, f.day);
}

std::string Fraction(int64_t us) {
  if (us == 0) return "";
  std::string frac = fmt::format("{:06}", us);
  while (frac.back() == '0') frac.pop_back();
  return "." + frac;
}

std::string ClockText(int64_t us) {
  int64_t secs = us / kUsPerSecond;
  return fmt::format("{:02}:{:02}:{:02}{}", secs / 3600, secs / 60 % 60, secs % 60, Fraction(us % kUsPerSecond));
}

int32_t CheckedInt32(int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX) IntervalOutOfRange();
  return static_cast<int32_t>(v);
}

int64_t CheckedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) IntervalOutOfRange();
  return r;
}

// Rounds to microsecond precision, as PostgreSQL's TSROUND.
double TsRound(double v) { return std::rint(v * 1e6) / 1e6; }

}  // namespace

int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 - kDaysFrom1970To2000;
}

Civil CivilFromDays(int64_t days) {
  int64_t z = days + kDaysFrom1970To2000 + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  Civil c;
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = yoe + era * 400 + (c.month <= 2);
  return c;
}

Civil CivilFromTimestamp(int64_t ts) {
  int64_t days = FloorDiv(ts, kUsPerDay);
  int64_t rem = ts - days * kUsPerDay;
  Civil c = CivilFromDays(days);
  int64_t secs = rem / kUsPerSecond;
  c.hour = secs / 3600, c.minute = secs / 60 % 60, c.second = secs % 60, c.us = rem % kUsPerSecond;
  return c;
}

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int DayOfWeek(int64_t days) { return static_cast<int>(((days + 6) % 7 + 7) % 7); }  // 2000-01-01 was a Saturday

int64_t IsoYearStart(int64_t year) {
  int64_t jan4 = DaysFromCivil(year, 1, 4);
  return jan4 - (DayOfWeek(jan4) + 6) % 7;
}

std::pair<int64_t, int> IsoWeek(int64_t days) {
  int64_t year = CivilFromDays(days).year;
  if (days >= IsoYearStart(year + 1)) return {year + 1, 1};
  int64_t start = IsoYearStart(year);
  if (days < start) start = IsoYearStart(--year);
  return {year, static_cast<int>((days - start) / 7) + 1};
}

IntervalFields SplitInterval(const Interval& iv) {
  IntervalFields f{};
  f.year = iv.months / 12;
  f.month = iv.months % 12;
  f.day = iv.days;
  int64_t t = iv.us;
  f.hour = t / kUsPerHour;
  t -= f.hour * kUsPerHour;
  f.minute = t / kUsPerMinute;
  t -= f.minute * kUsPerMinute;
  f.second = t / kUsPerSecond;
  f.us = t - f.second * kUsPerSecond;
  return f;
}

bool IsFiniteTimestamp(int64_t ts) { return ts != kTimestampInfinity && ts != kTimestampNegInfinity; }
bool IsFiniteDate(int64_t days) { return days != kDateInfinity && days != kDateNegInfinity; }

int64_t ParseTimestamp(std::string_view text, bool with_time_zone) {
  std::string_view name = with_time_zone ? "timestamp with time zone" : "timestamp";
  Fields f = FieldParser(text, name).Parse();
  switch (f.special) {
    case Fields::Special::kEpoch: return -kDaysFrom1970To2000 * kUsPerDay;
    case Fields::Special::kInfinity: return kTimestampInfinity;
    case Fields::Special::kNegInfinity: return kTimestampNegInfinity;
    case Fields::Special::kAllBalls: BadSyntax(name, text);
    case Fields::Special::kNone: break;
  }
  if (!f.has_date) BadSyntax(name, text);
  __int128 ts = static_cast<__int128>(DateOf(f, text)) * kUsPerDay + TimeOfDay(f, text);
  if (with_time_zone && f.zone_seconds) ts -= static_cast<__int128>(*f.zone_seconds) * kUsPerSecond;
  if (ts < kMinTimestamp || ts >= kEndTimestamp)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("timestamp out of range: \"{}\"", text));
  return static_cast<int64_t>(ts);
}

int64_t ParseDate(std::string_view text) {
  Fields f = FieldParser(text, "date").Parse();
  switch (f.special) {
    case Fields::Special::kEpoch: return -kDaysFrom1970To2000;
    case Fields::Special::kInfinity: return kDateInfinity;
    case Fields::Special::kNegInfinity: return kDateNegInfinity;
    case Fields::Special::kAllBalls: BadSyntax("date", text);
    case Fields::Special::kNone: break;
  }
  if (!f.has_date) BadSyntax("date", text);
  int64_t d = DateOf(f, text);
  if (d < kMinDate || d >= kEndDate)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date out of range: \"{}\"", text));
  return d;
}

int64_t ParseTime(std::string_view text) {
  Fields f = FieldParser(text, "time").Parse();
  if (f.special == Fields::Special::kAllBalls) return 0;
  if (f.special != Fields::Special::kNone || !f.has_time) BadSyntax("time", text);
  return TimeOfDay(f, text);
}

Interval ParseInterval(std::string_view text) {
  std::string s = Lower(TrimSpace(text));
  auto bad = [&]() -> SqlError {
    return SqlError(sqlstate::kInvalidDatetimeFormat, fmt::format("invalid input syntax for type interval: \"{}\"", text));
  };
  __int128 months = 0, days = 0, us = 0;
  // Adds `value` (with its fraction) of a unit: months and days keep their integer part
  // and hand the fraction down (a month is 30 days), as PostgreSQL's DecodeInterval.
  auto add = [&](double value, std::string_view unit) {
    double whole = std::trunc(value), frac = value - whole;
    auto fract_days = [&](double f) {
      double d = f;
      int64_t extra = static_cast<int64_t>(d);
      days += extra;
      us += static_cast<int64_t>(std::rint((d - extra) * kUsPerDay));
    };
    if (unit == "microsecond" || unit == "microseconds" || unit == "us" || unit == "usec" || unit == "usecs" ||
        unit == "usecond" || unit == "useconds") {
      us += static_cast<int64_t>(std::rint(value));
    } else if (unit == "millisecond" || unit == "milliseconds" || unit == "ms" || unit == "msec" || unit == "msecs" ||
               unit == "msecond" || unit == "mseconds") {
      us += static_cast<int64_t>(std::rint(value * 1000));
    } else if (unit == "second" || unit == "seconds" || unit == "s" || unit == "sec" || unit == "secs" || unit.empty()) {
      us += static_cast<int64_t>(std::rint(value * kUsPerSecond));
    } else if (unit == "minute" || unit == "minutes" || unit == "m" || unit == "min" || unit == "mins") {
      us += static_cast<int64_t>(std::rint(value * kUsPerMinute));
    } else if (unit == "hour" || unit == "hours" || unit == "h" || unit == "hr" || unit == "hrs") {
      us += static_cast<int64_t>(std::rint(value * kUsPerHour));
    } else if (unit == "day" || unit == "days" || unit == "d") {
      days += static_cast<int64_t>(whole);
      us += static_cast<int64_t>(std::rint(frac * kUsPerDay));
    } else if (unit == "week" || unit == "weeks" || unit == "w") {
      days += static_cast<int64_t>(whole) * 7;
      fract_days(frac * 7);
    } else if (unit == "month" || unit == "months" || unit == "mon" || unit == "mons") {
      months += static_cast<int64_t>(whole);
      fract_days(frac * 30);
    } else {
      int scale = unit == "year" || unit == "years" || unit == "y" || unit == "yr" || unit == "yrs" ? 1
                  : unit == "decade" || unit == "decades"                                           ? 10
                  : unit == "century" || unit == "centuries" || unit == "c"                         ? 100
                  : unit == "millennium" || unit == "millennia" || unit == "mil" || unit == "mils"  ? 1000
                                                                                                    : 0;
      if (!scale) throw bad();
      months += static_cast<int64_t>(whole) * 12 * scale + static_cast<int64_t>(std::rint(frac * 12 * scale));
    }
  };
  size_t p = 0;
  auto skip_space = [&]() {
    while (p < s.size() && (std::isspace(static_cast<unsigned char>(s[p])) || s[p] == ',')) ++p;
  };
  auto read_number = [&](bool& any) -> double {
    size_t start = p;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
    while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '.')) ++p;
    std::string num = s.substr(start, p - start);
    any = num.find_first_of("0123456789") != std::string::npos;
    if (!any) return 0;
    char* end = nullptr;
    double v = std::strtod(num.c_str(), &end);
    if (end != num.c_str() + num.size()) throw bad();
    return v;
  };
  bool ago = false, any_field = false;
  skip_space();
  if (p < s.size() && s[p] == '@') ++p;
  if (p < s.size() && s[p] == 'p') {
    // ISO 8601: P1Y2M3W4DT5H6M7.5S.
    ++p;
    bool in_time = false;
    while (p < s.size()) {
      if (s[p] == 't') {
        in_time = true;
        ++p;
        continue;
      }
      bool any = false;
      double v = read_number(any);
      if (!any || p >= s.size()) throw bad();
      char u = s[p++];
      if (in_time) add(v, u == 'h' ? "hour" : u == 'm' ? "minute" : u == 's' ? "second" : "?");
      else add(v, u == 'y' ? "year" : u == 'm' ? "month" : u == 'w' ? "week" : u == 'd' ? "day" : "?");
      any_field = true;
    }
  } else {
    while (true) {
      skip_space();
      if (p >= s.size()) break;
      if (std::isalpha(static_cast<unsigned char>(s[p]))) {
        size_t start = p;
        while (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) ++p;
        if (s.substr(start, p - start) != "ago") throw bad();
        ago = true;
        continue;
      }
      bool negative = s[p] == '-';
      bool any = false;
      size_t number_start = p;
      double v = read_number(any);
      if (!any) throw bad();
      if (p < s.size() && s[p] == ':') {
        // [-]hh:mm[:ss[.frac]]
        p = number_start + (s[number_start] == '+' || negative ? 1 : 0);
        int64_t parts[3] = {0, 0, 0};
        double seconds = 0;
        for (int i = 0; i < 3; ++i) {
          size_t start = p;
          while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || (i == 2 && s[p] == '.'))) ++p;
          if (p == start) throw bad();
          if (i == 2) seconds = std::strtod(s.substr(start, p - start).c_str(), nullptr);
          else parts[i] = std::stoll(s.substr(start, p - start));
          if (p >= s.size() || s[p] != ':' || i == 2) break;
          ++p;
        }
        if (parts[1] > 59 || seconds >= 60) throw SqlError("22015", fmt::format("interval field value out of range: \"{}\"", text));
        __int128 t = (static_cast<__int128>(parts[0]) * 60 + parts[1]) * kUsPerMinute +
                     static_cast<int64_t>(std::rint(seconds * kUsPerSecond));
        us += negative ? -t : t;
        any_field = true;
        continue;
      }
      skip_space();
      size_t start = p;
      while (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) ++p;
      std::string unit = s.substr(start, p - start);
      if (unit == "ago") {
        ago = true;
        unit.clear();
      }
      add(v, unit);
      any_field = true;
    }
  }
  if (!any_field) throw bad();
  if (ago) months = -months, days = -days, us = -us;
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX || us < INT64_MIN ||
      us > INT64_MAX)
    throw SqlError("22015", fmt::format("interval field value out of range: \"{}\"", text));
  return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days), static_cast<int64_t>(us)};
}

std::string FormatTimestamp(int64_t ts, bool with_time_zone) {
  if (ts == kTimestampInfinity) return "infinity";
  if (ts == kTimestampNegInfinity) return "-infinity";
  Civil c = CivilFromTimestamp(ts);
  bool bc = c.year <= 0;
  std::string out = fmt::format("{:04}-{:02}-{:02} {}", bc ? 1 - c.year : c.year, c.month, c.day,
                                ClockText(TimeFromTimestamp(ts)));
  if (with_time_zone) out += "+00";
  if (bc) out += " BC";
  return out;
}

std::string FormatDate(int64_t days) {
  if (days == kDateInfinity) return "infinity";
  if (days == kDateNegInfinity) return "-infinity";
  Civil c = CivilFromDays(days);
  bool bc = c.year <= 0;
  return fmt::format("{:04}-{:02}-{:02}{}", bc ? 1 - c.year : c.year, c.month, c.day, bc ? " BC" : "");
}

std::string FormatTime(int64_t us) { return ClockText(us); }

std::string FormatInterval(const Interval& iv) {
  // PostgreSQL's IntervalStyle postgres: "1 year 2 mons -3 days +04:05:06.5".
  std::string out;
  bool is_zero = true, is_before = false;
  auto part = [&](int64_t value, const char* unit) {
    if (value == 0) return;
    out += fmt::format("{}{}{} {}{}", is_zero ? "" : " ", is_before && value > 0 ? "+" : "", value, unit,
                       value != 1 ? "s" : "");
    is_before = value < 0;
    is_zero = false;
  };
  part(iv.months / 12, "year");
  part(iv.months % 12, "mon");
  part(iv.days, "day");
  if (is_zero || iv.us != 0) {
    bool minus = iv.us < 0;
    uint64_t a = minus ? 0 - static_cast<uint64_t>(iv.us) : static_cast<uint64_t>(iv.us);
    uint64_t secs = a / kUsPerSecond;
    out += fmt::format("{}{}{:02}:{:02}:{:02}{}", is_zero ? "" : " ", minus ? "-" : (is_before ? "+" : ""), secs / 3600,
                       secs / 60 % 60, secs % 60, Fraction(static_cast<int64_t>(a % kUsPerSecond)));
  }
  return out;
}

int64_t AddInterval(int64_t ts, const Interval& iv) {
  if (!IsFiniteTimestamp(ts)) return ts;
  if (iv.months != 0) {
    Civil c = CivilFromTimestamp(ts);
    int64_t total = c.year * 12 + (c.month - 1) + iv.months;
    int64_t year = FloorDiv(total, 12);
    int month = static_cast<int>(total - year * 12) + 1;
    int day = std::min(c.day, DaysInMonth(year, month));
    ts = DaysFromCivil(year, month, day) * kUsPerDay + TimeFromTimestamp(ts);
  }
  __int128 r = static_cast<__int128>(ts) + static_cast<__int128>(iv.days) * kUsPerDay + iv.us;
  if (r < kMinTimestamp || r >= kEndTimestamp) TimestampOutOfRange();
  return static_cast<int64_t>(r);
}

Interval NegateInterval(const Interval& iv) {
  if (iv.months == INT32_MIN || iv.days == INT32_MIN || iv.us == INT64_MIN) IntervalOutOfRange();
  return Interval{-iv.months, -iv.days, -iv.us};
}

Interval AddIntervals(const Interval& a, const Interval& b) {
  return Interval{CheckedInt32(static_cast<int64_t>(a.months) + b.months),
                  CheckedInt32(static_cast<int64_t>(a.days) + b.days), CheckedAdd(a.us, b.us)};
}

Interval SubtractTimestamps(int64_t a, int64_t b) {
  if (!IsFiniteTimestamp(a) || !IsFiniteTimestamp(b))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
  int64_t diff;
  if (__builtin_sub_overflow(a, b, &diff)) IntervalOutOfRange();
  return JustifyHours(Interval{0, 0, diff});
}

namespace {

// An interval scaled to (months, days, time) that are no longer whole: each unit's
// fraction cascades into the next (a month is 30 days), as PostgreSQL's interval_mul and
// interval_div do.
Interval Cascade(double months, double days, double time_us) {
  if (std::isnan(months) || months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX)
    IntervalOutOfRange();
  Interval r{static_cast<int32_t>(months), static_cast<int32_t>(days), 0};
  double month_remainder_days = TsRound((months - r.months) * 30);
  double sec_remainder = TsRound((days - r.days + month_remainder_days - static_cast<int>(month_remainder_days)) * 86400);
  if (std::fabs(sec_remainder) >= 86400) {
    r.days = CheckedInt32(static_cast<int64_t>(r.days) + static_cast<int>(sec_remainder / 86400));
    sec_remainder -= static_cast<int>(sec_remainder / 86400) * 86400.0;
  }
  r.days = CheckedInt32(static_cast<int64_t>(r.days) + static_cast<int>(month_remainder_days));
  double time = std::rint(time_us + sec_remainder * kUsPerSecond);
  if (!(time >= -9.2233720368547758e18 && time < 9.2233720368547758e18)) IntervalOutOfRange();
  r.us = static_cast<int64_t>(time);
  return r;
}

}  // namespace

Interval MultiplyInterval(const Interval& iv, double factor) {
  if (std::isnan(factor)) IntervalOutOfRange();
  return Cascade(iv.months * factor, iv.days * factor, static_cast<double>(iv.us) * factor);
}

Interval DivideInterval(const Interval& iv, double divisor) {
  if (divisor == 0) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
  if (std::isnan(divisor)) IntervalOutOfRange();
  return Cascade(iv.months / divisor, iv.days / divisor, static_cast<double>(iv.us) / divisor);
}

int64_t AddDays(int64_t date, int64_t days) {
  if (!IsFiniteDate(date)) return date;
  int64_t r = date + days;
  if (r < kMinDate || r >= kEndDate) throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range");
  return r;
}

int64_t DateToTimestamp(int64_t date) {
  if (date == kDateInfinity) return kTimestampInfinity;
  if (date == kDateNegInfinity) return kTimestampNegInfinity;
  if (date >= kEndTimestamp / kUsPerDay) throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
  return date * kUsPerDay;
}

int64_t TimestampToDate(int64_t ts) {
  if (ts == kTimestampInfinity) return kDateInfinity;
  if (ts == kTimestampNegInfinity) return kDateNegInfinity;
  return FloorDiv(ts, kUsPerDay);
}

int64_t TimeFromTimestamp(int64_t ts) {
  if (!IsFiniteTimestamp(ts)) return 0;
  return ts - FloorDiv(ts, kUsPerDay) * kUsPerDay;
}

int64_t AddIntervalToTime(int64_t time, const Interval& iv) {
  int64_t r = (time + iv.us % kUsPerDay) % kUsPerDay;
  return r < 0 ? r + kUsPerDay : r;
}

int64_t IntervalToTime(const Interval& iv) {
  int64_t r = iv.us % kUsPerDay;
  return r < 0 ? r + kUsPerDay : r;
}

int CompareIntervals(const Interval& a, const Interval& b) {
  auto span = [](const Interval& i) {
    return static_cast<__int128>(i.us) + (static_cast<__int128>(i.months) * 30 + i.days) * kUsPerDay;
  };
  __int128 x = span(a), y = span(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

Interval JustifyHours(const Interval& iv) {
  Interval r = iv;
  int64_t whole = r.us / kUsPerDay;
  r.us -= whole * kUsPerDay;
  r.days = CheckedInt32(static_cast<int64_t>(r.days) + whole);
  if (r.days > 0 && r.us < 0) r.us += kUsPerDay, --r.days;
  else if (r.days < 0 && r.us > 0) r.us -= kUsPerDay, ++r.days;
  return r;
}

Interval JustifyDays(const Interval& iv) {
  Interval r = iv;
  int32_t whole = r.days / 30;
  r.days -= whole * 30;
  r.months = CheckedInt32(static_cast<int64_t>(r.months) + whole);
  if (r.months > 0 && r.days < 0) r.days += 30, --r.months;
  else if (r.months < 0 && r.days > 0) r.days -= 30, ++r.months;
  return r;
}

Interval JustifyInterval(const Interval& iv) {
  Interval r = iv;
  if ((r.days > 0 && r.us > 0) || (r.days < 0 && r.us < 0)) {
    int32_t whole = r.days / 30;
    r.days -= whole * 30;
    r.months = CheckedInt32(static_cast<int64_t>(r.months) + whole);
  }
  int64_t whole_day = r.us / kUsPerDay;
  r.us -= whole_day * kUsPerDay;
  int64_t days = r.days + whole_day;
  int64_t whole_month = days / 30;
  days -= whole_month * 30;
  r.months = CheckedInt32(r.months + whole_month);
  r.days = static_cast<int32_t>(days);
  if (r.months > 0 && (r.days < 0 || (r.days == 0 && r.us < 0))) r.days += 30, --r.months;
  else if (r.months < 0 && (r.days > 0 || (r.days == 0 && r.us > 0))) r.days -= 30, ++r.months;
  if (r.days > 0 && r.us < 0) r.us += kUsPerDay, --r.days;
  else if (r.days < 0 && r.us > 0) r.us -= kUsPerDay, ++r.days;
  return r;
}

int64_t TimestampFromUnixSeconds(double seconds) {
  if (std::isinf(seconds)) return seconds > 0 ? kTimestampInfinity : kTimestampNegInfinity;
  if (std::isnan(seconds)) throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp cannot be NaN");
  double us = std::rint(seconds * kUsPerSecond) - static_cast<double>(kDaysFrom1970To2000 * kUsPerDay);
  if (!(us >= static_cast<double>(kMinTimestamp) && us < static_cast<double>(kEndTimestamp)))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("timestamp out of range: \"{}\"", seconds));
  return static_cast<int64_t>(us);
}

int64_t MakeDate(int64_t year, int64_t month, int64_t day) {
  // Negative years are BC (there is no year 0).
  if (year == 0 || month < 1 || month > 12 || day < 1 || day > DaysInMonth(year < 0 ? year + 1 : year, static_cast<int>(month)))
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::format("date field value out of range: {}-{:02}-{:02}", year, month, day));
  return DaysFromCivil(year < 0 ? year + 1 : year, month, day);
}

int64_t MakeTime(int64_t hour, int64_t minute, double second) {
  double us = std::rint(second * kUsPerSecond);
  if (hour < 0 || minute < 0 || minute > 59 || us < 0 || us > 60 * kUsPerSecond || hour > 24 ||
      (hour == 24 && (minute > 0 || us > 0)))
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::format("time field value out of range: {}:{:02}:{:02}", hour, minute, second));
  return (hour * 60 + minute) * kUsPerMinute + static_cast<int64_t>(us);
}

}  // namespace caracal::planner::datetime
