#include "planner/types/datum.h"

#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

#include "planner/types/bytes_text.h"
#include "planner/types/cast.h"
#include "planner/types/enum_type.h"
#include "planner/types/json.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

void AppendElement(Datum& d, Datum element) {
  if (d.kind != Datum::Kind::kArray || !d.array) d = Datum::Array({});
  // Datum::Array's vectors are created non-const (see AssignFromValue): writing through
  // the only reference is sound.
  if (d.array.use_count() != 1) d.array = std::make_shared<std::vector<Datum>>(*d.array);
  const_cast<std::vector<Datum>&>(*d.array).push_back(std::move(element));
}


namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[noreturn]] void BadInput(const SqlType& type, std::string_view text) {
  const char* code = type.id == TypeId::kTimestamp ? sqlstate::kInvalidDatetimeFormat
                                                   : sqlstate::kInvalidTextRepresentation;
  throw SqlError(code, fmt::format("invalid input syntax for type {}: \"{}\"", type.BaseName(), text));
}

// PostgreSQL prints floats in the shortest form that reads back exactly, in exponent
// notation when the decimal exponent is < -4 or >= the type's digits (15 / 6).
std::string ShortestFloatText(const char* sci, int max_exp) {
  // sci is like "-1.2345e+17" or "5e-05".
  std::string_view s(sci);
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  size_t e = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e))
    if (c != '.') digits += c;
  int exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= max_exp) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += fmt::format("e{}{:02}", exp < 0 ? '-' : '+', std::abs(exp));
  } else if (exp < 0) {
    out += "0." + std::string(-exp - 1, '0') + digits;
  } else if (static_cast<int>(digits.size()) <= exp + 1) {
    out += digits + std::string(exp + 1 - digits.size(), '0');
  } else {
    out += digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
  }
  return out;
}

Datum ParseInt(std::string_view raw, const SqlType& type) {
  std::string_view s = Trim(raw);
  bool neg = false;
  size_t p = 0;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) neg = s[p++] == '-';
  if (p == s.size()) BadInput(type, raw);
  __int128 v = 0;
  for (; p < s.size(); ++p) {
    if (!std::isdigit(static_cast<unsigned char>(s[p]))) BadInput(type, raw);
    v = v * 10 + (s[p] - '0');
    if (v > (static_cast<__int128>(1) << 64)) break;
  }
  if (p != s.size()) {
    for (; p < s.size(); ++p)
      if (!std::isdigit(static_cast<unsigned char>(s[p]))) BadInput(type, raw);
  }
  if (neg) v = -v;
  int64_t lo = type.id == TypeId::kInt2 ? INT16_MIN : type.id == TypeId::kInt4 ? INT32_MIN : INT64_MIN;
  int64_t hi = type.id == TypeId::kInt2 ? INT16_MAX : type.id == TypeId::kInt4 ? INT32_MAX : INT64_MAX;
  if (p != s.size() || v < lo || v > hi)
    throw SqlError(sqlstate::kNumericOutOfRange,
                   fmt::format("value \"{}\" is out of range for type {}", raw, type.BaseName()));
  return Datum::Int(static_cast<int64_t>(v));
}

Datum ParseFloat(std::string_view raw, const SqlType& type) {
  std::string s(Trim(raw));
  std::string lower;
  for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double v;
  if (lower == "nan") {
    v = NAN;
  } else if (lower == "infinity" || lower == "inf" || lower == "+infinity" || lower == "+inf") {
    v = INFINITY;
  } else if (lower == "-infinity" || lower == "-inf") {
    v = -INFINITY;
  } else {
    if (s.empty()) BadInput(type, raw);
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || lower.find_first_of("xp") != std::string::npos) BadInput(type, raw);
    if (errno == ERANGE || (type.id == TypeId::kFloat4 && std::isfinite(v) && std::fabs(v) > 3.4028235e38))
      throw SqlError(sqlstate::kNumericOutOfRange,
                     fmt::format("\"{}\" is out of range for type {}", raw, type.BaseName()));
  }
  if (type.id == TypeId::kFloat4) v = static_cast<float>(v);
  return Datum::Float(v);
}

