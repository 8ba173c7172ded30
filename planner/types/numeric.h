// Numeric: PostgreSQL's exact decimal type as the expression evaluator computes it: a
// 128-bit mantissa and a display scale. Columns store numeric(p <= 18) in an int64; the
// wider intermediate is what lets avg(), division and multiplication carry PostgreSQL's
// result scales (1/3 -> 0.33333333333333333333, scale 20) without overflowing. Results
// beyond 38 digits raise "value overflows numeric format" instead of going wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace caracal::planner {

using int128 = __int128;

class Numeric {
 public:
  static constexpr int kMaxScale = 38;

  Numeric() = default;
  Numeric(int128 mantissa, int scale) : mantissa_(mantissa), scale_(scale) {}
  static Numeric FromInt(int64_t v) { return Numeric(v, 0); }
  // From a double, with up to 15 significant digits as PostgreSQL's float8 -> numeric.
  static Numeric FromDouble(double d);
  // Parses "12.50", "-3", "1e3", " 4 " (scale as written); nullopt if malformed.
  static std::optional<Numeric> Parse(std::string_view text);

  int128 mantissa() const { return mantissa_; }
  int scale() const { return scale_; }
  bool is_zero() const { return mantissa_ == 0; }
  int sign() const { return mantissa_ < 0 ? -1 : (mantissa_ > 0 ? 1 : 0); }

  // Rounded half away from zero (or extended) to `scale`. Throws SqlError on overflow.
  Numeric Rescale(int scale) const;
  // Truncated towards zero to `scale`.
  Numeric Truncate(int scale) const;
  Numeric Floor() const;
  Numeric Ceil() const;
  // The integral value, rounded half away from zero; nullopt if it does not fit int64.
  std::optional<int64_t> ToInt64() const;
  double ToDouble() const;
  // Number of digits before the decimal point (0 for |x| < 1).
  int IntegerDigits() const;

  std::string ToString() const;

  friend Numeric operator+(const Numeric& a, const Numeric& b);
  friend Numeric operator-(const Numeric& a, const Numeric& b);
  friend Numeric operator*(const Numeric& a, const Numeric& b);
  // PostgreSQL's division: result scale from select_div_scale (at least 16 significant
  // digits, at least either input's scale). Throws SqlError on division by zero.
  friend Numeric operator/(const Numeric& a, const Numeric& b);
  friend Numeric operator%(const Numeric& a, const Numeric& b);
  Numeric operator-() const { return Numeric(-mantissa_, scale_); }
  // Division with an explicitly chosen result scale (avg uses PostgreSQL's rule too).
  static Numeric Divide(const Numeric& a, const Numeric& b, int result_scale);
  static int DivisionScale(const Numeric& a, const Numeric& b);

  friend int Compare(const Numeric& a, const Numeric& b);

 private:
  int128 mantissa_ = 0;
  int scale_ = 0;
};

int128 Pow10(int n);  // n in [0, 38]
std::string Int128ToString(int128 v);

}  // namespace caracal::planner
