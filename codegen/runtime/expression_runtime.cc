#include "codegen/runtime/expression_runtime.h"

#include <algorithm>
#include <cassert>
#include <atomic>
#include <new>
#include <optional>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/runtime/eval_state.h"
#include "planner/types/cast.h"
#include "planner/expr/domain_check.h"
#include "planner/expr/expr_eval.h"
#include "planner/expr/functions.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlType;
using planner::TypeId;

namespace {

// `id` carries an array's element type in its second byte (see TypeCode in expr_codegen.cc).
SqlType TypeOf(int32_t id, int32_t precision, int32_t scale) {
  return SqlType{static_cast<TypeId>(id & 0xff), precision, scale, static_cast<TypeId>((id >> 8) & 0xff)};
}

// Runs `f`; on any exception stores it in the state and returns 0.
template <typename F>
int32_t Guard(EvalState* state, F&& f) {
  try {
    f();
    return 1;
  } catch (...) {
    state->error = std::current_exception();
    return 0;
  }
}

// Whether string `value` for column `c` needs the blank-padding only the general path
// does: a char(n) value shorter than n bytes (a compiled row write stores strings as
// they are).
bool NeedsPadding(const engine::Column& c, const Datum& value) {
  return c.type == engine::ColumnType::kChar && static_cast<int64_t>(value.s.size()) < c.precision;
}

}  // namespace

