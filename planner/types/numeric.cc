#include "planner/types/numeric.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

[[noreturn]] void Overflow() { throw SqlError(sqlstate::kNumericOutOfRange, "value overflows numeric format"); }

int128 Abs(int128 v) { return v < 0 ? -v : v; }

int128 MulChecked(int128 a, int128 b) {
  int128 r;
  if (__builtin_mul_overflow(a, b, &r)) Overflow();
  return r;
}

int128 AddChecked(int128 a, int128 b) {
  int128 r;
  if (__builtin_add_overflow(a, b, &r)) Overflow();
  return r;
}

// Division rounding half away from zero.
int128 DivRound(int128 a, int128 b) {
  int128 q = a / b, r = a % b;
  if (Abs(r) * 2 >= Abs(b)) q += ((a < 0) != (b < 0)) ? -1 : 1;
  return q;
}

// Aligns both operands to the larger scale.
void Align(const Numeric& a, const Numeric& b, int128& ma, int128& mb, int& scale) {
  scale = std::max(a.scale(), b.scale());
  ma = MulChecked(a.mantissa(), Pow10(scale - a.scale()));
  mb = MulChecked(b.mantissa(), Pow10(scale - b.scale()));
}

// PostgreSQL stores numerics in base-10000 digits; select_div_scale looks at the weight
// (position of the first non-zero base-10000 digit) and that digit's value.
void WeightAndFirstDigit(const Numeric& n, int& weight, int& first) {
  weight = 0;
  first = 0;
  if (n.is_zero()) return;
  int128 m = Abs(n.mantissa());
  int s = n.scale();
  // Pad the fraction to a multiple of 4 digits so groups align at the decimal point.
  int pad = (4 - s % 4) % 4;
  m = MulChecked(m, Pow10(pad));
  int frac_groups = (s + pad) / 4;
  int groups = 0;
  int128 top = m;
  while (top >= 10000) {
    top /= 10000;
    ++groups;
  }
  // `top` is the most significant base-10000 digit, at group index `groups` from the right.
  weight = groups - frac_groups;
  first = static_cast<int>(top);
}

}  // namespace

