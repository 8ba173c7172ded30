#include "planner/expr/functions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string_view>
#include <vector>

#include "planner/expr/bytes_builtins.h"
#include "planner/expr/datetime_builtins.h"
#include "planner/expr/array_builtins.h"
#include "planner/expr/domain_check.h"
#include "planner/expr/enum_builtins.h"
#include "planner/expr/json_builtins.h"
#include "planner/types/cast.h"
#include "planner/types/number_format.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// A result type of kUnknown in a signature means "the type of the first argument".
struct Signature {
  std::string_view name;
  Func func;
  std::vector<TypeId> params;
  TypeId result;
  // concat(any, ...): every argument from the `params` on becomes text, and there
  // must be at least one (concat_ws(text, any, ...) has its separator in `params`).
  bool variadic_text = false;
};

const std::vector<Signature>& Signatures() {
  using T = TypeId;
  static const std::vector<Signature> kAll = {
      {"abs", Func::kAbs, {T::kInt2}, T::kInt2}, {"abs", Func::kAbs, {T::kInt4}, T::kInt4},
      {"abs", Func::kAbs, {T::kInt8}, T::kInt8}, {"abs", Func::kAbs, {T::kFloat8}, T::kFloat8},
      {"abs", Func::kAbs, {T::kFloat4}, T::kFloat4}, {"abs", Func::kAbs, {T::kNumeric}, T::kNumeric},
      {"round", Func::kRound, {T::kFloat8}, T::kFloat8}, {"round", Func::kRound, {T::kNumeric}, T::kNumeric},
      {"round", Func::kRound, {T::kNumeric, T::kInt4}, T::kNumeric},
      {"trunc", Func::kTrunc, {T::kFloat8}, T::kFloat8}, {"trunc", Func::kTrunc, {T::kNumeric}, T::kNumeric},
      {"trunc", Func::kTrunc, {T::kNumeric, T::kInt4}, T::kNumeric},
      {"floor", Func::kFloor, {T::kFloat8}, T::kFloat8}, {"floor", Func::kFloor, {T::kNumeric}, T::kNumeric},
      {"ceil", Func::kCeil, {T::kFloat8}, T::kFloat8}, {"ceil", Func::kCeil, {T::kNumeric}, T::kNumeric},
      {"ceiling", Func::kCeil, {T::kFloat8}, T::kFloat8}, {"ceiling", Func::kCeil, {T::kNumeric}, T::kNumeric},
      {"mod", Func::kMod, {T::kInt2, T::kInt2}, T::kInt2}, {"mod", Func::kMod, {T::kInt4, T::kInt4}, T::kInt4},
      {"mod", Func::kMod, {T::kInt8, T::kInt8}, T::kInt8},
      {"mod", Func::kMod, {T::kNumeric, T::kNumeric}, T::kNumeric},
      {"power", Func::kPower, {T::kFloat8, T::kFloat8}, T::kFloat8},
      {"sqrt", Func::kSqrt, {T::kFloat8}, T::kFloat8},
      {"sign", Func::kSign, {T::kFloat8}, T::kFloat8}, {"sign", Func::kSign, {T::kNumeric}, T::kNumeric},
      {"length", Func::kLength, {T::kText}, T::kInt4}, {"char_length", Func::kLength, {T::kText}, T::kInt4},
      {"character_length", Func::kLength, {T::kText}, T::kInt4},
      // Bytes, of char(n) with its padding (PostgreSQL's bpcharoctetlen): the bpchar
      // overload keeps the blanks that the cast to text strips. bit_length has no
      // bpchar overload in PostgreSQL, so there they are stripped.
      {"octet_length", Func::kOctetLength, {T::kText}, T::kInt4},
      {"octet_length", Func::kOctetLength, {T::kBpchar}, T::kInt4},
      {"bit_length", Func::kBitLength, {T::kText}, T::kInt4},
      {"lower", Func::kLower, {T::kText}, T::kText}, {"upper", Func::kUpper, {T::kText}, T::kText},
      {"substr", Func::kSubstr, {T::kText, T::kInt4}, T::kText},
      {"substr", Func::kSubstr, {T::kText, T::kInt4, T::kInt4}, T::kText},
      {"substring", Func::kSubstr, {T::kText, T::kInt4}, T::kText},
      {"substring", Func::kSubstr, {T::kText, T::kInt4, T::kInt4}, T::kText},
      {"btrim", Func::kBtrim, {T::kText}, T::kText}, {"btrim", Func::kBtrim, {T::kText, T::kText}, T::kText},
      {"ltrim", Func::kLtrim, {T::kText}, T::kText}, {"ltrim", Func::kLtrim, {T::kText, T::kText}, T::kText},
      {"rtrim", Func::kRtrim, {T::kText}, T::kText}, {"rtrim", Func::kRtrim, {T::kText, T::kText}, T::kText},
      {"replace", Func::kReplace, {T::kText, T::kText, T::kText}, T::kText},
      {"strpos", Func::kStrpos, {T::kText, T::kText}, T::kInt4},
      {"position", Func::kStrpos, {T::kText, T::kText}, T::kInt4},
      {"left", Func::kLeft, {T::kText, T::kInt4}, T::kText},
      {"right", Func::kRight, {T::kText, T::kInt4}, T::kText},
      {"concat", Func::kConcat, {}, T::kText, true},
      {"concat_ws", Func::kConcatWs, {T::kText}, T::kText, true},
      {"ascii", Func::kAscii, {T::kText}, T::kInt4},
      {"repeat", Func::kRepeat, {T::kText, T::kInt4}, T::kText},
      {"chr", Func::kChr, {T::kInt4}, T::kText},
      {"lpad", Func::kLpad, {T::kText, T::kInt4}, T::kText}, {"lpad", Func::kLpad, {T::kText, T::kInt4, T::kText}, T::kText},
      {"rpad", Func::kRpad, {T::kText, T::kInt4}, T::kText}, {"rpad", Func::kRpad, {T::kText, T::kInt4, T::kText}, T::kText},
      {"reverse", Func::kReverse, {T::kText}, T::kText},
      {"initcap", Func::kInitcap, {T::kText}, T::kText},
      {"split_part", Func::kSplitPart, {T::kText, T::kText, T::kInt4}, T::kText},
      {"starts_with", Func::kStartsWith, {T::kText, T::kText}, T::kBool},
      {"translate", Func::kTranslate, {T::kText, T::kText, T::kText}, T::kText},
      {"pi", Func::kPi, {}, T::kFloat8},
      {"random", Func::kRandom, {}, T::kFloat8},
      {"date_trunc", Func::kDateTrunc, {T::kText, T::kTimestamp}, T::kTimestamp},
      {"date_trunc", Func::kDateTrunc, {T::kText, T::kTimestampTz}, T::kTimestampTz},
      {"date_trunc", Func::kDateTrunc, {T::kText, T::kInterval}, T::kInterval},
      {"date_part", Func::kDatePart, {T::kText, T::kTimestamp}, T::kFloat8},
      {"date_part", Func::kDatePart, {T::kText, T::kTimestampTz}, T::kFloat8},
      {"date_part", Func::kDatePart, {T::kText, T::kDate}, T::kFloat8},
      {"date_part", Func::kDatePart, {T::kText, T::kTime}, T::kFloat8},
      {"date_part", Func::kDatePart, {T::kText, T::kInterval}, T::kFloat8},
      {"extract", Func::kExtract, {T::kText, T::kTimestamp}, T::kNumeric},
      {"extract", Func::kExtract, {T::kText, T::kTimestampTz}, T::kNumeric},
      {"extract", Func::kExtract, {T::kText, T::kDate}, T::kNumeric},
      {"extract", Func::kExtract, {T::kText, T::kTime}, T::kNumeric},
      {"extract", Func::kExtract, {T::kText, T::kInterval}, T::kNumeric},
      {"age", Func::kAge, {T::kTimestamp, T::kTimestamp}, T::kInterval},
      {"age", Func::kAge, {T::kTimestampTz, T::kTimestampTz}, T::kInterval},
      {"justify_days", Func::kJustifyDays, {T::kInterval}, T::kInterval},
      {"justify_hours", Func::kJustifyHours, {T::kInterval}, T::kInterval},
      {"justify_interval", Func::kJustifyInterval, {T::kInterval}, T::kInterval},
      {"make_date", Func::kMakeDate, {T::kInt4, T::kInt4, T::kInt4}, T::kDate},
      {"make_time", Func::kMakeTime, {T::kInt4, T::kInt4, T::kFloat8}, T::kTime},
      {"make_timestamp", Func::kMakeTimestamp, {T::kInt4, T::kInt4, T::kInt4, T::kInt4, T::kInt4, T::kFloat8}, T::kTimestamp},
      {"to_char", Func::kToCharNumber, {T::kInt4, T::kText}, T::kText},
      {"to_char", Func::kToCharNumber, {T::kInt8, T::kText}, T::kText},
      {"to_char", Func::kToCharNumber, {T::kNumeric, T::kText}, T::kText},
      {"to_char", Func::kToCharNumber, {T::kFloat8, T::kText}, T::kText},
      {"to_char", Func::kToChar, {T::kTimestamp, T::kText}, T::kText},
      {"to_char", Func::kToChar, {T::kTimestampTz, T::kText}, T::kText},
      {"to_char", Func::kToChar, {T::kInterval, T::kText}, T::kText},
      {"to_timestamp", Func::kToTimestamp, {T::kText, T::kText}, T::kTimestampTz},
      {"to_timestamp", Func::kToTimestamp, {T::kFloat8}, T::kTimestampTz},
      {"to_date", Func::kToDate, {T::kText, T::kText}, T::kDate},
      {"isfinite", Func::kIsFinite, {T::kDate}, T::kBool},
      {"isfinite", Func::kIsFinite, {T::kTimestamp}, T::kBool},
      {"isfinite", Func::kIsFinite, {T::kTimestampTz}, T::kBool},
      {"isfinite", Func::kIsFinite, {T::kInterval}, T::kBool},
      {"timezone", Func::kTimezone, {T::kText, T::kTimestampTz}, T::kTimestamp},
      {"timezone", Func::kTimezone, {T::kText, T::kTimestamp}, T::kTimestampTz},
      {"length", Func::kOctetLength, {T::kBytea}, T::kInt4},
      {"octet_length", Func::kOctetLength, {T::kBytea}, T::kInt4},
      {"md5", Func::kMd5, {T::kText}, T::kText}, {"md5", Func::kMd5, {T::kBytea}, T::kText},
      {"sha224", Func::kSha224, {T::kBytea}, T::kBytea}, {"sha256", Func::kSha256, {T::kBytea}, T::kBytea},
      {"sha384", Func::kSha384, {T::kBytea}, T::kBytea}, {"sha512", Func::kSha512, {T::kBytea}, T::kBytea},
      {"encode", Func::kEncode, {T::kBytea, T::kText}, T::kText},
      {"decode", Func::kDecode, {T::kText, T::kText}, T::kBytea},
      {"convert_to", Func::kConvertTo, {T::kText, T::kText}, T::kBytea},
      {"convert_from", Func::kConvertFrom, {T::kBytea, T::kText}, T::kText},
      {"get_byte", Func::kGetByte, {T::kBytea, T::kInt4}, T::kInt4},
      // pgcrypto (CREATE EXTENSION pgcrypto is accepted: its functions are always here).
      {"digest", Func::kDigest, {T::kBytea, T::kText}, T::kBytea},
      {"digest", Func::kDigest, {T::kText, T::kText}, T::kBytea},
      {"hmac", Func::kHmac, {T::kBytea, T::kBytea, T::kText}, T::kBytea},
      {"hmac", Func::kHmac, {T::kText, T::kText, T::kText}, T::kBytea},
      {"jsonb_typeof", Func::kJsonTypeof, {T::kJsonb}, T::kText}, {"json_typeof", Func::kJsonTypeof, {T::kJson}, T::kText},
      {"jsonb_array_length", Func::kJsonArrayLength, {T::kJsonb}, T::kInt4},
      {"json_array_length", Func::kJsonArrayLength, {T::kJson}, T::kInt4},
      {"jsonb_strip_nulls", Func::kJsonbStripNulls, {T::kJsonb}, T::kJsonb},
      {"jsonb_pretty", Func::kJsonbPretty, {T::kJsonb}, T::kText},
  };
  return kAll;
}

}  // namespace

