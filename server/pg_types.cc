#include "server/pg_types.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "planner/types/bytes_text.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::server {

using planner::SqlType;
using planner::TypeId;

namespace {

int32_t ScalarOid(TypeId id) {
  switch (id) {
    case TypeId::kBool: return oid::kBool;
    case TypeId::kInt2: return oid::kInt2;
    case TypeId::kInt4: return oid::kInt4;
    case TypeId::kInt8: return oid::kInt8;
    case TypeId::kFloat4: return oid::kFloat4;
    case TypeId::kFloat8: return oid::kFloat8;
    case TypeId::kNumeric: return oid::kNumeric;
    case TypeId::kBpchar: return oid::kBpchar;
    case TypeId::kVarchar: return oid::kVarchar;
    case TypeId::kTimestamp: return oid::kTimestamp;
    case TypeId::kTimestampTz: return oid::kTimestamptz;
    case TypeId::kDate: return oid::kDate;
    case TypeId::kTime: return oid::kTime;
    case TypeId::kInterval: return oid::kInterval;
    case TypeId::kUuid: return oid::kUuid;
    case TypeId::kBytea: return oid::kBytea;
    case TypeId::kJson: return oid::kJson;
    case TypeId::kJsonb: return oid::kJsonb;
    case TypeId::kText:
    case TypeId::kUnknown:
    case TypeId::kArray:
    case TypeId::kEnum: return oid::kText;  // clients read both as their text
  }
  return oid::kText;
}

struct ArrayPair {
  int32_t element, array;
  const char* element_name;
  const char* cast;
};
// Element OID, array OID, element typname, the cast spelling of the element.
constexpr ArrayPair kArrays[] = {
    {oid::kBool, 1000, "bool", "boolean"},          {oid::kInt2, 1005, "int2", "smallint"},
    {oid::kInt4, 1007, "int4", "integer"},          {oid::kInt8, 1016, "int8", "bigint"},
    {oid::kText, 1009, "text", "text"},             {oid::kBpchar, 1014, "bpchar", "character"},
    {oid::kVarchar, 1015, "varchar", "character varying"}, {oid::kFloat4, 1021, "float4", "real"},
    {oid::kFloat8, 1022, "float8", "double precision"},    {oid::kTimestamp, 1115, "timestamp", "timestamp"},
    {oid::kNumeric, 1231, "numeric", "numeric"},    {oid::kDate, 1182, "date", "date"},
    {oid::kName, 1003, "name", "name"},             {oid::kOid, 1028, "oid", "oid"},
    {oid::kChar, 1002, "char", "\"char\""},
    {oid::kTimestamptz, 1185, "timestamptz", "timestamp with time zone"},
    {oid::kTime, 1183, "time", "time without time zone"},
    {oid::kInterval, 1187, "interval", "interval"},
    {oid::kUuid, 2951, "uuid", "uuid"},
    {oid::kBytea, 1001, "bytea", "bytea"},
    {oid::kJson, 199, "json", "json"},
    {oid::kJsonb, 3807, "jsonb", "jsonb"},
};

[[noreturn]] void BadBinary(int32_t type_oid) {
  throw planner::SqlError("22P03", fmt::format("incorrect binary data format in bind parameter of type {}",
                                               TypeName(type_oid)));
}

uint64_t BigEndian(std::string_view b) {
  uint64_t v = 0;
  for (char c : b) v = (v << 8) | static_cast<unsigned char>(c);
  return v;
}

void PutBigEndian(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// Microseconds and days between 1970-01-01 and PostgreSQL's epoch, 2000-01-01.
constexpr int64_t kPgEpochDays = 10957;

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::string CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  return fmt::format("{:04}-{:02}-{:02}", y, m, d);
}

template <typename T>
T ParseNumber(std::string_view text, int32_t type_oid) {
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    throw planner::SqlError("22P02", fmt::format("invalid value \"{}\" for binary output of {}", text, TypeName(type_oid)));
  return v;
}

double ParseDouble(std::string_view text) {
  std::string s(text);
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return INFINITY;
  if (s == "-Infinity") return -INFINITY;
  return std::strtod(s.c_str(), nullptr);
}

}  // namespace

int32_t TypeOid(const SqlType& type) {
  if (!type.is_array()) return ScalarOid(type.id);
  int32_t element = ScalarOid(type.element);
  for (const ArrayPair& a : kArrays)
    if (a.element == element) return a.array;
  return 1009;
}