Datum ParseBool(std::string_view raw, const SqlType& type) {
  std::string s;
  for (char c : Trim(raw)) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto prefix_of = [&](std::string_view word, size_t min) {
    return s.size() >= min && s.size() <= word.size() && word.substr(0, s.size()) == s;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || s == "on" || s == "1") return Datum::Bool(true);
  if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || s == "0") return Datum::Bool(false);
  BadInput(type, raw);
}

// Whether an array element's text must be double-quoted in array output.
bool NeedsArrayQuotes(std::string_view s) {
  if (s.empty()) return true;
  if (s.size() == 4) {
    std::string lower;
    for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "null") return true;
  }
  for (char c : s)
    if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || std::isspace(static_cast<unsigned char>(c)))
      return true;
  return false;
}

std::string ArrayToText(const Datum& d, const SqlType& type) {
  SqlType element = type.is_array() ? type.Element() : SqlType::Of(TypeId::kText);
  std::string out = "{";
  for (size_t i = 0; i < d.array->size(); ++i) {
    if (i) out += ",";
    const Datum& e = (*d.array)[i];
    if (e.is_null()) {
      out += "NULL";
      continue;
    }
    std::string t = DatumToText(e, element);
    if (!NeedsArrayQuotes(t)) {
      out += t;
      continue;
    }
    out += '"';
    for (char c : t) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

// PostgreSQL's array_in for one-dimensional arrays: '{a, "b c", NULL}'.
Datum ArrayFromText(std::string_view raw, const SqlType& type) {
  auto malformed = [&](const std::string& detail) -> SqlError {
    return SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("malformed array literal: \"{}\"", raw))
        .WithDetail(detail);
  };
  std::string_view s = Trim(raw);
  if (!s.empty() && s[0] == '[') throw NotSupported("array literals with explicit bounds");
  if (s.empty() || s[0] != '{')
    throw malformed("Array value must start with \"{\" or dimension information.");
  SqlType element = type.Element();
  std::vector<Datum> elements;
  size_t p = 1;
  auto skip_space = [&] {
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
  };
  skip_space();
  if (p < s.size() && s[p] == '}') {
    ++p;
    skip_space();
    if (p != s.size()) throw malformed("Junk after closing right brace.");
    return Datum::Array({});
  }
  while (true) {
    skip_space();
    if (p >= s.size()) throw malformed("Unexpected end of input.");
    if (s[p] == '{') throw NotSupported("multidimensional arrays");
    std::string text;
    bool quoted = false;
    if (s[p] == '"') {
      quoted = true;
      ++p;
      while (true) {
        if (p >= s.size()) throw malformed("Unexpected end of input.");
        char c = s[p++];
        if (c == '"') break;
        if (c == '\\') {
          if (p >= s.size()) throw malformed("Unexpected end of input.");
          c = s[p++];
        }
        text += c;
      }
      skip_space();
    } else {
      while (p < s.size() && s[p] != ',' && s[p] != '}') {
        char c = s[p++];
        if (c == '"' || c == '{') throw malformed(fmt::format("Unexpected \"{}\" character.", c));
        if (c == '\\') {
          if (p >= s.size()) throw malformed("Unexpected end of input.");
          c = s[p++];
        }
        text += c;
      }
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
      if (text.empty()) throw malformed("Unexpected \",\" character.");
    }
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!quoted && lower == "null") elements.push_back(Datum::Null());
    else elements.push_back(DatumFromText(text, element));
    if (p >= s.size()) throw malformed("Unexpected end of input.");
    if (s[p] == ',') {
      ++p;
      continue;
    }
    if (s[p] != '}') throw malformed(fmt::format("Unexpected \"{}\" character.", s[p]));
    ++p;
    skip_space();
    if (p != s.size()) throw malformed("Junk after closing right brace.");
    return Datum::Array(std::move(elements));
  }
}

}  // namespace

