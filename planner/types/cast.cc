#include "planner/types/cast.h"

#include <fmt/format.h>

#include <cmath>

#include "planner/types/json.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

int IntRank(TypeId t) { return t == TypeId::kInt2 ? 0 : t == TypeId::kInt4 ? 1 : 2; }

[[noreturn]] void IntOutOfRange(TypeId t) {
  const char* name = t == TypeId::kInt2 ? "smallint" : t == TypeId::kInt4 ? "integer" : "bigint";
  throw SqlError(sqlstate::kNumericOutOfRange, fmt::format("{} out of range", name));
}

// json -> jsonb, jsonb -> json, and jsonb to a number or a boolean (a scalar of that kind,
// else PostgreSQL's 22023 naming what the value is).
Datum CastFromJson(const Datum& v, const SqlType& from, const SqlType& to, bool explicit_cast) {
  if (to.id == TypeId::kJson) return v;  // jsonb's canonical text is valid json
  const JsonNode node = ParseJson(v.s);
  if (to.id == TypeId::kJsonb) return Datum::String(JsonbText(ToJsonb(node)));
  const bool number = to.is_numeric_category();
  const JsonNode::Kind want = number ? JsonNode::Kind::kNumber : JsonNode::Kind::kBool;
  if (from.id != TypeId::kJsonb || (!number && to.id != TypeId::kBool))
    throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", from.BaseName(), to.Name()));
  if (node.kind != want)
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("cannot cast jsonb {} to type {}", JsonTypeName(node), to.BaseName()));
  if (!number) return Datum::Bool(node.boolean);
  return CastDatum(Datum::Num(*Numeric::Parse(node.text)), SqlType::Of(TypeId::kNumeric), to, explicit_cast);
}

}  // namespace

int64_t CheckIntRange(__int128 v, TypeId type) {
  __int128 lo = type == TypeId::kInt2 ? INT16_MIN : type == TypeId::kInt4 ? INT32_MIN : INT64_MIN;
  __int128 hi = type == TypeId::kInt2 ? INT16_MAX : type == TypeId::kInt4 ? INT32_MAX : INT64_MAX;
  if (v < lo || v > hi) IntOutOfRange(type);
  return static_cast<int64_t>(v);
}

