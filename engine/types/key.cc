#include "engine/types/key.h"

#include <fmt/format.h>
// Inlined: keys are short, and a call through the shared library costs more than
// hashing them.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <bit>
#include <cassert>
#include <stdexcept>

#include "engine/types/errors.h"

namespace caracal::engine {

Key& Key::operator=(Key&& other) noexcept {
  if (this == &other) return *this;
  if (other.heap_) {
    heap_ = std::move(other.heap_);
    capacity_ = other.capacity_;
  } else {
    heap_.reset();
    capacity_ = kInlineCapacity;
    std::memcpy(inline_, other.inline_, other.size_);
  }
  size_ = other.size_;
  other.size_ = 0;
  other.capacity_ = kInlineCapacity;
  return *this;
}

void Key::Assign(const uint8_t* p, size_t n) {
  size_ = 0;
  std::memcpy(Grow(n), p, n);
}

uint8_t* Key::GrowHeap(size_t extra) {
  const size_t need = size_ + extra;
  size_t cap = std::max<size_t>(need, capacity_ * 2);
  auto bigger = std::make_unique<uint8_t[]>(cap);
  std::memcpy(bigger.get(), data(), size_);
  heap_ = std::move(bigger);
  capacity_ = static_cast<uint32_t>(cap);
  uint8_t* out = heap_.get() + size_;
  size_ = static_cast<uint32_t>(need);
  return out;
}

Key::InlineLayout Key::Layout() {
  static_assert(sizeof(std::unique_ptr<uint8_t[]>) == sizeof(void*), "a unique_ptr is one pointer");
  const Key k{};
  const auto at = [&](const void* member) {
    return static_cast<size_t>(static_cast<const char*>(member) - reinterpret_cast<const char*>(&k));
  };
  return {at(&k.size_), at(&k.capacity_), at(&k.inline_[0]), at(&k.heap_), sizeof(Key), alignof(Key)};
}

void Key::AppendBytes(const void* p, size_t n) { std::memcpy(Grow(n), p, n); }

void Key::AppendInt(int64_t v, ColumnType width) {
  // One case per width, so that EncodeInt's switch folds away in each.
  switch (width) {
    case ColumnType::kSmallInt: EncodeInt(v, ColumnType::kSmallInt, Grow(2)); return;
    case ColumnType::kInteger: EncodeInt(v, ColumnType::kInteger, Grow(4)); return;
    default: EncodeInt(v, ColumnType::kBigInt, Grow(8)); return;
  }
}

void Key::AppendDouble(double v) {
  if (v == 0) v = 0;  // -0.0 and 0.0 are equal in SQL
  uint64_t u = std::bit_cast<uint64_t>(v);
  u = (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
  u = __builtin_bswap64(u);
  std::memcpy(Grow(8), &u, 8);
}

void Key::AppendBool(bool v) { *Grow(1) = v ? 1 : 0; }

void Key::AppendString(std::string_view s) {
  // 0x00 is escaped as 0x00 0xff and the string ends with 0x00 0x00, so a string
  // sorts before all its extensions and embedded zero bytes keep their order.
  for (char c : s) {
    if (c == '\0') {
      uint8_t* out = Grow(2);
      out[0] = 0;
      out[1] = 0xff;
    } else {
      *Grow(1) = static_cast<uint8_t>(c);
    }
  }
  uint8_t* out = Grow(2);
  out[0] = 0;
  out[1] = 0;
}

namespace {

// AppendDecimal's encoding: a sign tag; for non-zero values the decimal exponent (digits before the point of the
// significand, 16 bits biased) and the significant digits without trailing zeros, one
// byte each, ended by a terminator. A negative value's exponent and digits are
// complemented and its terminator is 0xff, so that a larger magnitude sorts first.
constexpr uint8_t kDecimalNegative = 1, kDecimalZero = 2, kDecimalPositive = 3;

}  // namespace

void Key::AppendDecimal(std::string_view text) {
  auto bad = [&] { return KeyError(fmt::format("\"{}\" is not a decimal number", text)); };
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const size_t point = text.find('.');
  std::string_view int_part = text.substr(0, point);
  std::string_view frac_part = point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  if (int_part.empty() && frac_part.empty()) throw bad();
  std::string digits;
  digits.reserve(int_part.size() + frac_part.size());
  for (std::string_view part : {int_part, frac_part})
    for (char c : part) {
      if (c < '0' || c > '9') throw bad();
      digits.push_back(c);
    }
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    AppendBytes(&kDecimalZero, 1);
    return;
  }
  const size_t last = digits.find_last_not_of('0');
  const int exponent = static_cast<int>(int_part.size()) - static_cast<int>(first);
  if (exponent < -30000 || exponent > 30000) throw bad();
  const uint8_t tag = negative ? kDecimalNegative : kDecimalPositive;
  auto biased = static_cast<uint16_t>(exponent + 0x8000);
  if (negative) biased = static_cast<uint16_t>(~biased);
  const uint8_t header[3] = {tag, static_cast<uint8_t>(biased >> 8), static_cast<uint8_t>(biased & 0xff)};
  AppendBytes(header, 3);
  for (size_t i = first; i <= last; ++i) {
    const int d = digits[i] - '0';
    const auto byte = static_cast<uint8_t>(negative ? 10 - d : d + 1);
    AppendBytes(&byte, 1);
  }
  const uint8_t end = negative ? 0xff : 0;
  AppendBytes(&end, 1);
}

void Key::AppendValue(const Value& v, const Column& column) {
  if (v.is_null()) throw KeyError("NULL value in key column \"" + column.name + "\"");
  switch (column.type) {
    case ColumnType::kSmallInt:
    case ColumnType::kInteger:
    case ColumnType::kBigInt:
      if (v.kind() != Value::Kind::kInt)
        throw KeyError("key column \"" + column.name + "\" expects an integer");
      AppendInt(v.as_int(), column.type);
      return;
    case ColumnType::kReal:
    case ColumnType::kDouble:
      if (v.kind() != Value::Kind::kDouble && v.kind() != Value::Kind::kInt &&
          v.kind() != Value::Kind::kNumeric)
        throw KeyError("key column \"" + column.name + "\" expects a number");
      AppendDouble(v.ToDouble());
      return;
    case ColumnType::kNumeric:
      if (v.kind() != Value::Kind::kNumeric && v.kind() != Value::Kind::kInt)
        throw KeyError("key column \"" + column.name + "\" expects a numeric");
      AppendInt(v.NumericAtScale(column.scale), ColumnType::kBigInt);
      return;
    case ColumnType::kBoolean:
      if (v.kind() != Value::Kind::kBool)
        throw KeyError("key column \"" + column.name + "\" expects a boolean");
      AppendBool(v.as_bool());
      return;
    case ColumnType::kChar:
    case ColumnType::kVarchar:
    case ColumnType::kText:
      if (v.kind() != Value::Kind::kString)
        throw KeyError("key column \"" + column.name + "\" expects a string");
      AppendString(v.as_string());
      return;
    case ColumnType::kUuid:
    case ColumnType::kBytea:
    case ColumnType::kJson:
    case ColumnType::kJsonb:
      // Raw bytes (json: its text; jsonb: its canonical text, so equal values are one
      // key): AppendString keeps their order (memcmp, as PostgreSQL's) and escapes zero
      // bytes.
      if (v.kind() != Value::Kind::kString)
        throw KeyError("key column \"" + column.name + "\" expects bytes");
      AppendString(v.as_string());
      return;
    case ColumnType::kDecimal:
      if (v.kind() == Value::Kind::kString) AppendDecimal(v.as_string());
      else if (v.kind() == Value::Kind::kNumeric || v.kind() == Value::Kind::kInt) AppendDecimal(v.ToText());
      else throw KeyError("key column \"" + column.name + "\" expects a numeric");
      return;
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampTz:
    case ColumnType::kDate:
    case ColumnType::kTime:
      if (v.kind() != Value::Kind::kTimestamp)
        throw KeyError("key column \"" + column.name + "\" expects a timestamp");
      AppendInt(v.as_timestamp(), ColumnType::kBigInt);
      return;
    case ColumnType::kArray:
      // Text order is not PostgreSQL's element-wise array order; the SQL layer refuses
      // array key columns.
      throw KeyError("key column \"" + column.name + "\" is an array, which cannot be a key");
  }
}

Key Key::PrefixSuccessor() const {
  Key k(*this);
  // Strip trailing 0xff bytes, then increment the last byte; all-0xff has no successor
  // within the same length, so an empty key is returned to mean "unbounded".
  while (k.size_ > 0 && k.data()[k.size_ - 1] == 0xff) --k.size_;
  if (k.size_ == 0) return Key();
  (k.heap_ ? k.heap_.get() : k.inline_)[k.size_ - 1]++;
  return k;
}

Key PointSpanEnd(const Key& key) {
  Key end(key);
  const uint8_t zero = 0;
  end.AppendBytes(&zero, 1);
  return end;
}

bool IsPointSpan(const Key& lo, const Key& hi) {
  return hi.size() == lo.size() + 1 && hi.data()[lo.size()] == 0 && hi.view().substr(0, lo.size()) == lo.view();
}

std::string Key::ToHex() const {
  std::string out;
  for (size_t i = 0; i < size_; ++i) out += fmt::format("{:02x}", data()[i]);
  return out;
}

uint64_t Key::Hash() const { return XXH3_64bits(data(), size_); }

Key EncodeKey(const Schema& schema, std::span<const int> key_columns, std::span<const Value> values) {
  if (values.size() != key_columns.size())
    throw KeyError(fmt::format("key of table \"{}\" has {} columns, got {} values",
                               schema.table_name(), key_columns.size(), values.size()));
  Key key;
  for (size_t i = 0; i < values.size(); ++i) key.AppendValue(values[i], schema.column(key_columns[i]));
  return key;
}

Key EncodePrimaryKey(const Schema& schema, std::span<const Value> key_values) {
  return EncodeKey(schema, schema.primary_key(), key_values);
}

namespace {

class KeyReader {
 public:
  explicit KeyReader(const Key& k) : p_(k.data()), end_(k.data() + k.size()) {}
  uint64_t Fixed(int n) {
    if (end_ - p_ < n) throw KeyError("truncated key");
    uint64_t u = 0;
    for (int i = 0; i < n; ++i) u = (u << 8) | *p_++;
    return u;
  }
  std::string String() {
    std::string s;
    for (;;) {
      if (p_ >= end_) throw KeyError("truncated key");
      uint8_t c = *p_++;
      if (c != 0) {
        s.push_back(static_cast<char>(c));
        continue;
      }
      if (p_ >= end_) throw KeyError("truncated key");
      uint8_t n = *p_++;
      if (n == 0) return s;
      s.push_back('\0');
    }
  }
  // The canonical text of an AppendDecimal encoding: trailing zeros of the fraction are
  // not kept, so 1.50 reads back as 1.5 (keys are for finding rows; values come from them).
  std::string Decimal() {
    const uint8_t tag = static_cast<uint8_t>(Fixed(1));
    if (tag == kDecimalZero) return "0";
    const bool negative = tag == kDecimalNegative;
    auto biased = static_cast<uint16_t>(Fixed(2));
    if (negative) biased = static_cast<uint16_t>(~biased);
    const int exponent = static_cast<int>(biased) - 0x8000;
    std::string digits;
    for (;;) {
      const auto b = static_cast<uint8_t>(Fixed(1));
      if (b == (negative ? 0xff : 0)) break;
      digits.push_back(static_cast<char>('0' + (negative ? 10 - b : b - 1)));
    }
    std::string out = negative ? "-" : "";
    const int n = static_cast<int>(digits.size());
    if (exponent <= 0) {
      out += "0." + std::string(-exponent, '0') + digits;
    } else if (n <= exponent) {
      out += digits + std::string(exponent - n, '0');
    } else {
      out += digits.substr(0, exponent) + "." + digits.substr(exponent);
    }
    return out;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace

std::vector<Value> DecodeKey(const Schema& schema, std::span<const int> key_columns, const Key& key) {
  KeyReader r(key);
  std::vector<Value> out;
  out.reserve(key_columns.size());
  for (int c : key_columns) {
    const Column& col = schema.column(c);
    switch (col.type) {
      case ColumnType::kSmallInt:
        out.push_back(Value::Int(static_cast<int16_t>(r.Fixed(2) ^ 0x8000u)));
        break;
      case ColumnType::kInteger:
        out.push_back(Value::Int(static_cast<int32_t>(r.Fixed(4) ^ 0x80000000u)));
        break;
      case ColumnType::kBigInt:
        out.push_back(Value::Int(static_cast<int64_t>(r.Fixed(8) ^ 0x8000000000000000ull)));
        break;
      case ColumnType::kReal:
      case ColumnType::kDouble: {
        uint64_t u = r.Fixed(8);
        u = (u & 0x8000000000000000ull) ? (u & ~0x8000000000000000ull) : ~u;
        out.push_back(Value::Double(std::bit_cast<double>(u)));
        break;
      }
      case ColumnType::kNumeric:
        out.push_back(Value::Numeric(static_cast<int64_t>(r.Fixed(8) ^ 0x8000000000000000ull), col.scale));
        break;
      case ColumnType::kBoolean: out.push_back(Value::Bool(r.Fixed(1) != 0)); break;
      case ColumnType::kChar:
      case ColumnType::kVarchar:
      case ColumnType::kText:
      case ColumnType::kUuid:
      case ColumnType::kBytea:
      case ColumnType::kJson:
      case ColumnType::kJsonb: out.push_back(Value::String(r.String())); break;
      case ColumnType::kDecimal: out.push_back(Value::String(r.Decimal())); break;
      case ColumnType::kTimestamp:
      case ColumnType::kTimestampTz:
      case ColumnType::kDate:
      case ColumnType::kTime:
        out.push_back(Value::Timestamp(static_cast<int64_t>(r.Fixed(8) ^ 0x8000000000000000ull)));
        break;
      case ColumnType::kArray: throw KeyError("key column \"" + col.name + "\" is an array");
    }
  }
  return out;
}

}  // namespace caracal::engine