int64_t CharLength(std::string_view s) {
  // Counts the bytes that do not continue a UTF-8 sequence (10xxxxxx), eight at a time:
  // a byte continues one when its bit 7 is set and its bit 6 is clear.
  int64_t n = 0;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    uint64_t high = w & 0x8080808080808080ULL;
    n += high == 0 ? 8 : 8 - std::popcount(high & ~(w << 1));
  }
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  return n;
}

bool IsAscii(std::string_view s) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    high |= w;
  }
  for (; i < s.size(); ++i) high |= static_cast<unsigned char>(s[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

std::string_view StripTrailingBlanks(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string Float8Text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::scientific);
  *r.ptr = '\0';
  return ShortestFloatText(buf, 15);
}

std::string Float4Text(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::scientific);
  *r.ptr = '\0';
  return ShortestFloatText(buf, 6);
}

std::string TimestampToText(int64_t micros) { return datetime::FormatTimestamp(micros, false); }

std::string DatumToText(const Datum& d, const SqlType& type) {
  switch (d.kind) {
    case Datum::Kind::kNull: return "";
    case Datum::Kind::kBool: return d.i ? "t" : "f";
    case Datum::Kind::kInt:
      if (type.id == TypeId::kEnum && type.enum_type) return type.enum_type->Label(d.i);
      return std::to_string(d.i);
    case Datum::Kind::kFloat:
      return type.id == TypeId::kFloat4 ? Float4Text(static_cast<float>(d.f)) : Float8Text(d.f);
    case Datum::Kind::kNumeric: return d.n.ToString();
    case Datum::Kind::kString:
      if (type.id == TypeId::kUuid) return FormatUuid(d.s);
      if (type.id == TypeId::kBytea) return FormatBytea(d.s);
      return d.s;
    case Datum::Kind::kTimestamp:
      switch (type.id) {
        case TypeId::kTimestampTz: return datetime::FormatTimestamp(d.i, true);
        case TypeId::kDate: return datetime::FormatDate(d.i);
        case TypeId::kTime: return datetime::FormatTime(d.i);
        default: return datetime::FormatTimestamp(d.i, false);
      }
    case Datum::Kind::kInterval: return datetime::FormatInterval(d.as_interval());
    case Datum::Kind::kArray: return ArrayToText(d, type);
  }
  return "";
}

Datum ApplyTypmod(Datum d, const SqlType& type, bool explicit_cast) {
  if (d.is_null() || !type.has_typmod()) return d;
  if (type.is_array() && d.kind == Datum::Kind::kArray) {
    std::vector<Datum> elements;
    for (const Datum& e : *d.array) elements.push_back(ApplyTypmod(e, type.Element(), explicit_cast));
    return Datum::Array(std::move(elements));
  }
  if (type.id == TypeId::kNumeric && d.kind == Datum::Kind::kNumeric) {
    Numeric r = d.n.Rescale(type.scale);
    int max_digits = type.precision - type.scale;
    if (r.IntegerDigits() > max_digits)
      throw SqlError(sqlstate::kNumericOutOfRange, "numeric field overflow")
          .WithDetail(fmt::format("A field with precision {}, scale {} must round to an absolute value less than {}{}.",
                                  type.precision, type.scale, max_digits ? "10^" : "", max_digits ? max_digits : 1));
    return Datum::Num(r);
  }
  if (d.kind == Datum::Kind::kTimestamp || d.kind == Datum::Kind::kInterval) {
    // Fractional seconds rounded to the type's digits, half away from zero.
    if (type.precision >= 6) return d;
    int64_t unit = 1;
    for (int k = type.precision; k < 6; ++k) unit *= 10;
    if (d.kind == Datum::Kind::kTimestamp && !datetime::IsFiniteTimestamp(d.i)) return d;
    int64_t r = d.i >= 0 ? (d.i + unit / 2) / unit * unit : -((-d.i + unit / 2) / unit * unit);
    d.i = r;
    return d;
  }
  if ((type.id == TypeId::kBpchar || type.id == TypeId::kVarchar) && d.kind == Datum::Kind::kString) {
    // A string has no more characters than bytes: a varchar that fits by bytes fits
    // (c_data-sized values would otherwise be counted on every assignment).
    if (type.id == TypeId::kVarchar && static_cast<int64_t>(d.s.size()) <= type.precision) return d;
    int64_t len = CharLength(d.s);
    if (len > type.precision) {
      // Cut at the n-th character; only blanks may be cut unless the cast is explicit.
      size_t cut = 0;
      for (int64_t chars = 0; cut < d.s.size(); ++cut) {
        if ((static_cast<unsigned char>(d.s[cut]) & 0xC0) != 0x80 && chars++ == type.precision) break;
      }
      if (!explicit_cast && d.s.find_first_not_of(' ', cut) != std::string::npos)
        throw SqlError(sqlstate::kStringDataRightTruncation, fmt::format("value too long for type {}", type.Name()));
      d.s.resize(cut);
      len = type.precision;
    }
    if (type.id == TypeId::kBpchar && len < type.precision) d.s.append(type.precision - len, ' ');
  }
  return d;
}