std::string_view FunctionName(Func func) {
  switch (func) {
    case Func::kFormat: return "format";
    case Func::kArrayLength: return "array_length";
    case Func::kCardinality: return "cardinality";
    case Func::kArrayUpper: return "array_upper";
    case Func::kArrayLower: return "array_lower";
    case Func::kBoolOut: return "boolout";
    case Func::kArrayAppend: return "array_append";
    case Func::kArrayPrepend: return "array_prepend";
    case Func::kArrayCat: return "array_cat";
    case Func::kArraySet: return "array_set";  // never bound by name: PL/pgSQL's `v[i] := x`
    case Func::kNow: return "now";
    case Func::kCheckViolation: return "check_violation";  // never bound by name
    case Func::kUuidFromDraws: return "gen_random_uuid";
    case Func::kJsonGet: return "->";
    case Func::kJsonGetText: return "->>";
    case Func::kJsonPath: return "#>";
    case Func::kJsonPathText: return "#>>";
    case Func::kJsonbContains: return "@>";
    case Func::kJsonbExists: return "?";
    case Func::kJsonbExistsAny: return "?|";
    case Func::kJsonbExistsAll: return "?&";
    case Func::kJsonbConcat: return "||";
    case Func::kJsonbDelete: return "-";
    case Func::kToJson: return "to_json";
    case Func::kJsonBuildObject: return "json_build_object";
    case Func::kJsonBuildArray: return "json_build_array";
    case Func::kJsonRow: return "row_to_json";
    case Func::kJsonbSet: return "jsonb_set";
    case Func::kJsonAgg: return "json_agg";
    case Func::kJsonObjectAgg: return "json_object_agg";
    case Func::kJsonArrayItems: return "json_array_elements";
    case Func::kJsonObjectParts: return "json_each";
    case Func::kArrayRemove: return "array_remove";
    case Func::kArrayReplace: return "array_replace";
    case Func::kArrayPosition: return "array_position";
    case Func::kArrayPositions: return "array_positions";
    case Func::kArrayToString: return "array_to_string";
    case Func::kStringToArray: return "string_to_array";
    case Func::kArrayContains: return "@>";
    case Func::kArrayContainedBy: return "<@";
    case Func::kArrayOverlap: return "&&";
    case Func::kArrayDims: return "array_dims";
    case Func::kArrayNdims: return "array_ndims";
    case Func::kArrayFill: return "array_fill";
    case Func::kEnumFirst: return "enum_first";
    case Func::kEnumLast: return "enum_last";
    case Func::kEnumRange: return "enum_range";
    case Func::kDomainCheck: return "domain_check";
    case Func::kArraySlice: return "array_slice";
    default: break;
  }
  for (const Signature& s : Signatures())
    if (s.func == func) return s.name;
  return "?";
}