int16_t TypeSize(int32_t type_oid) {
  switch (type_oid) {
    case oid::kBool:
    case oid::kChar: return 1;
    case oid::kInt2: return 2;
    case oid::kInt4:
    case oid::kOid:
    case oid::kFloat4:
    case oid::kDate:
    case oid::kRegproc:
    case oid::kRegclass:
    case oid::kRegtype: return 4;
    case oid::kInt8:
    case oid::kFloat8:
    case oid::kTimestamp:
    case oid::kTimestamptz:
    case oid::kTime: return 8;
    case oid::kInterval:
    case oid::kUuid: return 16;
    case oid::kName: return 64;
    default: return -1;
  }
}

int32_t TypeModifier(const SqlType& type) {
  TypeId id = type.is_array() ? type.element : type.id;
  if (id == TypeId::kNumeric && type.precision >= 0) return ((type.precision << 16) | std::max(type.scale, 0)) + 4;
  if ((id == TypeId::kBpchar || id == TypeId::kVarchar) && type.precision >= 0) return type.precision + 4;
  if ((id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTime) && type.precision >= 0)
    return type.precision;
  if (id == TypeId::kInterval && type.precision >= 0) return (0x7FFF << 16) | type.precision;  // every field
  return -1;
}

std::optional<std::string> CastName(int32_t type_oid) {
  switch (type_oid) {
    case oid::kBool: return "boolean";
    case oid::kInt2: return "smallint";
    case oid::kInt4: return "integer";
    case oid::kInt8: return "bigint";
    case oid::kText: return "text";
    case oid::kFloat4: return "real";
    case oid::kFloat8: return "double precision";
    case oid::kNumeric: return "numeric";
    case oid::kBpchar: return "character";
    case oid::kVarchar: return "character varying";
    case oid::kTimestamp: return "timestamp";
    case oid::kTimestamptz: return "timestamp with time zone";
    case oid::kDate: return "date";
    case oid::kTime: return "time without time zone";
    case oid::kInterval: return "interval";
    case oid::kUuid: return "uuid";
    case oid::kBytea: return "bytea";
    case oid::kJson: return "json";
    case oid::kJsonb: return "jsonb";
    default: break;
  }
  for (const ArrayPair& a : kArrays)
    if (a.array == type_oid && CastName(a.element)) return std::string(a.cast) + "[]";
  return std::nullopt;
}

std::string TypeName(int32_t type_oid) {
  switch (type_oid) {
    case oid::kBool: return "bool";
    case oid::kBytea: return "bytea";
    case oid::kName: return "name";
    case oid::kChar: return "char";
    case oid::kInt2: return "int2";
    case oid::kInt4: return "int4";
    case oid::kInt8: return "int8";
    case oid::kText: return "text";
    case oid::kOid: return "oid";
    case oid::kFloat4: return "float4";
    case oid::kFloat8: return "float8";
    case oid::kUnknown: return "unknown";
    case oid::kBpchar: return "bpchar";
    case oid::kVarchar: return "varchar";
    case oid::kDate: return "date";
    case oid::kTime: return "time";
    case oid::kTimestamp: return "timestamp";
    case oid::kTimestamptz: return "timestamptz";
    case oid::kNumeric: return "numeric";
    case oid::kRegproc: return "regproc";
    case oid::kRegclass: return "regclass";
    case oid::kRegtype: return "regtype";
    case oid::kUuid: return "uuid";
    case oid::kInterval: return "interval";
    case oid::kJson: return "json";
    case oid::kJsonb: return "jsonb";
    default: break;
  }
  for (const ArrayPair& a : kArrays)
    if (a.array == type_oid) return std::string("_") + a.element_name;
  return "unknown";
}

