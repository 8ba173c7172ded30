// date_trunc, extract / date_part, age, to_char and to_timestamp / to_date's format
// parsing, with PostgreSQL 15's results (timestamp.c, formatting.c).
#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <optional>

#include "planner/types/datetime.h"
#include "planner/types/sql_error.h"

namespace caracal::planner::datetime {

namespace {

enum class Unit {
  kMicroseconds, kMilliseconds, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter, kYear, kDecade,
  kCentury, kMillennium, kEpoch, kDow, kIsoDow, kDoy, kIsoYear, kJulian, kTimezone, kTimezoneHour,
  kTimezoneMinute,
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<Unit> UnitFromName(const std::string& u) {
  struct Name {
    const char* name;
    Unit unit;
  };
  static const Name kNames[] = {
      {"microseconds", Unit::kMicroseconds}, {"microsecond", Unit::kMicroseconds}, {"us", Unit::kMicroseconds},
      {"usec", Unit::kMicroseconds}, {"usecs", Unit::kMicroseconds}, {"useconds", Unit::kMicroseconds},
      {"milliseconds", Unit::kMilliseconds}, {"millisecond", Unit::kMilliseconds}, {"ms", Unit::kMilliseconds},
      {"msec", Unit::kMilliseconds}, {"msecs", Unit::kMilliseconds}, {"mseconds", Unit::kMilliseconds},
      {"second", Unit::kSecond}, {"seconds", Unit::kSecond}, {"s", Unit::kSecond}, {"sec", Unit::kSecond},
      {"secs", Unit::kSecond}, {"minute", Unit::kMinute}, {"minutes", Unit::kMinute}, {"m", Unit::kMinute},
      {"min", Unit::kMinute}, {"mins", Unit::kMinute}, {"hour", Unit::kHour}, {"hours", Unit::kHour},
      {"h", Unit::kHour}, {"hr", Unit::kHour}, {"hrs", Unit::kHour}, {"day", Unit::kDay}, {"days", Unit::kDay},
      {"d", Unit::kDay}, {"week", Unit::kWeek}, {"weeks", Unit::kWeek}, {"w", Unit::kWeek},
      {"month", Unit::kMonth}, {"months", Unit::kMonth}, {"mon", Unit::kMonth}, {"mons", Unit::kMonth},
      {"quarter", Unit::kQuarter}, {"qtr", Unit::kQuarter}, {"year", Unit::kYear}, {"years", Unit::kYear},
      {"y", Unit::kYear}, {"yr", Unit::kYear}, {"yrs", Unit::kYear}, {"decade", Unit::kDecade},
      {"decades", Unit::kDecade}, {"dec", Unit::kDecade}, {"decs", Unit::kDecade}, {"century", Unit::kCentury},
      {"centuries", Unit::kCentury}, {"c", Unit::kCentury}, {"cent", Unit::kCentury},
      {"millennium", Unit::kMillennium}, {"millennia", Unit::kMillennium}, {"mil", Unit::kMillennium},
      {"mils", Unit::kMillennium}, {"epoch", Unit::kEpoch}, {"dow", Unit::kDow}, {"isodow", Unit::kIsoDow},
      {"doy", Unit::kDoy}, {"isoyear", Unit::kIsoYear}, {"julian", Unit::kJulian}, {"j", Unit::kJulian},
      {"timezone", Unit::kTimezone}, {"timezone_h", Unit::kTimezoneHour}, {"timezone_hour", Unit::kTimezoneHour},
      {"timezone_m", Unit::kTimezoneMinute}, {"timezone_minute", Unit::kTimezoneMinute},
  };
  for (const Name& n : kNames)
    if (u == n.name) return n.unit;
  return std::nullopt;
}

std::string_view KindName(TimeKind kind) {
  switch (kind) {
    case TimeKind::kTimestamp: return "timestamp without time zone";
    case TimeKind::kTimestampTz: return "timestamp with time zone";
    case TimeKind::kDate: return "date";
    case TimeKind::kTime: return "time without time zone";
    case TimeKind::kInterval: return "interval";
  }
  return "";
}

Unit RequireUnit(std::string_view field, std::string_view type_name) {
  std::string u = Lower(field);
  std::optional<Unit> unit = UnitFromName(u);
  if (!unit)
    throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("unit \"{}\" not recognized for type {}", u, type_name));
  return *unit;
}

[[noreturn]] void UnitNotSupported(std::string_view field, std::string_view type_name) {
  throw SqlError(sqlstate::kFeatureNotSupported,
                 fmt::format("unit \"{}\" not supported for type {}", Lower(field), type_name));
}

int DayOfYear(const Civil& c) {
  return static_cast<int>(DaysFromCivil(c.year, c.month, c.day) - DaysFromCivil(c.year, 1, 1)) + 1;
}

// Fixed-point decimal text of v / 10^scale.
std::string Scaled(__int128 v, int scale) {
  bool neg = v < 0;
  unsigned __int128 a = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  unsigned __int128 div = 1;
  for (int i = 0; i < scale; ++i) div *= 10;
  auto text = [](unsigned __int128 x) {
    std::string s;
    do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(x % 10))); while ((x /= 10) != 0);
    return s;
  };
  std::string out = (neg ? "-" : "") + text(a / div);
  if (scale > 0) {
    std::string frac = text(a % div);
    out += "." + std::string(scale - frac.size(), '0') + frac;
  }
  return out;
}

