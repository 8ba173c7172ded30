#include "planner/expr/array_builtins.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// Element equality as IS NOT DISTINCT FROM (array_remove, array_replace,
// array_position): NULL matches NULL.
bool NotDistinct(const Datum& a, const Datum& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return CompareDatums(a, b) == 0;
}

// Whether non-NULL `e` equals some non-NULL element of `array` (the operators: a NULL
// element never matches).
bool Holds(const std::vector<Datum>& array, const Datum& e) {
  return std::ranges::any_of(array, [&](const Datum& x) { return !x.is_null() && CompareDatums(x, e) == 0; });
}

Datum Remove(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  std::vector<Datum> out;
  for (const Datum& x : *a[0].array)
    if (!NotDistinct(x, a[1])) out.push_back(x);
  return Datum::Array(std::move(out));
}

Datum Replace(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  std::vector<Datum> out = *a[0].array;
  for (Datum& x : out)
    if (NotDistinct(x, a[1])) x = a[2];
  return Datum::Array(std::move(out));
}

Datum Position(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  int64_t start = 1;
  if (a.size() > 2) {
    if (a[2].is_null()) throw SqlError(sqlstate::kNullValueNotAllowed, "initial position must not be null");
    start = std::max<int64_t>(a[2].i, 1);
  }
  const std::vector<Datum>& xs = *a[0].array;
  for (int64_t i = start; i <= static_cast<int64_t>(xs.size()); ++i)
    if (NotDistinct(xs[static_cast<size_t>(i - 1)], a[1])) return Datum::Int(i);
  return Datum::Null();
}

Datum Positions(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  std::vector<Datum> out;
  const std::vector<Datum>& xs = *a[0].array;
  for (size_t i = 0; i < xs.size(); ++i)
    if (NotDistinct(xs[i], a[1])) out.push_back(Datum::Int(static_cast<int64_t>(i + 1)));
  return Datum::Array(std::move(out));
}

Datum ToString(std::span<const Datum> a) {
  if (a[0].is_null() || a[1].is_null()) return Datum::Null();
  const SqlType element{static_cast<TypeId>(a[3].i), static_cast<int32_t>(a[4].i), static_cast<int32_t>(a[5].i)};
  std::string out;
  bool first = true;
  for (const Datum& x : *a[0].array) {
    if (x.is_null() && a[2].is_null()) continue;
    if (!first) out += a[1].s;
    first = false;
    out += x.is_null() ? a[2].s : DatumToText(x, element);
  }
  return Datum::String(std::move(out));
}

// Splits `text` at each `delimiter`; an element equal to `null_text` becomes NULL.
Datum FromString(std::span<const Datum> a) {
  if (a[0].is_null()) return Datum::Null();
  const std::string_view text = a[0].s;
  std::vector<Datum> out;
  auto add = [&](std::string_view piece) {
    if (a.size() > 2 && !a[2].is_null() && piece == a[2].s) out.push_back(Datum::Null());
    else out.push_back(Datum::String(std::string(piece)));
  };
  if (text.empty()) return Datum::Array({});
  if (a[1].is_null()) {
    // Each character on its own (UTF-8 sequences kept whole).
    for (size_t i = 0; i < text.size();) {
      size_t n = 1;
      while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
      add(text.substr(i, n));
      i += n;
    }
    return Datum::Array(std::move(out));
  }
  const std::string_view delimiter = a[1].s;
  if (delimiter.empty()) {
    add(text);
    return Datum::Array(std::move(out));
  }
  size_t from = 0;
  for (size_t at; (at = text.find(delimiter, from)) != std::string_view::npos; from = at + delimiter.size())
    add(text.substr(from, at - from));
  add(text.substr(from));
  return Datum::Array(std::move(out));
}

// a @> b: every element of b (none may be NULL) is in a.
Datum Contains(const Datum& a, const Datum& b) {
  if (a.is_null() || b.is_null()) return Datum::Null();
  for (const Datum& x : *b.array)
    if (x.is_null() || !Holds(*a.array, x)) return Datum::Bool(false);
  return Datum::Bool(true);
}

Datum Overlap(std::span<const Datum> a) {
  if (a[0].is_null() || a[1].is_null()) return Datum::Null();
  for (const Datum& x : *a[1].array)
    if (!x.is_null() && Holds(*a[0].array, x)) return Datum::Bool(true);
  return Datum::Bool(false);
}

Datum Fill(std::span<const Datum> a) {
  if (a[1].is_null() || (a.size() > 2 && a[2].is_null()))
    throw SqlError(sqlstate::kNullValueNotAllowed, "dimension array or low bound array cannot be null");
  const std::vector<Datum>& dims = *a[1].array;
  if (dims.empty()) return Datum::Array({});
  if (dims.size() > 1)
    throw SqlError(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported yet");
  if (dims[0].is_null()) throw SqlError(sqlstate::kNullValueNotAllowed, "dimension values cannot be null");
  if (a.size() > 2) {
    const std::vector<Datum>& lower = *a[2].array;
    if (lower.size() != dims.size())
      throw SqlError("2202E", "wrong number of array subscripts").WithDetail("Low bound array has different size than dimensions array.");
    if (lower[0].is_null()) throw SqlError(sqlstate::kNullValueNotAllowed, "dimension values cannot be null");
    if (lower[0].i != 1)
      throw SqlError(sqlstate::kFeatureNotSupported, "arrays with a lower bound other than 1 are not supported yet");
  }
  const int64_t n = dims[0].i;
  if (n <= 0) return Datum::Array({});
  if (n > kMaxArraySize)
    throw SqlError(sqlstate::kProgramLimitExceeded, fmt::format("array size exceeds the maximum allowed ({})", kMaxArraySize));
  return Datum::Array(std::vector<Datum>(static_cast<size_t>(n), a[0]));
}

Datum Slice(std::span<const Datum> a) {
  if (a[0].is_null() || a[1].is_null() || a[2].is_null()) return Datum::Null();
  const std::vector<Datum>& xs = *a[0].array;
  const int64_t lower = std::max<int64_t>(a[1].i, 1);
  const int64_t upper = std::min<int64_t>(a[2].i, static_cast<int64_t>(xs.size()));
  if (lower > upper) return Datum::Array({});
  return Datum::Array(std::vector<Datum>(xs.begin() + (lower - 1), xs.begin() + upper));
}

}  // namespace

Datum EvalArrayBuiltin(Func func, std::span<const Datum> a) {
  switch (func) {
    case Func::kArrayRemove: return Remove(a);
    case Func::kArrayReplace: return Replace(a);
    case Func::kArrayPosition: return Position(a);
    case Func::kArrayPositions: return Positions(a);
    case Func::kArrayToString: return ToString(a);
    case Func::kStringToArray: return FromString(a);
    case Func::kArrayContains: return Contains(a[0], a[1]);
    case Func::kArrayContainedBy: return Contains(a[1], a[0]);
    case Func::kArrayOverlap: return Overlap(a);
    case Func::kArrayDims:
      if (a[0].is_null() || a[0].array->empty()) return Datum::Null();
      return Datum::String(fmt::format("[1:{}]", a[0].array->size()));
    case Func::kArrayNdims:
      if (a[0].is_null() || a[0].array->empty()) return Datum::Null();
      return Datum::Int(1);
    case Func::kArrayFill: return Fill(a);
    case Func::kArraySlice: return Slice(a);
    default: throw SqlError(sqlstate::kInternalError, "not an array builtin");
  }
}

}  // namespace caracal::planner