std::string NumericToBinary(std::string_view text) {
  std::string out;
  auto header = [&](int ndigits, int weight, int sign, int dscale) {
    PutBigEndian(out, static_cast<uint16_t>(ndigits), 2);
    PutBigEndian(out, static_cast<uint16_t>(static_cast<int16_t>(weight)), 2);
    PutBigEndian(out, static_cast<uint16_t>(sign), 2);
    PutBigEndian(out, static_cast<uint16_t>(dscale), 2);
  };
  if (text == "NaN") {
    header(0, 0, 0xC000, 0);
    return out;
  }
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string int_part(text.substr(0, dot));
  std::string frac_part(dot == std::string_view::npos ? "" : text.substr(dot + 1));
  for (char c : int_part + frac_part)
    if (c < '0' || c > '9') throw planner::SqlError("22P02", fmt::format("invalid input syntax for type numeric: \"{}\"", text));
  int dscale = static_cast<int>(frac_part.size());
  // Integer digits padded on the left, fraction digits on the right, to groups of 4.
  while (int_part.size() % 4) int_part.insert(0, 1, '0');
  while (frac_part.size() % 4) frac_part.push_back('0');
  std::vector<int> groups;
  for (size_t i = 0; i < int_part.size(); i += 4) groups.push_back(std::stoi(int_part.substr(i, 4)));
  int weight = static_cast<int>(groups.size()) - 1;
  for (size_t i = 0; i < frac_part.size(); i += 4) groups.push_back(std::stoi(frac_part.substr(i, 4)));
  size_t first = 0;
  while (first < groups.size() && groups[first] == 0) {
    ++first;
    --weight;
  }
  size_t last = groups.size();
  while (last > first && groups[last - 1] == 0) --last;
  if (first == last) {
    header(0, 0, 0, dscale);
    return out;
  }
  header(static_cast<int>(last - first), weight, negative ? 0x4000 : 0, dscale);
  for (size_t i = first; i < last; ++i) PutBigEndian(out, static_cast<uint16_t>(groups[i]), 2);
  return out;
}

std::string NumericFromBinary(std::string_view b) {
  if (b.size() < 8) BadBinary(oid::kNumeric);
  int ndigits = static_cast<int16_t>(BigEndian(b.substr(0, 2)));
  int weight = static_cast<int16_t>(BigEndian(b.substr(2, 2)));
  int sign = static_cast<uint16_t>(BigEndian(b.substr(4, 2)));
  int dscale = static_cast<int16_t>(BigEndian(b.substr(6, 2)));
  if (ndigits < 0 || dscale < 0 || dscale > 1000 || b.size() != 8 + 2 * static_cast<size_t>(ndigits) ||
      weight < -1000 || weight > 1000)
    BadBinary(oid::kNumeric);
  if (sign == 0xC000) return "NaN";
  if (sign != 0 && sign != 0x4000) BadBinary(oid::kNumeric);
  std::vector<int> digits;
  for (int i = 0; i < ndigits; ++i) {
    int d = static_cast<int>(BigEndian(b.substr(8 + 2 * i, 2)));
    if (d > 9999) BadBinary(oid::kNumeric);
    digits.push_back(d);
  }
  auto digit_at = [&](int w) {  // the base-10000 digit of weight w
    int i = weight - w;
    return i >= 0 && i < ndigits ? digits[i] : 0;
  };
  std::string s;
  if (weight < 0) {
    s = "0";
  } else {
    s = std::to_string(digit_at(weight));
    for (int w = weight - 1; w >= 0; --w) s += fmt::format("{:04}", digit_at(w));
  }
  if (dscale > 0) {
    std::string frac;
    for (int w = -1; static_cast<int>(frac.size()) < dscale; --w) frac += fmt::format("{:04}", digit_at(w));
    s += "." + frac.substr(0, dscale);
  }
  bool zero = s.find_first_not_of("0.") == std::string::npos;
  return sign == 0x4000 && !zero ? "-" + s : s;
}

