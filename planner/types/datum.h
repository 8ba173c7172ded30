// Datum: one runtime SQL value as the expression interpreter computes it. Its kind
// follows the SqlType's family: integers of every width are kInt (range-checked against
// the static type by the operators), real/double are kFloat (real values are kept
// rounded to float), numeric is the 128-bit Numeric, char/varchar/text are kString, and
// a one-dimensional array is kArray (elements are Datums of the element type, shared and
// immutable, so copying a Datum never copies an array). timestamp, timestamptz, date
// and time are kTimestamp (one int64: microseconds, days for a date; the type says
// which), an interval is kInterval (months and days beside the microseconds in `i`).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>
#include <string>
#include <string_view>

#include "engine/types/row_value.h"
#include "engine/types/types.h"
#include "engine/types/value.h"
#include "planner/types/datetime.h"
#include "planner/types/numeric.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

struct Datum {
  enum class Kind : uint8_t { kNull, kBool, kInt, kFloat, kNumeric, kString, kTimestamp, kArray, kInterval };

  Kind kind = Kind::kNull;
  int32_t months = 0, days = 0;  // kInterval only
  int64_t i = 0;  // kBool (0/1), kInt, kTimestamp (see above), kInterval (microseconds)
  double f = 0;
  Numeric n;
  std::string s;
  std::shared_ptr<const std::vector<Datum>> array;  // kArray: the elements (index 0 is [1])

  static Datum Null() { return Datum(); }
  static Datum Bool(bool b) { Datum d; d.kind = Kind::kBool; d.i = b; return d; }
  static Datum Int(int64_t v) { Datum d; d.kind = Kind::kInt; d.i = v; return d; }
  static Datum Float(double v) { Datum d; d.kind = Kind::kFloat; d.f = v; return d; }
  static Datum Num(Numeric v) { Datum d; d.kind = Kind::kNumeric; d.n = v; return d; }
  static Datum String(std::string v) { Datum d; d.kind = Kind::kString; d.s = std::move(v); return d; }
  static Datum Timestamp(int64_t us) { Datum d; d.kind = Kind::kTimestamp; d.i = us; return d; }
  static Datum Interval(const datetime::Interval& iv) {
    Datum d;
    d.kind = Kind::kInterval;
    d.months = iv.months;
    d.days = iv.days;
    d.i = iv.us;
    return d;
  }
  static Datum Array(std::vector<Datum> elements) {
    Datum d;
    d.kind = Kind::kArray;
    // A non-const vector behind a pointer to const: see AssignFromValue.
    d.array = std::make_shared<std::vector<Datum>>(std::move(elements));
    return d;
  }

  bool is_null() const { return kind == Kind::kNull; }
  bool as_bool() const { return i != 0; }
  datetime::Interval as_interval() const { return datetime::Interval{months, days, i}; }
};

// array_append in place: `element` added at the end of array `d` (NULL: an empty array
// first), copying the elements only when another Datum shares them.
void AppendElement(Datum& d, Datum element);

// PostgreSQL's text output of `d` as a value of `type` (NULL: empty string).
std::string DatumToText(const Datum& d, const SqlType& type);
// Shortest round-trip text of a float8 / float4 as PostgreSQL 12+ prints them.
std::string Float8Text(double v);
std::string Float4Text(float v);
std::string TimestampToText(int64_t micros);  // a timestamp without time zone

// Text input of a value of `type` (the cast from text / unknown, and COPY's input).
// Throws SqlError "invalid input syntax for type ...". Applies type modifiers as an
// assignment would (char padding, varchar length check, numeric(p,s) rounding).
Datum DatumFromText(std::string_view text, const SqlType& type);

