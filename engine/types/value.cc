#include "engine/types/value.h"

#include <fmt/format.h>

#include <cassert>
#include <cmath>
#include <cstdlib>

namespace caracal::engine {

int64_t PowerOfTen(int n) {
  static constexpr int64_t kPowers[] = {1LL,
                                        10LL,
                                        100LL,
                                        1000LL,
                                        10000LL,
                                        100000LL,
                                        1000000LL,
                                        10000000LL,
                                        100000000LL,
                                        1000000000LL,
                                        10000000000LL,
                                        100000000000LL,
                                        1000000000000LL,
                                        10000000000000LL,
                                        100000000000000LL,
                                        1000000000000000LL,
                                        10000000000000000LL,
                                        100000000000000000LL,
                                        1000000000000000000LL};
  assert(n >= 0 && n <= 18);
  return kPowers[n];
}

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.i_ = b ? 1 : 0;
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.kind_ = Kind::kInt;
  v.i_ = i;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.kind_ = Kind::kDouble;
  v.d_ = d;
  return v;
}

Value Value::Numeric(int64_t mantissa, int scale) {
  Value v;
  v.kind_ = Kind::kNumeric;
  v.i_ = mantissa;
  v.scale_ = static_cast<int8_t>(scale);
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.s_ = std::move(s);
  return v;
}

Value Value::Timestamp(int64_t micros) {
  Value v;
  v.kind_ = Kind::kTimestamp;
  v.i_ = micros;
  return v;
}

Value Value::Array(std::vector<Value> elements) {
  Value v;
  v.kind_ = Kind::kArray;
  v.array_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

int64_t Value::NumericAtScale(int scale) const {
  int64_t m = kind_ == Kind::kInt ? i_ : i_;
  int from = kind_ == Kind::kNumeric ? scale_ : 0;
  if (kind_ == Kind::kDouble) {
    return static_cast<int64_t>(std::llround(d_ * static_cast<double>(PowerOfTen(scale))));
  }
  if (scale >= from) return m * PowerOfTen(scale - from);
  int64_t div = PowerOfTen(from - scale);
  int64_t q = m / div, r = m % div;
  if (std::llabs(r) * 2 >= div) q += (m < 0 ? -1 : 1);
  return q;
}

double Value::ToDouble() const {
  switch (kind_) {
    case Kind::kDouble: return d_;
    case Kind::kNumeric: return static_cast<double>(i_) / static_cast<double>(PowerOfTen(scale_));
    default: return static_cast<double>(i_);
  }
}

static std::string NumericText(int64_t m, int scale) {
  if (scale == 0) return std::to_string(m);
  bool negative = m < 0;
  uint64_t abs = negative ? static_cast<uint64_t>(-(m + 1)) + 1 : static_cast<uint64_t>(m);
  uint64_t div = static_cast<uint64_t>(PowerOfTen(scale));
  return fmt::format("{}{}.{:0{}}", negative ? "-" : "", abs / div, abs % div, scale);
}

static std::string TimestampText(int64_t micros) {
  // Days since 2000-01-01 -> civil date (Howard Hinnant's algorithm).
  int64_t days = micros >= 0 ? micros / 86400000000LL : -((-micros + 86400000000LL - 1) / 86400000000LL);
  int64_t rem = micros - days * 86400000000LL;
  int64_t z = days + 10957 + 719468;  // 1970-01-01 is day 0 of the algorithm's shifted era
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t d = doy - (153 * mp + 2) / 5 + 1;
  int64_t mo = mp < 10 ? mp + 3 : mp - 9;
  if (mo <= 2) ++y;
  int64_t secs = rem / 1000000, us = rem % 1000000;
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", y, mo, d, secs / 3600,
                                (secs / 60) % 60, secs % 60);
  if (us != 0) {
    std::string frac = fmt::format("{:06}", us);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out;
}

static std::string DoubleText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  // PostgreSQL 12+ prints the shortest representation that round-trips.
  std::string s = fmt::format("{}", d);
  return s;
}

std::string Value::ToText() const {
  switch (kind_) {
    case Kind::kNull: return "";
    case Kind::kBool: return i_ ? "t" : "f";
    case Kind::kInt: return std::to_string(i_);
    case Kind::kDouble: return DoubleText(d_);
    case Kind::kNumeric: return NumericText(i_, scale_);
    case Kind::kString: return s_;
    case Kind::kTimestamp: return TimestampText(i_);
    case Kind::kArray: {
      std::string out = "{";
      for (size_t i = 0; i < array_->size(); ++i) {
        if (i) out += ",";
        const Value& e = (*array_)[i];
        out += e.is_null() ? "NULL" : e.ToText();
      }
      return out + "}";
    }
  }
  return "";
}

bool Value::operator==(const Value& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kNull: return true;
    case Kind::kDouble: return d_ == other.d_;
    case Kind::kNumeric: return scale_ == other.scale_ && i_ == other.i_;
    case Kind::kString: return s_ == other.s_;
    case Kind::kArray: return *array_ == *other.array_;
    default: return i_ == other.i_;
  }
}

}  // namespace caracal::engine
