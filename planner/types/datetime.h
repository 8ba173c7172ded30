// Date and time values as PostgreSQL keeps them: timestamp and timestamptz are
// microseconds since 2000-01-01 00:00:00 (timestamptz in UTC), date is days since
// 2000-01-01, time is microseconds since midnight, and an interval is three separate
// fields (months, days, microseconds) because a month and a day have no fixed length.
// ±infinity are the extreme int64 (int32 for dates) values, as PostgreSQL's.
//
// The session time zone is UTC and only UTC: timestamptz input honours any numeric
// offset it carries, output always prints "+00" (server/connection_settings refuses
// other zones), so every answer equals PostgreSQL's with TimeZone = 'UTC'.
//
// Text formats are PostgreSQL's defaults: DateStyle ISO, MDY and IntervalStyle postgres.
// Errors are SqlErrors with PostgreSQL's SQLSTATE and message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace caracal::planner::datetime {

constexpr int64_t kUsPerSecond = 1'000'000;
constexpr int64_t kUsPerMinute = 60 * kUsPerSecond;
constexpr int64_t kUsPerHour = 60 * kUsPerMinute;
constexpr int64_t kUsPerDay = 24 * kUsPerHour;
constexpr int64_t kTimestampNegInfinity = INT64_MIN;
constexpr int64_t kTimestampInfinity = INT64_MAX;
constexpr int64_t kDateNegInfinity = INT32_MIN;
constexpr int64_t kDateInfinity = INT32_MAX;
constexpr int64_t kDaysFrom1970To2000 = 10957;  // 1970-01-01 is day -10957

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t us = 0;
  bool operator==(const Interval&) const = default;
};

struct Civil {
  int64_t year = 2000;  // astronomical: 0 is 1 BC
  int month = 1, day = 1;
  int64_t hour = 0, minute = 0, second = 0, us = 0;
};

int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day);
Civil CivilFromDays(int64_t days);
// A finite timestamp's fields.
Civil CivilFromTimestamp(int64_t ts);
int DaysInMonth(int64_t year, int month);
int64_t FloorDiv(int64_t a, int64_t b);  // rounding toward -infinity
int DayOfWeek(int64_t days);              // 0 = Sunday
int64_t IsoYearStart(int64_t year);       // the Monday of ISO week 1
std::pair<int64_t, int> IsoWeek(int64_t days);  // ISO year and week (1-53) of a day

// An interval's fields as PostgreSQL's interval2itm splits it: years and months from the
// months, the days, and the time into hours (unbounded), minutes, seconds and
// microseconds, each with the sign of its part.
struct IntervalFields {
  int64_t year, month, day, hour, minute, second, us;
};
IntervalFields SplitInterval(const Interval& iv);
bool IsFiniteTimestamp(int64_t ts);
bool IsFiniteDate(int64_t days);

// Text input. `type_name` is what errors call the type ("timestamp with time zone").
int64_t ParseTimestamp(std::string_view text, bool with_time_zone);
int64_t ParseDate(std::string_view text);
int64_t ParseTime(std::string_view text);
Interval ParseInterval(std::string_view text);

// Text output.
std::string FormatTimestamp(int64_t ts, bool with_time_zone);
std::string FormatDate(int64_t days);
std::string FormatTime(int64_t us);
std::string FormatInterval(const Interval& iv);

// Arithmetic ("timestamp out of range", "interval out of range" when it leaves the range).
int64_t AddInterval(int64_t ts, const Interval& iv);
Interval NegateInterval(const Interval& iv);
Interval AddIntervals(const Interval& a, const Interval& b);
Interval SubtractTimestamps(int64_t a, int64_t b);
Interval MultiplyInterval(const Interval& iv, double factor);
Interval DivideInterval(const Interval& iv, double divisor);
int64_t AddDays(int64_t date, int64_t days);
int64_t DateToTimestamp(int64_t date);
int64_t TimestampToDate(int64_t ts);
int64_t TimeFromTimestamp(int64_t ts);
// Time of day plus an interval's time part, wrapped into a day (time_pl_interval).
int64_t AddIntervalToTime(int64_t time, const Interval& iv);
// Interval -> time: the time part modulo a day; time -> interval.
int64_t IntervalToTime(const Interval& iv);
// Three-way comparison: intervals compare by their length with 30-day months.
int CompareIntervals(const Interval& a, const Interval& b);

// Functions. `field` is as the user wrote it (any case); unknown or unsupported fields
// raise PostgreSQL's errors for `type_name` ("timestamp", "interval", ...).
int64_t TruncateTimestamp(std::string_view field, int64_t ts, std::string_view type_name);
Interval TruncateInterval(std::string_view field, const Interval& iv);
// extract(): the value as decimal text of the numeric PostgreSQL 14+ returns (the
// caller parses it), and date_part()'s double.
enum class TimeKind : uint8_t { kTimestamp, kTimestampTz, kDate, kTime, kInterval };
std::string ExtractField(std::string_view field, TimeKind kind, int64_t value, const Interval& iv);
Interval Age(int64_t a, int64_t b);
Interval JustifyDays(const Interval& iv);
Interval JustifyHours(const Interval& iv);
Interval JustifyInterval(const Interval& iv);
// to_char(timestamp / timestamptz / interval, format).
std::string ToChar(TimeKind kind, int64_t value, const Interval& iv, std::string_view format);
// to_timestamp(text, format) / to_date(text, format): the timestamp (UTC) it reads.
int64_t ParseWithFormat(std::string_view text, std::string_view format, bool date_only);
// to_timestamp(double): seconds since 1970-01-01 UTC.
int64_t TimestampFromUnixSeconds(double seconds);
int64_t MakeDate(int64_t year, int64_t month, int64_t day);
int64_t MakeTime(int64_t hour, int64_t minute, double second);

}  // namespace caracal::planner::datetime