namespace {

constexpr std::array<int128, 39> kPowersOf10 = [] {
  std::array<int128, 39> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// Decimal digits of |v| (0 for 0).
int DigitCount(int128 v) {
  int128 a = Abs(v);
  int d = 0;
  while (d < 39 && a >= kPowersOf10[static_cast<size_t>(d)]) ++d;
  return d;
}

}  // namespace

int128 Pow10(int n) {
  if (n < 0 || n > 38) Overflow();
  return kPowersOf10[static_cast<size_t>(n)];
}

std::string Int128ToString(int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string s;
  while (u > 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

Numeric Numeric::FromDouble(double d) {
  if (std::isnan(d) || std::isinf(d))
    throw SqlError(sqlstate::kFeatureNotSupported, "cannot convert infinity or NaN to numeric");
  // float8 -> numeric keeps DBL_DIG (15) significant digits, as PostgreSQL's float8_numeric.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  auto n = Parse(buf);
  if (!n) Overflow();
  // %g may print an exponent: Parse folded it into the scale; drop negative scales.
  return n->scale() < 0 ? n->Rescale(0) : *n;
}

std::optional<Numeric> Numeric::Parse(std::string_view text) {
  size_t i = 0, n = text.size();
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  while (n > i && std::isspace(static_cast<unsigned char>(text[n - 1]))) --n;
  bool neg = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
  int128 m = 0;
  int scale = 0, digits = 0;
  bool seen_point = false;
  for (; i < n; ++i) {
    char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (c >= '0' && c <= '9') {
      if (m > Pow10(37)) return std::nullopt;  // beyond what we can hold: treat as malformed range
      m = m * 10 + (c - '0');
      ++digits;
      if (seen_point) ++scale;
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) eneg = text[i++] == '-';
    int e = 0, edigits = 0;
    for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i, ++edigits) {
      e = e * 10 + (text[i] - '0');
      if (e > 1000) return std::nullopt;
    }
    if (edigits == 0) return std::nullopt;
    scale += eneg ? e : -e;
  }
  if (i != n) return std::nullopt;
  if (scale < 0) {
    if (-scale > 38 || __builtin_mul_overflow(m, Pow10(-scale), &m)) return std::nullopt;
    scale = 0;
  }
  if (scale > kMaxScale) return std::nullopt;
  return Numeric(neg ? -m : m, scale);
}

Numeric Numeric::Rescale(int scale) const {
  if (scale == scale_) return *this;  // the common case: a value already at its column's scale
  if (scale >= scale_) return Numeric(MulChecked(mantissa_, Pow10(scale - scale_)), scale);
  return Numeric(DivRound(mantissa_, Pow10(scale_ - scale)), scale);
}

Numeric Numeric::Truncate(int scale) const {
  if (scale >= scale_) return Rescale(scale);
  return Numeric(mantissa_ / Pow10(scale_ - scale), scale);
}

Numeric Numeric::Floor() const {
  int128 p = Pow10(scale_);
  int128 q = mantissa_ / p;
  if (mantissa_ % p != 0 && mantissa_ < 0) --q;
  return Numeric(q, 0);
}

Numeric Numeric::Ceil() const {
  int128 p = Pow10(scale_);
  int128 q = mantissa_ / p;
  if (mantissa_ % p != 0 && mantissa_ > 0) ++q;
  return Numeric(q, 0);
}

std::optional<int64_t> Numeric::ToInt64() const {
  int128 v = DivRound(mantissa_, Pow10(scale_));
  if (v > INT64_MAX || v < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(v);
}

double Numeric::ToDouble() const { return std::strtod(ToString().c_str(), nullptr); }

int Numeric::IntegerDigits() const {
  if (scale_ < 0 || scale_ > kMaxScale) Overflow();  // as Pow10(scale_) would
  // floor(|m| / 10^scale) has digits(|m|) - scale digits, or none.
  return std::max(0, DigitCount(mantissa_) - scale_);
}

std::string Numeric::ToString() const {
  std::string digits = Int128ToString(Abs(mantissa_));
  std::string out = mantissa_ < 0 ? "-" : "";
  if (scale_ == 0) return out + digits;
  if (static_cast<int>(digits.size()) <= scale_) digits.insert(0, scale_ - digits.size() + 1, '0');
  out += digits.substr(0, digits.size() - scale_);
  out += '.';
  out += digits.substr(digits.size() - scale_);
  return out;
}

Numeric operator+(const Numeric& a, const Numeric& b) {
  int128 ma, mb;
  int s;
  Align(a, b, ma, mb, s);
  return Numeric(AddChecked(ma, mb), s);
}

Numeric operator-(const Numeric& a, const Numeric& b) { return a + (-b); }

Numeric operator*(const Numeric& a, const Numeric& b) {
  int s = a.scale() + b.scale();
  int128 m = MulChecked(a.mantissa(), b.mantissa());
  if (s > Numeric::kMaxScale) return Numeric(m, s).Rescale(Numeric::kMaxScale);
  return Numeric(m, s);
}

int Numeric::DivisionScale(const Numeric& a, const Numeric& b) {
  int w1, f1, w2, f2;
  WeightAndFirstDigit(a, w1, f1);
  WeightAndFirstDigit(b, w2, f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  int rscale = 16 - qweight * 4;  // NUMERIC_MIN_SIG_DIGITS - qweight * DEC_DIGITS
  rscale = std::max({rscale, a.scale(), b.scale(), 0});
  return std::min(rscale, 1000);
}

Numeric Numeric::Divide(const Numeric& a, const Numeric& b, int rscale) {
  if (b.is_zero()) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
  if (rscale > kMaxScale) Overflow();
  // a/b at rscale = round(a.m * 10^(rscale + b.s - a.s) / b.m)
  int shift = rscale + b.scale() - a.scale();
  if (shift >= 0) return Numeric(DivRound(MulChecked(a.mantissa(), Pow10(shift)), b.mantissa()), rscale);
  return Numeric(DivRound(a.mantissa(), MulChecked(b.mantissa(), Pow10(-shift))), rscale);
}

Numeric operator/(const Numeric& a, const Numeric& b) {
  if (b.is_zero()) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
  return Numeric::Divide(a, b, Numeric::DivisionScale(a, b));
}

Numeric operator%(const Numeric& a, const Numeric& b) {
  if (b.is_zero()) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
  int128 ma, mb;
  int s;
  Align(a, b, ma, mb, s);
  return Numeric(ma % mb, s);
}

int Compare(const Numeric& a, const Numeric& b) {
  int128 ma, mb;
  int s;
  Align(a, b, ma, mb, s);
  return ma < mb ? -1 : (ma > mb ? 1 : 0);
}

}  // namespace caracal::planner