std::string TextFromBinary(int32_t type_oid, std::string_view b) {
  switch (type_oid) {
    case oid::kBool:
      if (b.size() != 1) BadBinary(type_oid);
      return b[0] ? "t" : "f";
    case oid::kInt2:
      if (b.size() != 2) BadBinary(type_oid);
      return std::to_string(static_cast<int16_t>(BigEndian(b)));
    case oid::kInt4:
    case oid::kOid:
      if (b.size() != 4) BadBinary(type_oid);
      return type_oid == oid::kOid ? std::to_string(static_cast<uint32_t>(BigEndian(b)))
                                   : std::to_string(static_cast<int32_t>(BigEndian(b)));
    case oid::kInt8:
      if (b.size() != 8) BadBinary(type_oid);
      return std::to_string(static_cast<int64_t>(BigEndian(b)));
    case oid::kFloat4:
      if (b.size() != 4) BadBinary(type_oid);
      return planner::Float4Text(std::bit_cast<float>(static_cast<uint32_t>(BigEndian(b))));
    case oid::kFloat8:
      if (b.size() != 8) BadBinary(type_oid);
      return planner::Float8Text(std::bit_cast<double>(BigEndian(b)));
    case oid::kNumeric: return NumericFromBinary(b);
    case oid::kTimestamp:
    case oid::kTimestamptz:
      if (b.size() != 8) BadBinary(type_oid);
      return planner::datetime::FormatTimestamp(static_cast<int64_t>(BigEndian(b)), type_oid == oid::kTimestamptz);
    case oid::kTime:
      if (b.size() != 8) BadBinary(type_oid);
      return planner::datetime::FormatTime(static_cast<int64_t>(BigEndian(b)));
    case oid::kInterval:
      if (b.size() != 16) BadBinary(type_oid);
      return planner::datetime::FormatInterval({static_cast<int32_t>(BigEndian(b.substr(12, 4))),
                                                static_cast<int32_t>(BigEndian(b.substr(8, 4))),
                                                static_cast<int64_t>(BigEndian(b.substr(0, 8)))});
    case oid::kDate:
      if (b.size() != 4) BadBinary(type_oid);
      return CivilFromDays(static_cast<int32_t>(BigEndian(b)) + kPgEpochDays);
    case oid::kUuid:
      if (b.size() != 16) BadBinary(type_oid);
      return planner::FormatUuid(b);
    case oid::kBytea: return planner::FormatBytea(b);
    case oid::kJsonb:  // a version byte (1), then the text
      if (b.empty() || b[0] != 1) BadBinary(type_oid);
      return std::string(b.substr(1));
    case oid::kJson: return std::string(b);
    case oid::kUnspecified:
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
    case oid::kUnknown: return std::string(b);
    default:
      throw planner::SqlError("0A000", fmt::format("binary format for type {} (OID {}) is not supported",
                                                   TypeName(type_oid), type_oid));
  }
}

std::string BinaryFromText(int32_t type_oid, std::string_view text) {
  std::string out;
  switch (type_oid) {
    case oid::kBool: out.push_back(text == "t" || text == "true" ? 1 : 0); return out;
    case oid::kInt2: PutBigEndian(out, static_cast<uint16_t>(ParseNumber<int16_t>(text, type_oid)), 2); return out;
    case oid::kInt4: PutBigEndian(out, static_cast<uint32_t>(ParseNumber<int32_t>(text, type_oid)), 4); return out;
    case oid::kOid: PutBigEndian(out, ParseNumber<uint32_t>(text, type_oid), 4); return out;
    case oid::kInt8: PutBigEndian(out, static_cast<uint64_t>(ParseNumber<int64_t>(text, type_oid)), 8); return out;
    case oid::kFloat4:
      PutBigEndian(out, std::bit_cast<uint32_t>(static_cast<float>(ParseDouble(text))), 4);
      return out;
    case oid::kFloat8: PutBigEndian(out, std::bit_cast<uint64_t>(ParseDouble(text)), 8); return out;
    case oid::kNumeric: return NumericToBinary(text);
    case oid::kTimestamp:
    case oid::kTimestamptz:
      PutBigEndian(out, static_cast<uint64_t>(planner::datetime::ParseTimestamp(text, type_oid == oid::kTimestamptz)), 8);
      return out;
    case oid::kTime: PutBigEndian(out, static_cast<uint64_t>(planner::datetime::ParseTime(text)), 8); return out;
    case oid::kInterval: {
      planner::datetime::Interval iv = planner::datetime::ParseInterval(text);
      PutBigEndian(out, static_cast<uint64_t>(iv.us), 8);
      PutBigEndian(out, static_cast<uint32_t>(iv.days), 4);
      PutBigEndian(out, static_cast<uint32_t>(iv.months), 4);
      return out;
    }
    case oid::kDate: {
      int y = 0;
      unsigned m = 0, d = 0;
      if (std::sscanf(std::string(text).c_str(), "%d-%u-%u", &y, &m, &d) != 3) BadBinary(type_oid);
      PutBigEndian(out, static_cast<uint32_t>(static_cast<int32_t>(DaysFromCivil(y, m, d) - kPgEpochDays)), 4);
      return out;
    }
    case oid::kUuid: return planner::ParseUuid(text);
    case oid::kBytea: return planner::ParseBytea(text);
    case oid::kJsonb: return "\x01" + std::string(text);
    case oid::kJson: return std::string(text);
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar:
    case oid::kName:
    case oid::kChar:
    case oid::kUnknown: return std::string(text);
    default:
      throw planner::SqlError("0A000", fmt::format("binary format for type {} (OID {}) is not supported",
                                                   TypeName(type_oid), type_oid));
  }
}

}  // namespace caracal::server