Datum DatumFromText(std::string_view text, const SqlType& type) {
  switch (type.id) {
    case TypeId::kBool: return ParseBool(text, type);
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8: return ParseInt(text, type);
    case TypeId::kFloat4:
    case TypeId::kFloat8: return ParseFloat(text, type);
    case TypeId::kNumeric: {
      std::string_view t = Trim(text);
      std::optional<Numeric> n = Numeric::Parse(t);
      if (!n) {
        std::string lower(t);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "nan" || lower == "infinity" || lower == "-infinity")
          throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("numeric value \"{}\" is not supported", text));
        BadInput(type, text);
      }
      return ApplyTypmod(Datum::Num(*n), type);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return ApplyTypmod(Datum::Timestamp(datetime::ParseTimestamp(text, type.id == TypeId::kTimestampTz)), type);
    case TypeId::kDate: return Datum::Timestamp(datetime::ParseDate(text));
    case TypeId::kTime: return ApplyTypmod(Datum::Timestamp(datetime::ParseTime(text)), type);
    case TypeId::kInterval: return ApplyTypmod(Datum::Interval(datetime::ParseInterval(text)), type);
    case TypeId::kArray: return ArrayFromText(text, type);
    case TypeId::kUuid: return Datum::String(ParseUuid(text));
    case TypeId::kBytea: return Datum::String(ParseBytea(text));
    case TypeId::kJson:
      ParseJson(text);  // validated, kept as written
      return Datum::String(std::string(text));
    case TypeId::kJsonb: return Datum::String(JsonbText(ToJsonb(ParseJson(text))));
    case TypeId::kEnum:
      if (!type.enum_type) break;
      return Datum::Int(type.enum_type->Parse(text));
    case TypeId::kBpchar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kUnknown: return ApplyTypmod(Datum::String(std::string(text)), type);
  }
  BadInput(type, text);
}

Datum DatumFromRow(const engine::RowValue& row, int col, const engine::Column& c) {
  if (row.IsNull(col)) return Datum::Null();
  switch (c.type) {
    case engine::ColumnType::kSmallInt:
    case engine::ColumnType::kInteger:
    case engine::ColumnType::kBigInt: return Datum::Int(row.GetInt(col));
    case engine::ColumnType::kReal:
    case engine::ColumnType::kDouble: return Datum::Float(row.GetDouble(col));
    case engine::ColumnType::kNumeric: return Datum::Num(Numeric(row.GetInt(col), c.scale));
    case engine::ColumnType::kBoolean: return Datum::Bool(row.GetBool(col));
    case engine::ColumnType::kChar:
    case engine::ColumnType::kVarchar:
    case engine::ColumnType::kText: return Datum::String(std::string(row.GetString(col)));
    case engine::ColumnType::kTimestamp:
    case engine::ColumnType::kTimestampTz:
    case engine::ColumnType::kDate:
    case engine::ColumnType::kTime: return Datum::Timestamp(row.GetInt(col));
    case engine::ColumnType::kDecimal: {
      const std::string_view text = row.GetString(col);
      const std::optional<Numeric> n = Numeric::Parse(text);
      if (!n) throw SqlError(sqlstate::kInternalError, fmt::format("stored numeric \"{}\" is malformed", text));
      return Datum::Num(*n);
    }
    case engine::ColumnType::kUuid:
    case engine::ColumnType::kBytea:
    case engine::ColumnType::kJson:
    case engine::ColumnType::kJsonb: return Datum::String(std::string(row.GetString(col)));
    // The array's text, as DatumToText wrote it (SetRowColumn).
    case engine::ColumnType::kArray: return DatumFromText(row.GetString(col), FromColumn(c));
  }
  return Datum::Null();
}