CastContext CastContextFor(const SqlType& from, const SqlType& to) {
  if (from.is_array() && to.is_array()) {
    // array_coerce: as the element conversion (int[] -> bigint[] implicit, ...).
    if (from.element == to.element && from.enum_type == to.enum_type) return CastContext::kImplicit;
    return CastContextFor(from.Element(), to.Element());
  }
  if (from.is_unknown()) return CastContext::kImplicit;
  if (from.is_array()) return to.is_string() ? CastContext::kAssignment : CastContext::kNone;
  if (to.is_array()) return from.is_string() ? CastContext::kExplicit : CastContext::kNone;
  if (from.id == to.id) return from.enum_type == to.enum_type ? CastContext::kImplicit : CastContext::kNone;
  // json <-> jsonb by assignment; jsonb to a number or boolean explicitly (PostgreSQL 11+).
  if (from.is_json() && to.is_json()) return CastContext::kAssignment;
  if (from.id == TypeId::kJsonb && (to.is_numeric_category() || to.id == TypeId::kBool)) return CastContext::kExplicit;
  if (to.is_string()) {
    // Between string types: implicit; from anything else: the I/O conversion, assignment.
    return from.is_string() ? CastContext::kImplicit : CastContext::kAssignment;
  }
  if (from.is_string()) return CastContext::kExplicit;  // text -> anything: I/O conversion
  if (from.is_integer()) {
    if (to.is_integer()) return IntRank(from.id) < IntRank(to.id) ? CastContext::kImplicit : CastContext::kAssignment;
    if (to.is_float() || to.id == TypeId::kNumeric) return CastContext::kImplicit;
    if (to.id == TypeId::kBool && from.id == TypeId::kInt4) return CastContext::kExplicit;
    return CastContext::kNone;
  }
  if (from.id == TypeId::kNumeric) {
    if (to.is_float()) return CastContext::kImplicit;
    if (to.is_integer()) return CastContext::kAssignment;
    return CastContext::kNone;
  }
  if (from.is_float()) {
    if (to.id == TypeId::kFloat8) return CastContext::kImplicit;
    if (to.is_float() || to.is_integer() || to.id == TypeId::kNumeric) return CastContext::kAssignment;
    return CastContext::kNone;
  }
  if (from.id == TypeId::kBool && to.id == TypeId::kInt4) return CastContext::kExplicit;
  // pg_cast's date/time casts: widening ones implicit, the rest by assignment.
  switch (from.id) {
    case TypeId::kDate:
      return to.id == TypeId::kTimestamp || to.id == TypeId::kTimestampTz ? CastContext::kImplicit : CastContext::kNone;
    case TypeId::kTimestamp:
      if (to.id == TypeId::kTimestampTz) return CastContext::kImplicit;
      return to.id == TypeId::kDate || to.id == TypeId::kTime ? CastContext::kAssignment : CastContext::kNone;
    case TypeId::kTimestampTz:
      return to.id == TypeId::kTimestamp || to.id == TypeId::kDate || to.id == TypeId::kTime ? CastContext::kAssignment
                                                                                             : CastContext::kNone;
    case TypeId::kTime: return to.id == TypeId::kInterval ? CastContext::kImplicit : CastContext::kNone;
    case TypeId::kInterval: return to.id == TypeId::kTime ? CastContext::kAssignment : CastContext::kNone;
    default: return CastContext::kNone;
  }
}

bool CastKeepsValue(const Datum& v, const SqlType& from, const SqlType& to) {
  if (v.kind != Datum::Kind::kString || !from.is_string()) return false;
  switch (to.id) {
    case TypeId::kText:  // text and varchar keep their bytes (a char(n) loses its blanks)
      return from.id != TypeId::kBpchar;
    case TypeId::kVarchar:
      return from.id != TypeId::kBpchar &&
             (to.precision < 0 || v.s.size() <= static_cast<size_t>(to.precision));  // bytes >= characters
    case TypeId::kBpchar:  // exactly n ASCII characters: nothing to pad or cut
      return to.precision >= 0 && v.s.size() == static_cast<size_t>(to.precision) && IsAscii(v.s);
    default: return false;
  }
}