int64_t YearField(int64_t y) { return y > 0 ? y : y - 1; }
int64_t DecadeOf(int64_t y) { return y >= 0 ? y / 10 : -((8 - (y - 1)) / 10); }
int64_t CenturyOf(int64_t y) { return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100); }
int64_t MillenniumOf(int64_t y) { return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000); }

}  // namespace

int64_t TruncateTimestamp(std::string_view field, int64_t ts, std::string_view type_name) {
  Unit unit = RequireUnit(field, type_name);
  if (!IsFiniteTimestamp(ts)) return ts;
  Civil c = CivilFromTimestamp(ts);
  switch (unit) {
    case Unit::kWeek: {
      int64_t days = FloorDiv(ts, kUsPerDay);
      return (days - (DayOfWeek(days) + 6) % 7) * kUsPerDay;
    }
    case Unit::kMillennium:
      c.year = c.year > 0 ? ((c.year + 999) / 1000) * 1000 - 999 : -((999 - (c.year - 1)) / 1000) * 1000 + 1;
      [[fallthrough]];
    case Unit::kCentury:
      c.year = c.year > 0 ? ((c.year + 99) / 100) * 100 - 99 : -((99 - (c.year - 1)) / 100) * 100 + 1;
      [[fallthrough]];
    case Unit::kDecade:
      if (unit == Unit::kDecade) c.year = c.year > 0 ? (c.year / 10) * 10 : -((8 - (c.year - 1)) / 10) * 10;
      [[fallthrough]];
    case Unit::kYear: c.month = 1; [[fallthrough]];
    case Unit::kQuarter: c.month = 3 * ((c.month - 1) / 3) + 1; [[fallthrough]];
    case Unit::kMonth: c.day = 1; [[fallthrough]];
    case Unit::kDay: c.hour = 0; [[fallthrough]];
    case Unit::kHour: c.minute = 0; [[fallthrough]];
    case Unit::kMinute: c.second = 0; [[fallthrough]];
    case Unit::kSecond: c.us = 0; break;
    case Unit::kMilliseconds: c.us = c.us / 1000 * 1000; break;
    case Unit::kMicroseconds: break;
    default: UnitNotSupported(field, type_name);
  }
  return DaysFromCivil(c.year, c.month, c.day) * kUsPerDay + ((c.hour * 60 + c.minute) * 60 + c.second) * kUsPerSecond +
         c.us;
}

