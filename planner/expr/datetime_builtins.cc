#include "planner/expr/datetime_builtins.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

using datetime::TimeKind;

bool IsUtc(std::string_view zone) {
  std::string z(zone);
  for (char& c : z) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return z == "utc" || z == "gmt" || z == "z" || z == "zulu" || z == "etc/utc" || z == "etc/gmt" || z == "uct" ||
         z == "universal" || z == "+00" || z == "-00" || z == "0" || z == "+0" || z == "00:00" || z == "+00:00";
}

}  // namespace

namespace {

int64_t ReadClock() {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch());
  return us.count() - datetime::kDaysFrom1970To2000 * datetime::kUsPerDay;
}

// The innermost StatementClock's time on this thread.
thread_local std::optional<int64_t> statement_time;

}  // namespace

int64_t WallClockTimestamp() { return statement_time ? *statement_time : ReadClock(); }

StatementClock::StatementClock(std::optional<int64_t> fixed) : outer_(statement_time) {
  if (fixed)
    statement_time = fixed;
  else if (!statement_time)
    statement_time = ReadClock();
}
StatementClock::~StatementClock() { statement_time = outer_; }

Datum EvalDateTimeFunction(Func func, const SqlType& result, std::span<const Datum> a) {
  if (func == Func::kNow) return Datum::Timestamp(WallClockTimestamp());
  for (const Datum& d : a)
    if (d.is_null()) return Datum::Null();
  switch (func) {
    case Func::kDateTrunc:
      if (result.id == TypeId::kInterval) return Datum::Interval(datetime::TruncateInterval(a[0].s, a[1].as_interval()));
      return Datum::Timestamp(datetime::TruncateTimestamp(a[0].s, a[1].i, SqlType::Of(result.id).BaseName()));
    case Func::kDatePart:
    case Func::kExtract: {
      auto kind = static_cast<TimeKind>(a[2].i);
      std::string text = datetime::ExtractField(a[0].s, kind, a[1].i, a[1].as_interval());
      if (text.empty()) return Datum::Null();
      if (func == Func::kDatePart) return Datum::Float(std::strtod(text.c_str(), nullptr));
      return Datum::Num(*Numeric::Parse(text));
    }
    case Func::kAge: return Datum::Interval(datetime::Age(a[0].i, a[1].i));
    case Func::kJustifyDays: return Datum::Interval(datetime::JustifyDays(a[0].as_interval()));
    case Func::kJustifyHours: return Datum::Interval(datetime::JustifyHours(a[0].as_interval()));
    case Func::kJustifyInterval: return Datum::Interval(datetime::JustifyInterval(a[0].as_interval()));
    case Func::kMakeDate: return Datum::Timestamp(datetime::MakeDate(a[0].i, a[1].i, a[2].i));
    case Func::kMakeTime: return Datum::Timestamp(datetime::MakeTime(a[0].i, a[1].i, a[2].f));
    case Func::kMakeTimestamp: {
      int64_t date = datetime::MakeDate(a[0].i, a[1].i, a[2].i);
      return Datum::Timestamp(date * datetime::kUsPerDay + datetime::MakeTime(a[3].i, a[4].i, a[5].f));
    }
    case Func::kToChar: {
      auto kind = static_cast<TimeKind>(a[2].i);
      std::string s = datetime::ToChar(kind, a[0].i, a[0].as_interval(), a[1].s);
      if (s.empty() && kind != TimeKind::kInterval && !datetime::IsFiniteTimestamp(a[0].i)) return Datum::Null();
      return Datum::String(std::move(s));
    }
    case Func::kToTimestamp:
      if (a.size() == 1) return Datum::Timestamp(datetime::TimestampFromUnixSeconds(a[0].f));
      return Datum::Timestamp(datetime::ParseWithFormat(a[0].s, a[1].s, false));
    case Func::kToDate:
      return Datum::Timestamp(datetime::TimestampToDate(datetime::ParseWithFormat(a[0].s, a[1].s, true)));
    case Func::kIsFinite:
      if (a[0].kind == Datum::Kind::kInterval) return Datum::Bool(true);
      return Datum::Bool(datetime::IsFiniteTimestamp(a[0].i) && datetime::IsFiniteDate(a[0].i));
    case Func::kTimezone:
      if (!IsUtc(a[0].s))
        throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("time zone \"{}\" is not supported", a[0].s))
            .WithHint("The session time zone is UTC; only UTC (or +00) is supported.");
      return Datum::Timestamp(a[1].i);
    default: break;
  }
  throw SqlError(sqlstate::kInternalError, "not a date/time function");
}

}  // namespace caracal::planner