namespace {

// dst = v, reusing dst's buffer (no allocation when it is large enough).
void AssignString(std::string& dst, std::string_view v) {
  if (v.size() > dst.capacity()) {
    dst.assign(v.data(), v.size());
    return;
  }
  // resize + memcpy is cheaper than assign(), which allows for overlap.
  dst.resize(v.size());
  if (!v.empty()) std::memcpy(dst.data(), v.data(), v.size());
}

// A column whose bytes are a Datum kString's bytes as they are: the variable-width
// kinds but kDecimal (a numeric Datum, parsed from its text) and kArray (an array
// Datum, parsed from its text).
bool HoldsDatumString(engine::ColumnType type) {
  return engine::IsVariableWidth(type) && type != engine::ColumnType::kDecimal && type != engine::ColumnType::kArray;
}

}  // namespace

void SetStringDatum(Datum& d, std::string_view v) {
  d.kind = Datum::Kind::kString;
  AssignString(d.s, v);
  if (d.array) d.array.reset();
}

void CopyDatum(Datum& dst, const Datum& src) {
  if (&dst == &src) return;
  switch (src.kind) {
    case Datum::Kind::kNull: dst.kind = Datum::Kind::kNull; return;
    case Datum::Kind::kString: SetStringDatum(dst, src.s); return;
    default: dst = src; return;
  }
}

void DatumFromRowInto(const engine::RowValue& row, int col, const engine::Column& c, Datum& out) {
  if (!row.IsNull(col) && HoldsDatumString(c.type)) {
    SetStringDatum(out, row.GetString(col));
    return;
  }
  out = DatumFromRow(row, col, c);
}

namespace {

// A numeric at the scale a Value of `type` takes, if a stored value can hold it.
std::optional<Numeric> StoredNumeric(const Numeric& n, const SqlType& type) {
  const int scale = type.scale >= 0 ? type.scale : n.scale();
  if (scale > 18) return std::nullopt;
  const Numeric r = n.Rescale(scale);
  if (r.mantissa() > INT64_MAX || r.mantissa() < INT64_MIN) return std::nullopt;
  return r;
}

}  // namespace

engine::Value DatumToValue(const Datum& d, const SqlType& type) {
  switch (d.kind) {
    case Datum::Kind::kNull: return engine::Value::Null();
    case Datum::Kind::kBool: return engine::Value::Bool(d.as_bool());
    case Datum::Kind::kInt: return engine::Value::Int(d.i);
    case Datum::Kind::kFloat: return engine::Value::Double(d.f);
    case Datum::Kind::kNumeric: {
      const std::optional<Numeric> r = StoredNumeric(d.n, type);
      // A numeric without a precision, or wider than an int64 slot, is stored as its
      // text (engine::ColumnType::kDecimal).
      if (!r && IsDecimalTextNumeric(type)) return engine::Value::String(d.n.ToString());
      if (!r)
        throw SqlError(sqlstate::kNumericOutOfRange, "numeric field overflow")
            .WithDetail("Stored numeric values hold at most 18 digits.");
      return engine::Value::Numeric(static_cast<int64_t>(r->mantissa()), r->scale());
    }
    case Datum::Kind::kString: return engine::Value::String(d.s);
    case Datum::Kind::kTimestamp: return engine::Value::Timestamp(d.i);
    case Datum::Kind::kInterval:
      // No column holds an interval: it travels as its text (a procedure's result).
      return engine::Value::String(DatumToText(d, type));
    case Datum::Kind::kArray: {
      std::vector<engine::Value> elements;
      SqlType element = type.is_array() ? type.Element() : SqlType::Of(TypeId::kText);
      for (const Datum& e : *d.array) elements.push_back(DatumToValue(e, element));
      return engine::Value::Array(std::move(elements));
    }
  }
  return engine::Value::Null();
}