namespace {

bool IsPreferred(TypeId t) {
  return t == TypeId::kFloat8 || t == TypeId::kText || t == TypeId::kTimestampTz || t == TypeId::kInterval;
}

// Byte offset of character `index` (0-based) in UTF-8 `s`, clamped to s.size().
size_t ByteOffset(std::string_view s, int64_t index) {
  size_t p = 0;
  for (int64_t chars = 0; p < s.size(); ++p) {
    if ((static_cast<unsigned char>(s[p]) & 0xC0) != 0x80) {
      if (chars == index) return p;
      ++chars;
    }
  }
  return s.size();
}

std::string Substr(std::string_view s, int64_t start, std::optional<int64_t> count) {
  if (count && *count < 0) throw SqlError("22011", "negative substring length not allowed");
  const bool ascii = IsAscii(s);
  int64_t len = ascii ? static_cast<int64_t>(s.size()) : CharLength(s);
  int64_t from = start, to = count ? start + *count : len + 1;  // 1-based, [from, to)
  from = std::max<int64_t>(from, 1);
  to = std::min<int64_t>(to, len + 1);
  if (to <= from) return "";
  if (ascii) return std::string(s.substr(static_cast<size_t>(from - 1), static_cast<size_t>(to - from)));
  size_t b = ByteOffset(s, from - 1), e = ByteOffset(s, to - 1);
  return std::string(s.substr(b, e - b));
}

std::string Trim(std::string_view s, std::string_view chars, bool left, bool right) {
  auto in_set = [&](char c) { return chars.find(c) != std::string_view::npos; };
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && in_set(s[b])) ++b;
  if (right)
    while (e > b && in_set(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

double CheckFloat(double r, bool inputs_finite) {
  if (std::isinf(r) && inputs_finite) throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: overflow");
  return r;
}

std::string QuoteIdent(std::string_view s) {
  bool plain = !s.empty() && (std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      plain = false;
  if (plain) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string QuoteLiteral(std::string_view s) {
  bool backslash = s.find('\\') != std::string_view::npos;
  std::string out = backslash ? "E'" : "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out + "'";
}

// PostgreSQL's format(): %[n$][-][width]{s,I,L} and %%.
Datum Format(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  const std::string& f = a[0].s;
  std::string out;
  size_t next_arg = 1;
  for (size_t p = 0; p < f.size(); ++p) {
    if (f[p] != '%') {
      out += f[p];
      continue;
    }
    if (++p >= f.size()) throw SqlError(sqlstate::kInvalidParameterValue, "unterminated format() type specifier")
        .WithHint("For a single \"%\" use \"%%\".");
    if (f[p] == '%') {
      out += '%';
      continue;
    }
    // An optional argument position n$, then flags and width.
    size_t q = p;
    int64_t number = 0;
    while (q < f.size() && std::isdigit(static_cast<unsigned char>(f[q]))) number = number * 10 + (f[q++] - '0');
    size_t arg = next_arg;
    if (q < f.size() && f[q] == '$' && q > p) {
      if (number == 0) throw SqlError(sqlstate::kInvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1");
      arg = static_cast<size_t>(number);
      p = q + 1;
    }
    bool left = false;
    if (p < f.size() && f[p] == '-') {
      left = true;
      ++p;
    }
    int64_t width = 0;
    while (p < f.size() && std::isdigit(static_cast<unsigned char>(f[p]))) width = width * 10 + (f[p++] - '0');
    if (p >= f.size()) throw SqlError(sqlstate::kInvalidParameterValue, "unterminated format() type specifier")
        .WithHint("For a single \"%\" use \"%%\".");
    char type = f[p];
    if (type != 's' && type != 'I' && type != 'L')
      throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("unrecognized format() type specifier \"{}\"", type))
          .WithHint("For a single \"%\" use \"%%\".");
    if (arg >= a.size()) throw SqlError(sqlstate::kInvalidParameterValue, "too few arguments for format()");
    next_arg = arg + 1;
    const Datum& v = a[arg];
    std::string text;
    if (type == 's') {
      text = v.is_null() ? "" : v.s;
    } else if (type == 'I') {
      if (v.is_null()) throw SqlError("22004", "null values cannot be formatted as an SQL identifier");
      text = QuoteIdent(v.s);
    } else {
      text = v.is_null() ? "NULL" : QuoteLiteral(v.s);
    }
    int64_t len = CharLength(text);
    if (len < width) text = left ? text + std::string(width - len, ' ') : std::string(width - len, ' ') + text;
    out += text;
  }
  return Datum::String(std::move(out));
}

// The characters of UTF-8 `s`, each as its bytes.
std::vector<std::string_view> Chars(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t p = 0; p < s.size();) {
    size_t q = p + 1;
    while (q < s.size() && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) ++q;
    out.push_back(s.substr(p, q - p));
    p = q;
  }
  return out;
}

// lpad / rpad: `s` cut or filled with `fill` (cycled) to `length` characters. As
// PostgreSQL: a negative length is 0, and an empty fill leaves `s` only cut.
std::string Pad(std::string_view s, int64_t length, std::string_view fill, bool left) {
  length = std::max<int64_t>(length, 0);
  if (length > (1 << 28)) throw SqlError("54000", "requested length too large");
  std::vector<std::string_view> chars = Chars(s), with = Chars(fill);
  const size_t keep = std::min(chars.size(), static_cast<size_t>(length));
  std::string body;
  for (size_t i = 0; i < keep; ++i) body += chars[i];
  std::string pad;
  if (!with.empty())
    for (size_t i = keep; i < static_cast<size_t>(length); ++i) pad += with[(i - keep) % with.size()];
  return left ? pad + body : body + pad;
}

std::string Utf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

std::vector<Datum> ElementsOf(const Datum& array) {
  return array.is_null() ? std::vector<Datum>() : *array.array;
}

// The array functions, whose NULL rules are their own (a NULL array is an empty one).
Datum EvalArrayFunction(Func func, std::span<const Datum> a) {
  switch (func) {
    case Func::kArrayAppend: {
      std::vector<Datum> out = ElementsOf(a[0]);
      out.push_back(a[1]);
      return Datum::Array(std::move(out));
    }
    case Func::kArrayPrepend: {
      std::vector<Datum> out;
      out.reserve(a[1].is_null() ? 1 : a[1].array->size() + 1);
      out.push_back(a[0]);
      if (!a[1].is_null()) out.insert(out.end(), a[1].array->begin(), a[1].array->end());
      return Datum::Array(std::move(out));
    }
    case Func::kArrayCat: {
      if (a[0].is_null()) return a[1];
      if (a[1].is_null()) return a[0];
      std::vector<Datum> out = *a[0].array;
      out.insert(out.end(), a[1].array->begin(), a[1].array->end());
      return Datum::Array(std::move(out));
    }
    case Func::kArraySet: {
      if (a[1].is_null())
        throw SqlError(sqlstate::kNullValueNotAllowed, "array subscript in assignment must not be null");
      std::vector<Datum> out = ElementsOf(a[0]);
      const int64_t i = a[1].i;
      // PostgreSQL would move the lower bound (v[0] := x on {a}: [0:1]={x,a}); arrays here
      // always start at 1.
      if (i < 1 || (out.empty() && i != 1))
        throw SqlError(sqlstate::kFeatureNotSupported,
                       fmt::format("array subscript {} in assignment would make an array not starting at 1", i))
            .WithHint("Arrays here have the lower bound 1: assign elements from 1 upwards.");
      if (i > kMaxArraySize)
        throw SqlError(sqlstate::kProgramLimitExceeded, fmt::format("array size exceeds the maximum allowed ({})", kMaxArraySize));
      if (i > static_cast<int64_t>(out.size())) out.resize(static_cast<size_t>(i));  // NULL-filled
      out[static_cast<size_t>(i - 1)] = a[2];
      return Datum::Array(std::move(out));
    }
    default: throw SqlError(sqlstate::kInternalError, "not an array function");
  }
}

}  // namespace

std::optional<FunctionMatch> ResolveFunction(std::string_view name, std::span<const SqlType> args) {
  const Signature* best = nullptr;
  int best_exact = -1, best_preferred = -1;
  for (const Signature& sig : Signatures()) {
    if (sig.name != name) continue;
    if (sig.variadic_text) {
      if (args.size() <= sig.params.size()) continue;
      bool fixed_ok = true;
      for (size_t i = 0; i < sig.params.size(); ++i)
        if (args[i].id != sig.params[i] && CastContextFor(args[i], SqlType::Of(sig.params[i])) != CastContext::kImplicit)
          fixed_ok = false;
      if (!fixed_ok) continue;
      FunctionMatch m{sig.func, {}, SqlType::Of(TypeId::kText)};
      for (size_t i = 0; i < args.size(); ++i) m.params.push_back(SqlType::Of(TypeId::kText));
      return m;
    }
    if (sig.params.size() != args.size()) continue;
    int exact = 0, preferred = 0;
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i) {
      SqlType p = SqlType::Of(sig.params[i]);
      if (args[i].id == p.id) {
        ++exact;
      } else if (CastContextFor(args[i], p) == CastContext::kImplicit) {
        if (IsPreferred(p.id)) ++preferred;
      } else {
        ok = false;
      }
    }
    if (!ok) continue;
    if (exact > best_exact || (exact == best_exact && preferred > best_preferred)) {
      best = &sig;
      best_exact = exact;
      best_preferred = preferred;
    }
  }
  if (!best) return std::nullopt;
  FunctionMatch m{best->func, {}, {}};
  for (TypeId t : best->params) m.params.push_back(SqlType::Of(t));
  m.result = SqlType::Of(best->result);
  return m;
}

const char* NonDeterministicReason(std::string_view name) {
  if (name == "setseed") return "each transaction seeds its own random(), so that a replay of the input log draws the same values";
  if (name == "uuid_generate_v1" || name == "uuid_generate_v1mc" || name == "gen_random_bytes")
    return "its values depend on the clock, the network card or fresh randomness, which differ between replays of the "
           "input log (uuid_generate_v4() and gen_random_uuid() are replayable)";
  if (name == "clock_timestamp" || name == "timeofday")
    return "the wall clock differs between replays of the input log";
  return nullptr;
}

std::string FailingRow(std::span<const std::optional<std::string>> values) {
  std::string shown;
  for (size_t c = 0; c < values.size(); ++c) {
    if (c > 0) shown += ", ";
    shown += values[c] ? *values[c] : std::string("null");
  }
  return fmt::format("Failing row contains ({}).", shown);
}

namespace {

[[noreturn]] void RaiseCheckViolation(std::span<const Datum> a) {
  const std::string& table = a[0].s;
  const std::string& flags = a[2].s;
  std::vector<std::string> names;
  for (size_t start = 0;;) {
    size_t end = a[3].s.find('\x1f', start);
    names.push_back(a[3].s.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<std::optional<std::string>> values;
  for (size_t i = 4; i < a.size(); ++i) values.push_back(a[i].is_null() ? std::nullopt : std::optional(a[i].s));
  // PostgreSQL checks NOT NULL before the CHECK constraints.
  for (size_t c = 0; c < values.size() && c < flags.size(); ++c)
    if (flags[c] == '1' && !values[c])
      throw SqlError(sqlstate::kNotNullViolation,
                     fmt::format("null value in column \"{}\" of relation \"{}\" violates not-null constraint",
                                 c < names.size() ? names[c] : "?", table))
          .WithDetail(FailingRow(values));
  throw SqlError("23514", fmt::format("new row for relation \"{}\" violates check constraint \"{}\"", table, a[1].s))
      .WithDetail(FailingRow(values));
}

}  // namespace

Datum EvalFunction(Func func, const SqlType& result, std::span<const Datum> a) {
  if (func == Func::kDomainCheck) return CheckDomain(result, a[0]);  // NULL too
  if (func == Func::kFormat) return Format(a);
  if (func == Func::kCheckViolation) RaiseCheckViolation(a);
  if (func >= Func::kEnumFirst) return EvalEnumBuiltin(func, result, a);  // NULL rules of their own
  if (func >= Func::kArrayRemove) return EvalArrayBuiltin(func, a);  // NULL rules of their own
  if (func >= Func::kJsonGet) return EvalJsonFunction(func, result, a);  // NULL rules of their own
  if (func >= Func::kUuidFromDraws) return EvalBytesFunction(func, a);
  if (func >= Func::kNow) return EvalDateTimeFunction(func, result, a);  // NULL rules of their own (now())
  // concat(), concat_ws() and the array functions have NULL rules of their own.
  const bool array_function =
      func == Func::kArrayAppend || func == Func::kArrayPrepend || func == Func::kArrayCat || func == Func::kArraySet;
  if (func != Func::kConcat && func != Func::kConcatWs && !array_function)
    for (const Datum& d : a)
      if (d.is_null()) return Datum::Null();
  switch (func) {
    case Func::kAbs:
      switch (a[0].kind) {
        case Datum::Kind::kInt: return Datum::Int(CheckIntRange(a[0].i < 0 ? -static_cast<__int128>(a[0].i) : a[0].i, result.id));
        case Datum::Kind::kFloat: return Datum::Float(std::fabs(a[0].f));
        default: return Datum::Num(a[0].n.sign() < 0 ? -a[0].n : a[0].n);
      }
    case Func::kRound:
    case Func::kTrunc: {
      bool round = func == Func::kRound;
      if (a[0].kind == Datum::Kind::kFloat) return Datum::Float(round ? std::rint(a[0].f) : std::trunc(a[0].f));
      int64_t places = a.size() > 1 ? a[1].i : 0;
      places = std::clamp<int64_t>(places, -38, Numeric::kMaxScale);
      if (places >= 0) return Datum::Num(round ? a[0].n.Rescale(static_cast<int>(places)) : a[0].n.Truncate(static_cast<int>(places)));
      // Negative places: round to tens, hundreds, ...; the result has scale 0.
      Numeric unit(Pow10(static_cast<int>(-places)), 0);
      int128 q = round ? Numeric::Divide(a[0].n, unit, 0).mantissa() : a[0].n.Truncate(0).mantissa() / unit.mantissa();
      return Datum::Num(Numeric(q * unit.mantissa(), 0));
    }
    case Func::kFloor:
      if (a[0].kind == Datum::Kind::kFloat) return Datum::Float(std::floor(a[0].f));
      return Datum::Num(a[0].n.Floor());
    case Func::kCeil:
      if (a[0].kind == Datum::Kind::kFloat) return Datum::Float(std::ceil(a[0].f));
      return Datum::Num(a[0].n.Ceil());
    case Func::kMod:
      if (a[0].kind == Datum::Kind::kInt) {
        if (a[1].i == 0) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
        if (a[1].i == -1) return Datum::Int(0);
        return Datum::Int(a[0].i % a[1].i);
      }
      return Datum::Num(a[0].n % a[1].n);
    case Func::kPower: {
      if (a[0].f == 0 && a[1].f < 0)
        throw SqlError("2201F", "zero raised to a negative power is undefined");
      if (a[0].f < 0 && std::floor(a[1].f) != a[1].f)
        throw SqlError("2201F", "a negative number raised to a non-integer power yields a complex result");
      return Datum::Float(CheckFloat(std::pow(a[0].f, a[1].f), std::isfinite(a[0].f) && std::isfinite(a[1].f)));
    }
    case Func::kSqrt:
      if (a[0].f < 0) throw SqlError("2201F", "cannot take square root of a negative number");
      return Datum::Float(std::sqrt(a[0].f));
    case Func::kSign:
      if (a[0].kind == Datum::Kind::kFloat) return Datum::Float(a[0].f > 0 ? 1 : (a[0].f < 0 ? -1 : 0));
      return Datum::Num(Numeric(a[0].n.sign(), 0));
    case Func::kLength: return Datum::Int(CharLength(a[0].s));
    case Func::kOctetLength: return Datum::Int(static_cast<int64_t>(a[0].s.size()));
    case Func::kBitLength: return Datum::Int(static_cast<int64_t>(a[0].s.size()) * 8);
    case Func::kLower:
    case Func::kUpper: {
      std::string s = a[0].s;
      for (char& c : s)
        c = static_cast<char>(func == Func::kLower ? std::tolower(static_cast<unsigned char>(c))
                                                   : std::toupper(static_cast<unsigned char>(c)));
      return Datum::String(std::move(s));
    }
    case Func::kSubstr:
      return Datum::String(Substr(a[0].s, a[1].i, a.size() > 2 ? std::optional<int64_t>(a[2].i) : std::nullopt));
    case Func::kBtrim:
    case Func::kLtrim:
    case Func::kRtrim: {
      std::string_view chars = a.size() > 1 ? std::string_view(a[1].s) : std::string_view(" ");
      return Datum::String(Trim(a[0].s, chars, func != Func::kRtrim, func != Func::kLtrim));
    }
    case Func::kReplace: {
      if (a[1].s.empty()) return a[0];
      std::string out;
      size_t p = 0;
      for (size_t q; (q = a[0].s.find(a[1].s, p)) != std::string::npos; p = q + a[1].s.size())
        out += a[0].s.substr(p, q - p) + a[2].s;
      return Datum::String(out + a[0].s.substr(p));
    }
    case Func::kStrpos: {
      size_t p = a[0].s.find(a[1].s);
      return Datum::Int(p == std::string::npos ? 0 : CharLength(std::string_view(a[0].s).substr(0, p)) + 1);
    }
    case Func::kLeft:
    case Func::kRight: {
      int64_t len = CharLength(a[0].s), n = a[1].i;
      int64_t keep = n >= 0 ? std::min(n, len) : std::max<int64_t>(len + n, 0);
      if (func == Func::kLeft) return Datum::String(a[0].s.substr(0, ByteOffset(a[0].s, keep)));
      return Datum::String(a[0].s.substr(ByteOffset(a[0].s, len - keep)));
    }
    case Func::kConcat: {
      std::string out;
      for (const Datum& d : a)
        if (!d.is_null()) out += d.s;
      return Datum::String(std::move(out));
    }
    case Func::kConcatWs: {
      // The separator goes between the non-NULL values; a NULL separator is a NULL result.
      if (a[0].is_null()) return Datum::Null();
      std::string out;
      bool first = true;
      for (const Datum& d : a.subspan(1)) {
        if (d.is_null()) continue;
        if (!first) out += a[0].s;
        out += d.s;
        first = false;
      }
      return Datum::String(std::move(out));
    }
    case Func::kAscii: {
      const std::string& s = a[0].s;
      if (s.empty()) return Datum::Int(0);
      auto b = static_cast<unsigned char>(s[0]);
      if (b < 0x80) return Datum::Int(b);
      int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : 1;
      uint32_t cp = b & (0x3F >> extra);
      for (int k = 1; k <= extra && k < static_cast<int>(s.size()); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3F);
      return Datum::Int(cp);
    }
    case Func::kRepeat: {
      if (a[1].i <= 0) return Datum::String("");
      if (static_cast<double>(a[0].s.size()) * static_cast<double>(a[1].i) >= (1 << 30))
        throw SqlError("54000", "requested length too large");
      std::string out;
      out.reserve(a[0].s.size() * a[1].i);
      for (int64_t k = 0; k < a[1].i; ++k) out += a[0].s;
      return Datum::String(std::move(out));
    }
    case Func::kLpad:
    case Func::kRpad:
      return Datum::String(Pad(a[0].s, a[1].i, a.size() > 2 ? std::string_view(a[2].s) : " ", func == Func::kLpad));
    case Func::kReverse: {
      std::vector<std::string_view> chars = Chars(a[0].s);
      std::string out;
      for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
      return Datum::String(std::move(out));
    }
    case Func::kInitcap: {
      // PostgreSQL's C-locale initcap: a letter after a letter or digit is lowered, any
      // other raised; other bytes are kept.
      std::string out = a[0].s;
      bool after_alnum = false;
      for (char& c : out) {
        if (after_alnum ? (c >= 'A' && c <= 'Z') : (c >= 'a' && c <= 'z')) c = static_cast<char>(c ^ 0x20);
        after_alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      }
      return Datum::String(std::move(out));
    }
    case Func::kSplitPart: {
      const std::string& s = a[0].s;
      const std::string& delimiter = a[1].s;
      const int64_t n = a[2].i;
      if (n == 0) throw SqlError(sqlstate::kInvalidParameterValue, "field position must not be zero");
      if (delimiter.empty()) return Datum::String(n == 1 || n == -1 ? s : std::string());
      std::vector<std::string_view> fields;
      for (size_t from = 0;;) {
        size_t at = s.find(delimiter, from);
        fields.push_back(std::string_view(s).substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) break;
        from = at + delimiter.size();
      }
      const int64_t count = static_cast<int64_t>(fields.size());
      const int64_t index = n > 0 ? n - 1 : count + n;
      return Datum::String(index >= 0 && index < count ? std::string(fields[static_cast<size_t>(index)]) : std::string());
    }
    case Func::kStartsWith: return Datum::Bool(std::string_view(a[0].s).starts_with(a[1].s));
    case Func::kTranslate: {
      std::vector<std::string_view> from = Chars(a[1].s), to = Chars(a[2].s);
      std::string out;
      for (std::string_view c : Chars(a[0].s)) {
        auto it = std::find(from.begin(), from.end(), c);
        if (it == from.end()) out += c;
        else if (static_cast<size_t>(it - from.begin()) < to.size()) out += to[static_cast<size_t>(it - from.begin())];
      }
      return Datum::String(std::move(out));
    }
    case Func::kPi: return Datum::Float(std::numbers::pi);
    case Func::kRandom: throw SqlError(sqlstate::kInternalError, "random() evaluated without its stream");
    case Func::kCheckViolation: RaiseCheckViolation(a);
    case Func::kToCharNumber: {
      // The value rounded to the format's fractional positions, as digits and a sign.
      const int frac = FractionDigits(a[1].s);
      std::string digits;
      bool negative = false;
      if (a[0].kind == Datum::Kind::kInt) {
        negative = a[0].i < 0;
        digits = Int128ToString(negative ? -static_cast<__int128>(a[0].i) : static_cast<__int128>(a[0].i));
      } else if (a[0].kind == Datum::Kind::kNumeric) {
        Numeric r = a[0].n.Rescale(frac);
        negative = r.sign() < 0;
        digits = (negative ? -r : r).ToString();
      } else {
        negative = std::signbit(a[0].f) && a[0].f != 0;
        digits = fmt::format("{:.{}f}", std::fabs(a[0].f), frac);
      }
      return Datum::String(FormatNumber(digits, negative, a[1].s));
    }
    case Func::kNow: case Func::kDateTrunc: case Func::kDatePart: case Func::kExtract: case Func::kAge:
    case Func::kJustifyDays: case Func::kJustifyHours: case Func::kJustifyInterval: case Func::kMakeDate:
    case Func::kMakeTime: case Func::kMakeTimestamp: case Func::kToChar: case Func::kToTimestamp: case Func::kToDate:
    case Func::kIsFinite: case Func::kTimezone: return EvalDateTimeFunction(func, result, a);
    case Func::kUuidFromDraws: case Func::kMd5: case Func::kSha224: case Func::kSha256: case Func::kSha384:
    case Func::kSha512: case Func::kEncode: case Func::kDecode: case Func::kConvertTo: case Func::kConvertFrom:
    case Func::kGetByte: case Func::kUuidNameBased: case Func::kDigest: case Func::kHmac:
      return EvalBytesFunction(func, a);
    case Func::kJsonGet: case Func::kJsonGetText: case Func::kJsonPath: case Func::kJsonPathText:
    case Func::kJsonbContains: case Func::kJsonbExists: case Func::kJsonbExistsAny: case Func::kJsonbExistsAll:
    case Func::kJsonbConcat: case Func::kJsonbDelete: case Func::kToJson: case Func::kJsonBuildObject: case Func::kJsonRow:
    case Func::kJsonBuildArray: case Func::kJsonTypeof: case Func::kJsonArrayLength: case Func::kJsonbSet:
    case Func::kJsonbStripNulls: case Func::kJsonbPretty: case Func::kJsonAgg: case Func::kJsonObjectAgg: case Func::kJsonArrayItems:
    case Func::kJsonObjectParts: return EvalJsonFunction(func, result, a);
    case Func::kArrayRemove: case Func::kArrayReplace: case Func::kArrayPosition: case Func::kArrayPositions:
    case Func::kArrayToString: case Func::kStringToArray: case Func::kArrayContains: case Func::kArrayContainedBy:
    case Func::kArrayOverlap: case Func::kArrayDims: case Func::kArrayNdims: case Func::kArrayFill:
    case Func::kArraySlice: return EvalArrayBuiltin(func, a);
    case Func::kEnumFirst: case Func::kEnumLast: case Func::kEnumRange: return EvalEnumBuiltin(func, result, a);
    case Func::kDomainCheck: return CheckDomain(result, a[0]);
    case Func::kChr: {
      if (a[0].i == 0) throw SqlError("54000", "null character not permitted");
      if (a[0].i < 0) throw SqlError("54000", "character number must be positive");
      if (a[0].i > 0x10FFFF || (a[0].i >= 0xD800 && a[0].i <= 0xDFFF))
        throw SqlError("54000", fmt::format("requested character too large for encoding: {}", a[0].i));
      return Datum::String(Utf8(static_cast<uint32_t>(a[0].i)));
    }
    case Func::kFormat: return Format(a);
    case Func::kBoolOut: return Datum::String(a[0].as_bool() ? "t" : "f");
    case Func::kCardinality: return Datum::Int(static_cast<int64_t>(a[0].array->size()));
    case Func::kArrayLength:
    case Func::kArrayUpper:
    case Func::kArrayLower: {
      if (a[1].i != 1 || a[0].array->empty()) return Datum::Null();
      return Datum::Int(func == Func::kArrayLower ? 1 : static_cast<int64_t>(a[0].array->size()));
    }
    case Func::kArrayAppend:
    case Func::kArrayPrepend:
    case Func::kArrayCat:
    case Func::kArraySet: return EvalArrayFunction(func, a);
  }
  throw SqlError(sqlstate::kInternalError, "unknown function");
}

}  // namespace caracal::planner