extern "C" {

// Raises SqlError(sqlstate, message).
int32_t caracal_rt_raise(EvalState* state, const char* sqlstate, const char* message) {
  state->error = std::make_exception_ptr(planner::SqlError(sqlstate, message));
  return 0;
}

void caracal_rt_copy(Datum* dst, const Datum* src) { planner::CopyDatum(*dst, *src); }

void caracal_rt_set_null(Datum* dst) { *dst = Datum(); }

int32_t caracal_rt_cast(EvalState* state, const Datum* in, int32_t from_id, int32_t from_p, int32_t from_s,
                        int32_t to_id, int32_t to_p, int32_t to_s, int32_t explicit_cast, Datum* out) {
  // String to text / unconstrained varchar: the bytes (char(n) without its trailing
  // blanks), written into the temp's own buffer so a loop does not allocate.
  const auto from_type = static_cast<planner::TypeId>(from_id), to_type = static_cast<planner::TypeId>(to_id);
  if (in->kind == Datum::Kind::kString && to_p < 0 &&
      (to_type == planner::TypeId::kText || to_type == planner::TypeId::kVarchar) &&
      (from_type == planner::TypeId::kText || from_type == planner::TypeId::kVarchar ||
       from_type == planner::TypeId::kBpchar)) {
    std::string_view text = in->s;
    if (from_type == planner::TypeId::kBpchar) text = planner::StripTrailingBlanks(text);
    if (out != in) {
      out->kind = Datum::Kind::kString;
      out->s.assign(text.data(), text.size());
      out->array.reset();
    } else {
      out->s.resize(text.size());
    }
    return 1;  // Guard's convention: 1 ok, 0 error
  }
  return Guard(state, [&] {
    // Integer or numeric to numeric: CastDatum's arithmetic without its temporaries (an
    // out-of-range value takes the general path, which raises CastDatum's error).
    const bool integer = in->kind == Datum::Kind::kInt && planner::SqlType::Of(from_type).is_integer();
    if (to_type == planner::TypeId::kNumeric &&
        (integer || (in->kind == Datum::Kind::kNumeric && from_type == planner::TypeId::kNumeric))) {
      planner::Numeric n = integer ? planner::Numeric::FromInt(in->i) : in->n;
      bool fits = true;
      if (to_p >= 0) {
        n = n.Rescale(to_s);
        // At scale to_s, at most to_p - to_s integer digits means |mantissa| < 10^to_p.
        fits = to_p <= planner::Numeric::kMaxScale && to_s <= to_p && n.mantissa() < planner::Pow10(to_p) &&
               n.mantissa() > -planner::Pow10(to_p);
      }
      if (fits) {
        out->kind = Datum::Kind::kNumeric;
        out->n = n;
        return;
      }
    }
    *out = planner::CastDatum(*in, TypeOf(from_id, from_p, from_s), TypeOf(to_id, to_p, to_s), explicit_cast != 0);
  });
}

int32_t caracal_rt_func(EvalState* state, int32_t func, int32_t rid, int32_t rp, int32_t rs, const Datum* args,
                        int32_t n, Datum* out) {
  return Guard(state, [&] {
    *out = planner::EvalFunction(static_cast<planner::Func>(func), TypeOf(rid, rp, rs),
                                 std::span<const Datum>(args, static_cast<size_t>(n)));
  });
}

int32_t caracal_rt_cast_enum(EvalState* state, const Datum* in, int32_t from_id, int32_t from_p, int32_t from_s,
                             const planner::EnumType* from_enum, int32_t to_id, int32_t to_p, int32_t to_s,
                             const planner::EnumType* to_enum, int32_t explicit_cast, Datum* out) {
  return Guard(state, [&] {
    SqlType from = TypeOf(from_id, from_p, from_s), to = TypeOf(to_id, to_p, to_s);
    from.enum_type = from_enum;
    to.enum_type = to_enum;
    *out = planner::CastDatum(*in, from, to, explicit_cast != 0);
  });
}

int32_t caracal_rt_check_domain(EvalState* state, const Datum* value, const planner::DomainType* domain) {
  return Guard(state, [&] {
    SqlType type = domain->base();
    type.domain = domain;
    planner::CheckDomain(type, *value);
  });
}

int32_t caracal_rt_func_typed(EvalState* state, const planner::Expr* e, const Datum* args, int32_t n, Datum* out) {
  return Guard(state, [&] { *out = planner::EvalFunction(e->func, e->type, std::span<const Datum>(args, static_cast<size_t>(n))); });
}

// PL/pgSQL's `var[index] := *value` on the variable itself (index_null: a NULL
// subscript). In place when the variable holds the only reference to its elements, so
// that a loop filling an array element by element is linear rather than quadratic;
// otherwise, and for every error, planner::EvalFunction(kArraySet) on a copy.
int32_t caracal_rt_array_set_var(EvalState* state, Datum* var, int32_t index_null, int64_t index, const Datum* value) {
  // Room for a typical loop's elements at once (TPC-C's up to 15 order lines).
  constexpr size_t kInitialCapacity = 16;
  return Guard(state, [&] {
    if (index_null == 0 && index == 1 && var->kind == Datum::Kind::kNull) {
      std::vector<Datum> elements;
      elements.reserve(kInitialCapacity);
      elements.push_back(*value);
      *var = Datum::Array(std::move(elements));
      return;
    }
    // ThreadSanitizer does not model the fence below: there every assignment copies.
#if !defined(__SANITIZE_THREAD__)
    if (index_null == 0 && var->kind == Datum::Kind::kArray && var->array.use_count() == 1 && index >= 1 &&
        index <= static_cast<int64_t>(var->array->size()) + 1) {
      // Datum::Array makes the vector non-const: the const is only the sharing contract,
      // which a single owner cannot break. The fence orders the writes after the reads of
      // a last other holder (a split piece's values on another core) that released it.
      std::atomic_thread_fence(std::memory_order_acquire);
      auto& elements = const_cast<std::vector<Datum>&>(*var->array);
      if (index <= static_cast<int64_t>(elements.size())) {
        elements[static_cast<size_t>(index - 1)] = *value;
        return;
      }
      if (elements.size() == elements.capacity()) elements.reserve(std::max(kInitialCapacity, 2 * elements.size()));
      elements.push_back(*value);
      return;
    }
#endif
    const Datum args[3] = {*var, index_null != 0 ? Datum::Null() : Datum::Int(index), *value};
    *var = planner::EvalFunction(planner::Func::kArraySet, SqlType(), args);
  });
}

int32_t caracal_rt_make_array(EvalState* state, const Datum* args, int32_t n, Datum* out) {
  return Guard(state, [&] { *out = Datum::Array(std::vector<Datum>(args, args + n)); });
}

// The number of elements of a non-null array.
int64_t caracal_rt_array_length(const Datum* array) {
  return array->array ? static_cast<int64_t>(array->array->size()) : 0;
}

// array[index] (1-based) of a non-null array, in place (no copy: the array cannot change
// while an expression is evaluated); a NULL Datum when out of range.
const Datum* caracal_rt_subscript(const Datum* array, int64_t index) {
  static const Datum kNull;
  if (index < 1 || index > static_cast<int64_t>(array->array->size())) return &kNull;
  return &(*array->array)[static_cast<size_t>(index - 1)];
}

// Binary arithmetic on two non-null boxed values (numeric; the interpreter's Arithmetic).
int32_t caracal_rt_arith(EvalState* state, int32_t op, const Datum* a, const Datum* b, int32_t rid, int32_t rp,
                         int32_t rs, Datum* out) {
  return Guard(state, [&] {
    const planner::SqlType type = TypeOf(rid, rp, rs);
    if (type.id == planner::TypeId::kNumeric && a->kind == Datum::Kind::kNumeric && b->kind == Datum::Kind::kNumeric) {
      // Numeric results go straight into the out Datum (no temporary Datum to move).
      if (std::optional<planner::Numeric> n = planner::NumericArithmetic(static_cast<planner::Op>(op), a->n, b->n)) {
        out->kind = Datum::Kind::kNumeric;
        out->n = *n;
        return;
      }
    }
    *out = planner::Arithmetic(static_cast<planner::Op>(op), *a, *b, type);
  });
}

void caracal_rt_num_neg(const Datum* a, Datum* out) { *out = Datum::Num(-a->n); }

// CompareForType of two non-null boxed values: bpchar != 0 compares blank-insensitively.
int32_t caracal_rt_compare(const Datum* a, const Datum* b, int32_t bpchar) {
  return planner::CompareForType(*a, *b, SqlType::Of(bpchar ? TypeId::kBpchar : TypeId::kText));
}

int32_t caracal_rt_concat(EvalState* state, const Datum* a, const Datum* b, Datum* out) {
  return Guard(state, [&] {
    if (out == a) {
      out->s += b->s;
    } else {
      std::string s;
      s.reserve(a->s.size() + b->s.size());
      s.append(a->s).append(b->s);
      *out = Datum::String(std::move(s));
    }
  });
}

int32_t caracal_rt_any_all(int32_t op, int32_t all, int32_t type, const Datum* value, const Datum* array) {
  Datum r = planner::EvalAnyAll(static_cast<planner::Op>(op), all != 0, SqlType::Of(static_cast<planner::TypeId>(type)),
                                *value, *array);
  return r.is_null() ? 2 : r.as_bool() ? 1 : 0;
}

int32_t caracal_rt_like(const Datum* text, const Datum* pattern, int32_t case_insensitive) {
  return planner::LikeMatch(text->s, pattern->s, case_insensitive != 0) ? 1 : 0;
}

// ascii() of a non-null string (char(n): as the text it casts to, without trailing
// blanks), without building the text.
int64_t caracal_rt_ascii(const Datum* in, int32_t strip_blanks) {
  std::string_view s = in->s;
  // Stripping trailing blanks only matters when the first character is one.
  if (strip_blanks && (s.empty() || s[0] == ' ')) s = planner::StripTrailingBlanks(s);
  if (s.empty()) return 0;
  auto b = static_cast<unsigned char>(s[0]);
  if (b < 0x80) return b;
  int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : 1;
  uint32_t cp = b & (0x3F >> extra);
  for (int k = 1; k <= extra && k < static_cast<int>(s.size()); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3F);
  return cp;
}

// memcpy, for generated code (which links only against this table).
void caracal_rt_copy_bytes(void* dst, const void* src, int64_t n) { std::memcpy(dst, src, static_cast<size_t>(n)); }

// A string column of a row (the null case is handled by the caller).
void caracal_rt_read_string(const engine::RowValue* row, int32_t col, Datum* out) {
  planner::SetStringDatum(*out, row->GetString(col));
}

void caracal_rt_read_decimal(const engine::RowValue* row, int32_t col, Datum* out) {
  // The text was written by Numeric::ToString, so it parses.
  const std::optional<planner::Numeric> n = planner::Numeric::Parse(row->GetString(col));
  *out = n ? Datum::Num(*n) : Datum::Null();
}

void caracal_rt_read_array(const engine::RowValue* row, int32_t col, int32_t element, int32_t precision, int32_t scale,
                           Datum* out) {
  const planner::SqlType type{planner::TypeId::kArray, precision, scale, static_cast<planner::TypeId>(element)};
  // The text was written by DatumToText for this type (planner::SetRowColumn), so it
  // parses; generated code cannot take an exception.
  try {
    *out = planner::DatumFromText(row->GetString(col), type);
  } catch (...) {
    assert(false && "stored array text does not parse");
    *out = Datum::Null();
  }
}

// Overwrites string column `col` of `row` (a compiled UPDATE's private copy) with
// `value` when the old value is not null and has its byte size, as
// RowPatch::SetSameSizeString: 1; else 0 (nothing written).
int32_t caracal_rt_patch_string(engine::RowValue* row, int32_t col, const Datum* value) {
  if (row->IsNull(col)) return 0;
  const std::string_view old = row->GetString(col);
  if (old.size() != value->s.size()) return 0;
  // The copy is the caller's, not yet published: writable.
  std::memcpy(const_cast<char*>(old.data()), value->s.data(), old.size());
  return 1;
}

// The new row of a compiled UPDATE whose string values do not all fit its copy
// (row_writes.h): target->row (the copy, with every fixed-width SET value written) with
// the `count` string values set, encoded as RowBuilder would into target->rebuilt:
// kRowWritten; kRowFallback (nothing built) for a char(n) value shorter than n, which
// the general path pads; 0 on an error.
int32_t caracal_rt_rebuild_row(EvalState* state, PatchTarget* target, const PatchString* strings, int32_t count) {
  int32_t result = kRowWritten;
  const int32_t ok = Guard(state, [&] {
    const engine::Schema& schema = *target->schema;
    const engine::RowValue& row = *target->row;
    const int n = schema.num_columns();
    for (int k = 0; k < count; ++k) {
      const PatchString& p = strings[k];
      if (p.is_null == 0 && NeedsPadding(schema.column(static_cast<int>(p.col)), *p.value)) {
        result = kRowFallback;
        return;
      }
    }
    // Column i's string SET value, if it has one (an UPDATE sets a few columns).
    auto set_value = [&](int i) -> const PatchString* {
      for (int k = 0; k < count; ++k)
        if (strings[k].col == i) return &strings[k];
      return nullptr;
    };
    target->rebuilt = engine::EncodeRowWith(n, [&](int i) {
                        engine::RowCell cell;
                        if (const PatchString* p = set_value(i)) {
                          cell.null = p->is_null != 0;
                          cell.is_string = true;
                          if (!cell.null) cell.str = p->value->s;
                          return cell;
                        }
                        cell.null = row.IsNull(i);
                        if (cell.null) return cell;
                        cell.is_string = IsVariableWidth(schema.column(i).type);
                        if (cell.is_string)
                          cell.str = row.GetString(i);
                        else
                          cell.bits = row.GetInt(i);  // the slot's bits, whatever the type
                        return cell;
                      }).release();
  });
  return ok == 0 ? 0 : result;
}

// The row of a compiled INSERT (row_writes.h) from its cells, one per column of
// out->schema, encoded as RowBuilder would: kRowWritten with the row in out->row;
// kRowFallback (nothing built) for a char(n) value shorter than n, which the general
// path pads; 0 on an error.
int32_t caracal_rt_build_row(EvalState* state, const BuildCell* cells, BuiltRow* out) {
  int32_t result = kRowWritten;
  const int32_t ok = Guard(state, [&] {
    const engine::Schema& schema = *out->schema;
    const int n = schema.num_columns();
    // Generated code sets `string` exactly for string columns.
    for (int i = 0; i < n; ++i) {
      if (cells[i].is_null != 0 || cells[i].string == nullptr) continue;
      if (NeedsPadding(schema.column(i), *cells[i].string)) {
        result = kRowFallback;
        return;
      }
    }
    out->row = engine::EncodeRowWith(n, [cells](int i) {
                 engine::RowCell cell;
                 cell.null = cells[i].is_null != 0;
                 if (cell.null) return cell;
                 if (cells[i].string == nullptr) {
                   cell.bits = cells[i].bits;
                 } else {
                   cell.is_string = true;
                   cell.str = cells[i].string->s;
                 }
                 return cell;
               }).release();
  });
  return ok == 0 ? 0 : result;
}

}  // extern "C"

}  // namespace caracal::codegen