engine::Value DatumToColumnValue(const Datum& d, const SqlType& type) {
  if (d.kind == Datum::Kind::kArray) return engine::Value::String(DatumToText(d, type));
  return DatumToValue(d, type);
}

engine::Value DatumToResultValue(const Datum& d, const SqlType& type) {
  if (d.kind == Datum::Kind::kNumeric && !StoredNumeric(d.n, type)) return engine::Value::String(DatumToText(d, type));
  if (d.kind != Datum::Kind::kArray) return DatumToValue(d, type);
  std::vector<engine::Value> elements;
  const SqlType element = type.is_array() ? type.Element() : SqlType::Of(TypeId::kText);
  for (const Datum& e : *d.array) elements.push_back(DatumToResultValue(e, element));
  return engine::Value::Array(std::move(elements));
}

namespace {

// The slot bits DatumToValue and RowBuilder::Set together would give non-null `d` in
// fixed-width column `c`, for the common pairs where no Value is needed; nullopt for
// the rest (which take the Value path, so conversions and errors stay in one place).
std::optional<int64_t> DirectSlotBits(const Datum& d, const SqlType& type, const engine::Column& c) {
  switch (c.type) {
    case engine::ColumnType::kSmallInt:
    case engine::ColumnType::kInteger:
    case engine::ColumnType::kBigInt:
      if (d.kind == Datum::Kind::kInt) return d.i;
      return std::nullopt;
    case engine::ColumnType::kTimestamp:
    case engine::ColumnType::kTimestampTz:
    case engine::ColumnType::kDate:
    case engine::ColumnType::kTime:
      if (d.kind == Datum::Kind::kTimestamp) return d.i;
      return std::nullopt;
    case engine::ColumnType::kBoolean:
      if (d.kind == Datum::Kind::kBool) return d.i != 0 ? 1 : 0;
      return std::nullopt;
    case engine::ColumnType::kDouble:
      if (d.kind == Datum::Kind::kFloat) return std::bit_cast<int64_t>(d.f);
      return std::nullopt;
    case engine::ColumnType::kReal:
      if (d.kind == Datum::Kind::kFloat) return std::bit_cast<int64_t>(static_cast<double>(static_cast<float>(d.f)));
      return std::nullopt;
    case engine::ColumnType::kNumeric: {
      if (d.kind != Datum::Kind::kNumeric || type.scale != c.scale || c.scale < 0 || c.scale > 18) return std::nullopt;
      const Numeric r = d.n.Rescale(c.scale);
      if (r.mantissa() > INT64_MAX || r.mantissa() < INT64_MIN) return std::nullopt;  // the Value path raises
      return static_cast<int64_t>(r.mantissa());
    }
    default: return std::nullopt;
  }
}

}  // namespace

void SetRowColumn(engine::RowBuilder& b, int col, const engine::Column& c, const Datum& d, const SqlType& type) {
  // A char(n) value shorter than n is padded by the Value path.
  if (d.kind == Datum::Kind::kString && HoldsDatumString(c.type) &&
      (c.type != engine::ColumnType::kChar || static_cast<int>(d.s.size()) >= c.precision)) {
    b.SetStringRef(col, d.s);
    return;
  }
  if (c.type == engine::ColumnType::kArray) {
    b.Set(col, DatumToColumnValue(d, FromColumn(c)));
    return;
  }
  if (std::optional<int64_t> bits = DirectSlotBits(d, type, c)) {
    b.SetInt(col, *bits);
    return;
  }
  b.Set(col, DatumToValue(d, type));
}

void PatchRowColumn(engine::RowPatch& p, const engine::Schema& schema, int col, const Datum& d, const SqlType& type) {
  if (std::optional<int64_t> bits = DirectSlotBits(d, type, schema.column(col))) {
    p.SetInt(col, *bits);
    return;
  }
  p.Set(schema, col, DatumToValue(d, type));
}