Datum CastDatum(const Datum& v, const SqlType& from, const SqlType& to, bool explicit_cast) {
  if (v.is_null()) return v;
  if (from.is_array() && to.is_array() && v.kind == Datum::Kind::kArray) {
    std::vector<Datum> elements;
    for (const Datum& e : *v.array) elements.push_back(CastDatum(e, from.Element(), to.Element(), explicit_cast));
    return Datum::Array(std::move(elements));
  }
  if (from.is_json() && !to.is_string()) return CastFromJson(v, from, to, explicit_cast);
  if (!to.is_string() && (from.is_unknown() || from.is_string())) {
    std::string_view text = v.s;
    if (from.id == TypeId::kBpchar) text = StripTrailingBlanks(text);
    return DatumFromText(text, to);
  }
  if (to.is_string()) {
    Datum out;
    if (from.is_string()) {
      std::string_view text = v.s;
      if (from.id == TypeId::kBpchar && to.id != TypeId::kBpchar) text = StripTrailingBlanks(text);
      out.kind = Datum::Kind::kString;
      out.s.assign(text);
    } else if (v.kind == Datum::Kind::kBool) {
      // boolean's cast to text is booltext ('true'/'false'), not its output ('t'/'f').
      out = Datum::String(v.as_bool() ? "true" : "false");
    } else {
      out = Datum::String(DatumToText(v, from));
    }
    return ApplyTypmod(std::move(out), to, explicit_cast);
  }
  switch (to.id) {
    case TypeId::kBool:
      if (v.kind == Datum::Kind::kBool) return v;
      if (v.kind == Datum::Kind::kInt) return Datum::Bool(v.i != 0);
      break;
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
      switch (v.kind) {
        case Datum::Kind::kInt: return Datum::Int(CheckIntRange(v.i, to.id));
        case Datum::Kind::kBool: return Datum::Int(v.i);
        case Datum::Kind::kNumeric: {
          std::optional<int64_t> i = v.n.ToInt64();
          if (!i) IntOutOfRange(to.id);
          return Datum::Int(CheckIntRange(*i, to.id));
        }
        case Datum::Kind::kFloat: {
          double r = std::rint(v.f);  // round half to even, as PostgreSQL's float -> int
          if (std::isnan(r) || r < -9.2233720368547758e18 || r >= 9.2233720368547758e18) IntOutOfRange(to.id);
          return Datum::Int(CheckIntRange(static_cast<int64_t>(r), to.id));
        }
        default: break;
      }
      break;
    case TypeId::kFloat4:
    case TypeId::kFloat8: {
      double d;
      if (v.kind == Datum::Kind::kInt) d = static_cast<double>(v.i);
      else if (v.kind == Datum::Kind::kNumeric) d = v.n.ToDouble();
      else if (v.kind == Datum::Kind::kFloat) d = v.f;
      else break;
      if (to.id == TypeId::kFloat4) {
        float f = static_cast<float>(d);
        if (std::isinf(f) && !std::isinf(d))
          throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: overflow");
        if (f == 0 && d != 0) throw SqlError(sqlstate::kNumericOutOfRange, "value out of range: underflow");
        d = f;
      }
      return Datum::Float(d);
    }
    case TypeId::kNumeric: {
      Numeric n;
      if (v.kind == Datum::Kind::kInt) n = Numeric::FromInt(v.i);
      else if (v.kind == Datum::Kind::kNumeric) n = v.n;
      else if (v.kind == Datum::Kind::kFloat) {
        if (from.id == TypeId::kFloat4) {
          // float4 -> numeric keeps FLT_DIG (6) significant digits.
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.6g", v.f);
          n = *Numeric::Parse(buf);
        } else {
          n = Numeric::FromDouble(v.f);
        }
      } else break;
      return ApplyTypmod(Datum::Num(n), to, explicit_cast);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (v.kind != Datum::Kind::kTimestamp) break;
      if (from.id == TypeId::kDate) return Datum::Timestamp(datetime::DateToTimestamp(v.i));
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz) return ApplyTypmod(v, to);
      break;
    case TypeId::kDate:
      if (v.kind != Datum::Kind::kTimestamp) break;
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz) return Datum::Timestamp(datetime::TimestampToDate(v.i));
      if (from.id == TypeId::kDate) return v;
      break;
    case TypeId::kTime:
      if (v.kind == Datum::Kind::kInterval) return ApplyTypmod(Datum::Timestamp(datetime::IntervalToTime(v.as_interval())), to);
      if (v.kind != Datum::Kind::kTimestamp) break;
      if (from.id == TypeId::kTimestamp || from.id == TypeId::kTimestampTz)
        return ApplyTypmod(Datum::Timestamp(datetime::TimeFromTimestamp(v.i)), to);
      if (from.id == TypeId::kTime) return ApplyTypmod(v, to);
      break;
    case TypeId::kInterval:
      if (v.kind == Datum::Kind::kInterval) return ApplyTypmod(v, to);
      if (v.kind == Datum::Kind::kTimestamp && from.id == TypeId::kTime) return ApplyTypmod(Datum::Interval({0, 0, v.i}), to);
      break;
    case TypeId::kEnum:
      if (from.SameBase(to)) return v;
      break;
    default: break;
  }
  throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", from.BaseName(), to.Name()));
}

}  // namespace caracal::planner