Interval TruncateInterval(std::string_view field, const Interval& iv) {
  Unit unit = RequireUnit(field, "interval");
  IntervalFields f = SplitInterval(iv);
  switch (unit) {
    case Unit::kMillennium: f.year = f.year / 1000 * 1000; [[fallthrough]];
    case Unit::kCentury: f.year = f.year / 100 * 100; [[fallthrough]];
    case Unit::kDecade: f.year = f.year / 10 * 10; [[fallthrough]];
    case Unit::kYear: f.month = 0; [[fallthrough]];
    case Unit::kQuarter: f.month = 3 * (f.month / 3); [[fallthrough]];
    case Unit::kMonth: f.day = 0; [[fallthrough]];
    case Unit::kDay: f.hour = 0; [[fallthrough]];
    case Unit::kHour: f.minute = 0; [[fallthrough]];
    case Unit::kMinute: f.second = 0; [[fallthrough]];
    case Unit::kSecond: f.us = 0; break;
    case Unit::kMilliseconds: f.us = f.us / 1000 * 1000; break;
    case Unit::kMicroseconds: break;
    case Unit::kWeek:
      throw SqlError(sqlstate::kFeatureNotSupported, "unit \"week\" not supported for type interval")
          .WithDetail("Months usually have fractional weeks.");
    default: UnitNotSupported(field, "interval");
  }
  return Interval{static_cast<int32_t>(f.year * 12 + f.month), static_cast<int32_t>(f.day),
                  ((f.hour * 60 + f.minute) * 60 + f.second) * kUsPerSecond + f.us};
}