// Row column <-> Datum.
// d = Datum::String(v), reusing d's buffer.
void SetStringDatum(Datum& d, std::string_view v);
// d = Datum::Null(), keeping d's string buffer for the next value. Inline: frames and
// temps reset every slot on every run.
inline void ResetDatum(Datum& d) {
  d.kind = Datum::Kind::kNull;
  d.i = 0;
  d.f = 0;
  d.n = Numeric();
  d.s.clear();
  if (d.array) d.array.reset();
}
// d = a Datum of `kind` (kBool, kInt or kTimestamp) holding `v`, set in place: no
// Datum is built and moved, and d keeps its string buffer.
inline void SetScalarDatum(Datum& d, Datum::Kind kind, int64_t v) {
  if (d.kind != Datum::Kind::kNull && d.kind != kind) ResetDatum(d);
  d.kind = kind;
  d.i = v;
}
// dst = src, reusing dst's string buffer; the fast path of compiled code's stores.
void CopyDatum(Datum& dst, const Datum& src);

Datum DatumFromRow(const engine::RowValue& row, int col, const engine::Column& column);
// The same, written into `out` (reusing its string's capacity: no allocation when a
// procedure reads into the same variable again).
void DatumFromRowInto(const engine::RowValue& row, int col, const engine::Column& column, Datum& out);
// To an engine Value of type `type` (the value already coerced): an argument, a
// variable's value. Arrays become Value::Array of their elements.
engine::Value DatumToValue(const Datum& d, const SqlType& type);
// To the engine Value a column of `type` stores (engine::MakeRow / RowBuilder::Set): as
// DatumToValue, but an array is its text (engine::ColumnType::kArray).
engine::Value DatumToColumnValue(const Datum& d, const SqlType& type);
// To an engine Value for a client (a procedure's result row): as DatumToValue, except
// that a numeric wider than a stored one (more than 18 digits, `1.5 / 3` has scale 20)
// travels as its text, which is what the client prints; it is no column's value.
engine::Value DatumToResultValue(const Datum& d, const SqlType& type);
// Column `col` of a row being built or patched := non-null `d` (a value of `type`,
// already coerced to the column), exactly as Set(col, DatumToValue(d, type)) would,
// but without a Value in between for the common kinds. A string is referenced, not
// copied: `d` must outlive b.Build(). Patching is for fixed-width columns only.
void SetRowColumn(engine::RowBuilder& b, int col, const engine::Column& column, const Datum& d, const SqlType& type);
void PatchRowColumn(engine::RowPatch& p, const engine::Schema& schema, int col, const Datum& d, const SqlType& type);
// An engine Value (a procedure argument, a row value) as a Datum of `type`: the value
// must already be of the type's family (Value::Array for arrays); modifiers are applied
// as an assignment would. Throws SqlError if the kinds do not match.
Datum DatumFromValue(const engine::Value& v, const SqlType& type);
// DatumFromValue into `out`, rewriting an array `out` holds in place when no other Datum
// shares it, so that a frame converting the same procedure's arguments run after run
// does not allocate. Same results and errors as DatumFromValue.
void AssignFromValue(Datum& out, const engine::Value& v, const SqlType& type);

// Three-way comparison of two non-null datums of the same kind (strings bytewise, as
// the C collation; bpchar callers strip trailing blanks first). Arrays compare element
// by element (NULL elements sort after non-null ones), then by length, as PostgreSQL.
int CompareDatums(const Datum& a, const Datum& b);

}  // namespace caracal::planner

namespace caracal::planner {
// Enforces `type`'s modifiers on a value already of its family, as an assignment or a
// cast does: numeric(p,s) rounds and checks the precision, char(n) pads, char/varchar(n)
// reject longer strings (unless `explicit_cast`, which truncates, as PostgreSQL does).
Datum ApplyTypmod(Datum d, const SqlType& type, bool explicit_cast = false);
// Number of characters (UTF-8 code points) in s.
int64_t CharLength(std::string_view s);
// Whether every byte of s is ASCII (then characters are bytes).
bool IsAscii(std::string_view s);
// s without trailing blanks (char(n) semantics for comparison and cast to text).
std::string_view StripTrailingBlanks(std::string_view s);
}  // namespace caracal::planner