namespace {

// The range of an integer type (any other type: int8's, unused).
struct IntBounds {
  int64_t lo, hi;
};
IntBounds BoundsOf(TypeId id) {
  switch (id) {
    case TypeId::kInt2: return {INT16_MIN, INT16_MAX};
    case TypeId::kInt4: return {INT32_MIN, INT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

// Sets `out` to `v` where no conversion is needed - an integer (within `bounds`, else
// 22003), a boolean or a timestamp of the type `id` - in place, without building and
// moving a whole Datum. False when `v` needs the general conversion.
[[gnu::always_inline]] inline bool AssignSimple(Datum& out, const engine::Value& v, TypeId id, IntBounds bounds) {
  Datum::Kind kind;
  int64_t x;
  switch (v.kind()) {
    case engine::Value::Kind::kInt:
      if (id != TypeId::kInt2 && id != TypeId::kInt4 && id != TypeId::kInt8) return false;
      x = v.as_int();
      if (x < bounds.lo || x > bounds.hi) CheckIntRange(x, id);  // raises 22003
      kind = Datum::Kind::kInt;
      break;
    case engine::Value::Kind::kBool:
      if (id != TypeId::kBool) return false;
      x = v.as_bool();
      kind = Datum::Kind::kBool;
      break;
    case engine::Value::Kind::kTimestamp:
      if (id != TypeId::kTimestamp && id != TypeId::kTimestampTz && id != TypeId::kDate && id != TypeId::kTime)
        return false;
      x = v.as_timestamp();
      kind = Datum::Kind::kTimestamp;
      break;
    default: return false;
  }
  SetScalarDatum(out, kind, x);
  return true;
}

// The elements of an array argument, into `elements` (whose old contents are overwritten).
void FillArrayElements(std::vector<Datum>& elements, const std::vector<engine::Value>& values, const SqlType& element) {
  elements.resize(values.size());
  // The element type's range is known before the loop. Through plain pointers: stores
  // into `elements` must not make the compiler re-read `values`' bounds on every element.
  const IntBounds bounds = BoundsOf(element.id);
  const engine::Value* in = values.data();
  Datum* outs = elements.data();
  const size_t n = values.size();
  for (size_t k = 0; k < n; ++k)
    if (!AssignSimple(outs[k], in[k], element.id, bounds)) outs[k] = DatumFromValue(in[k], element);
}

}  // namespace

Datum DatumFromValue(const engine::Value& v, const SqlType& type) {
  auto mismatch = [&]() -> SqlError {
    return SqlError(sqlstate::kDatatypeMismatch, fmt::format("a value of this kind cannot be a {}", type.Name()));
  };
  if (v.is_null()) return Datum::Null();
  // A uuid's or bytea's Value holds its raw bytes, a json's or jsonb's its (canonical)
  // text, as its column does.
  if (type.id == TypeId::kUuid || type.id == TypeId::kBytea || type.is_json()) {
    if (v.kind() != engine::Value::Kind::kString) throw mismatch();
    return Datum::String(v.as_string());
  }
  // Text arguments convert through the type's input function, as an untyped literal would.
  if (v.kind() == engine::Value::Kind::kString && !type.is_string()) return DatumFromText(v.as_string(), type);
  Datum d;
  switch (type.id) {
    case TypeId::kBool:
      if (v.kind() != engine::Value::Kind::kBool) throw mismatch();
      return Datum::Bool(v.as_bool());
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
      if (v.kind() != engine::Value::Kind::kInt) throw mismatch();
      return Datum::Int(CheckIntRange(v.as_int(), type.id));
    case TypeId::kFloat4:
    case TypeId::kFloat8:
      if (v.kind() == engine::Value::Kind::kDouble) return Datum::Float(type.id == TypeId::kFloat4 ? static_cast<float>(v.as_double()) : v.as_double());
      if (v.kind() == engine::Value::Kind::kInt) return Datum::Float(static_cast<double>(v.as_int()));
      throw mismatch();
    case TypeId::kNumeric:
      if (v.kind() == engine::Value::Kind::kNumeric) d = Datum::Num(Numeric(v.numeric_mantissa(), v.numeric_scale()));
      else if (v.kind() == engine::Value::Kind::kInt) d = Datum::Num(Numeric::FromInt(v.as_int()));
      else throw mismatch();
      return ApplyTypmod(std::move(d), type);
    case TypeId::kBpchar:
    case TypeId::kVarchar:
    case TypeId::kText:
      if (v.kind() != engine::Value::Kind::kString) return ApplyTypmod(Datum::String(v.ToText()), type);
      return ApplyTypmod(Datum::String(v.as_string()), type);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate:
    case TypeId::kTime:
      if (v.kind() != engine::Value::Kind::kTimestamp) throw mismatch();
      return Datum::Timestamp(v.as_timestamp());
    case TypeId::kInterval:
    case TypeId::kUuid:  // handled above
    case TypeId::kBytea:
    case TypeId::kJson:
    case TypeId::kJsonb: throw mismatch();
    case TypeId::kArray: {
      if (v.kind() != engine::Value::Kind::kArray) throw mismatch();
      auto elements = std::make_shared<std::vector<Datum>>();
      FillArrayElements(*elements, v.as_array(), type.Element());
      d.kind = Datum::Kind::kArray;
      d.array = std::move(elements);
      return d;
    }
    case TypeId::kEnum:
      if (v.kind() != engine::Value::Kind::kInt || !type.enum_type) throw mismatch();
      type.enum_type->Label(v.as_int());  // a position this type gave
      return Datum::Int(v.as_int());
    case TypeId::kUnknown: return Datum::String(v.ToText());
  }
  throw mismatch();
}

void AssignFromValue(Datum& out, const engine::Value& v, const SqlType& type) {
  if (AssignSimple(out, v, type.id, BoundsOf(type.id))) return;
  // ThreadSanitizer does not model the fence below, so there every conversion allocates.
#if !defined(__SANITIZE_THREAD__)
  // `out` may be NULL and still hold the elements of an earlier array (a reused frame's
  // parameter that a run left unconverted: see codegen's MakeFrame).
  if (type.id == TypeId::kArray && v.kind() == engine::Value::Kind::kArray && out.array && out.array.use_count() == 1) {
    // Nothing else holds these elements, and every array is created as a non-const vector
    // (Datum::Array, DatumFromValue), so they may be rewritten in place. The fence orders
    // the rewrite after a last holder's reads on another thread (its release of the count).
    std::atomic_thread_fence(std::memory_order_acquire);
    FillArrayElements(const_cast<std::vector<Datum>&>(*out.array), v.as_array(), type.Element());
    out.kind = Datum::Kind::kArray;
    return;
  }
#endif
  out = DatumFromValue(v, type);
}

int CompareDatums(const Datum& a, const Datum& b) {
  switch (a.kind) {
    case Datum::Kind::kNull: return 0;
    case Datum::Kind::kBool:
    case Datum::Kind::kInt:
    case Datum::Kind::kTimestamp: return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
    case Datum::Kind::kInterval: return datetime::CompareIntervals(a.as_interval(), b.as_interval());
    case Datum::Kind::kFloat:
      // PostgreSQL sorts NaN above every other value and equal to itself.
      if (std::isnan(a.f) || std::isnan(b.f)) return std::isnan(a.f) ? (std::isnan(b.f) ? 0 : 1) : -1;
      return a.f < b.f ? -1 : (a.f > b.f ? 1 : 0);
    case Datum::Kind::kNumeric: return Compare(a.n, b.n);
    case Datum::Kind::kString: {
      int c = a.s.compare(b.s);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Datum::Kind::kArray: {
      size_t n = std::min(a.array->size(), b.array->size());
      for (size_t i = 0; i < n; ++i) {
        const Datum& x = (*a.array)[i];
        const Datum& y = (*b.array)[i];
        if (x.is_null() || y.is_null()) {
          if (x.is_null() != y.is_null()) return x.is_null() ? 1 : -1;
          continue;
        }
        if (int c = CompareDatums(x, y)) return c;
      }
      return a.array->size() < b.array->size() ? -1 : (a.array->size() > b.array->size() ? 1 : 0);
    }
  }
  return 0;
}

}  // namespace caracal::planner