std::string ExtractField(std::string_view field, TimeKind kind, int64_t value, const Interval& iv) {
  std::string_view type_name = KindName(kind);
  Unit unit = RequireUnit(field, type_name);
  if (kind == TimeKind::kInterval) {
    IntervalFields f = SplitInterval(iv);
    switch (unit) {
      case Unit::kMicroseconds: return Scaled(static_cast<__int128>(f.second) * kUsPerSecond + f.us, 0);
      case Unit::kMilliseconds: return Scaled(static_cast<__int128>(f.second) * kUsPerSecond + f.us, 3);
      case Unit::kSecond: return Scaled(static_cast<__int128>(f.second) * kUsPerSecond + f.us, 6);
      case Unit::kMinute: return Scaled(f.minute, 0);
      case Unit::kHour: return Scaled(f.hour, 0);
      case Unit::kDay: return Scaled(f.day, 0);
      case Unit::kMonth: return Scaled(f.month, 0);
      case Unit::kQuarter: return Scaled(f.month / 3 + 1, 0);
      case Unit::kYear: return Scaled(f.year, 0);
      case Unit::kDecade: return Scaled(f.year / 10, 0);
      case Unit::kCentury: return Scaled(f.year / 100, 0);
      case Unit::kMillennium: return Scaled(f.year / 1000, 0);
      case Unit::kEpoch: {
        // A year is 365.25 days and a month 30, as PostgreSQL counts them.
        __int128 secs = (static_cast<__int128>(1461) * (iv.months / 12) + static_cast<__int128>(120) * (iv.months % 12) +
                         static_cast<__int128>(4) * iv.days) *
                        (86400 / 4);
        return Scaled(secs * kUsPerSecond + iv.us, 6);
      }
      default: UnitNotSupported(field, type_name);
    }
  }
  if (kind == TimeKind::kTime) {
    int64_t sec_us = value % kUsPerMinute;
    switch (unit) {
      case Unit::kMicroseconds: return Scaled(sec_us, 0);
      case Unit::kMilliseconds: return Scaled(sec_us, 3);
      case Unit::kSecond: return Scaled(sec_us, 6);
      case Unit::kMinute: return Scaled(value / kUsPerMinute % 60, 0);
      case Unit::kHour: return Scaled(value / kUsPerHour, 0);
      case Unit::kEpoch: return Scaled(value, 6);
      default: UnitNotSupported(field, type_name);
    }
  }
  const bool is_date = kind == TimeKind::kDate;
  if (is_date ? !IsFiniteDate(value) : !IsFiniteTimestamp(value)) return "";
  int64_t ts = is_date ? value * kUsPerDay : value;
  Civil c = CivilFromTimestamp(ts);
  int64_t days = FloorDiv(ts, kUsPerDay);
  __int128 sec_us = static_cast<__int128>(c.second) * kUsPerSecond + c.us;
  if (is_date) {
    switch (unit) {
      case Unit::kMicroseconds: case Unit::kMilliseconds: case Unit::kSecond: case Unit::kMinute:
      case Unit::kHour: case Unit::kTimezone: case Unit::kTimezoneHour: case Unit::kTimezoneMinute:
        UnitNotSupported(field, type_name);
      case Unit::kEpoch: return Scaled(static_cast<__int128>(days + kDaysFrom1970To2000) * 86400, 0);
      case Unit::kJulian: return Scaled(days + 2451545, 0);
      default: break;
    }
  }
  switch (unit) {
    case Unit::kMicroseconds: return Scaled(sec_us, 0);
    case Unit::kMilliseconds: return Scaled(sec_us, 3);
    case Unit::kSecond: return Scaled(sec_us, 6);
    case Unit::kMinute: return Scaled(c.minute, 0);
    case Unit::kHour: return Scaled(c.hour, 0);
    case Unit::kDay: return Scaled(c.day, 0);
    case Unit::kMonth: return Scaled(c.month, 0);
    case Unit::kQuarter: return Scaled((c.month - 1) / 3 + 1, 0);
    case Unit::kWeek: return Scaled(IsoWeek(days).second, 0);
    case Unit::kYear: return Scaled(YearField(c.year), 0);
    case Unit::kDecade: return Scaled(DecadeOf(c.year), 0);
    case Unit::kCentury: return Scaled(CenturyOf(c.year), 0);
    case Unit::kMillennium: return Scaled(MillenniumOf(c.year), 0);
    case Unit::kDow: return Scaled(DayOfWeek(days), 0);
    case Unit::kIsoDow: return Scaled(DayOfWeek(days) == 0 ? 7 : DayOfWeek(days), 0);
    case Unit::kDoy: return Scaled(DayOfYear(c), 0);
    case Unit::kIsoYear: {
      int64_t y = IsoWeek(days).first;
      return Scaled(y > 0 ? y : y - 1, 0);
    }
    case Unit::kEpoch: return Scaled(static_cast<__int128>(ts) + static_cast<__int128>(kDaysFrom1970To2000) * kUsPerDay, 6);
    case Unit::kTimezone:
    case Unit::kTimezoneHour:
    case Unit::kTimezoneMinute:
      if (kind == TimeKind::kTimestampTz) return "0";
      UnitNotSupported(field, type_name);
    default: UnitNotSupported(field, type_name);
  }
}

Interval Age(int64_t a, int64_t b) {
  if (!IsFiniteTimestamp(a) || !IsFiniteTimestamp(b))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  Civil x = CivilFromTimestamp(a), y = CivilFromTimestamp(b);
  int64_t us = x.us - y.us, sec = x.second - y.second, min = x.minute - y.minute, hour = x.hour - y.hour;
  int64_t day = x.day - y.day, mon = x.month - y.month, year = x.year - y.year;
  const bool flip = a < b;
  if (flip) us = -us, sec = -sec, min = -min, hour = -hour, day = -day, mon = -mon, year = -year;
  while (us < 0) us += kUsPerSecond, --sec;
  while (sec < 0) sec += 60, --min;
  while (min < 0) min += 60, --hour;
  while (hour < 0) hour += 24, --day;
  while (day < 0) {
    const Civil& from = flip ? x : y;
    day += DaysInMonth(from.year, from.month);
    --mon;
  }
  while (mon < 0) mon += 12, --year;
  if (flip) us = -us, sec = -sec, min = -min, hour = -hour, day = -day, mon = -mon, year = -year;
  return Interval{static_cast<int32_t>(year * 12 + mon), static_cast<int32_t>(day),
                  ((hour * 60 + min) * 60 + sec) * kUsPerSecond + us};
}

}  // namespace caracal::planner::datetime
