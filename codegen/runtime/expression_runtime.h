// The runtime functions of compiled expressions and row writes: what JIT-compiled code
// calls inside a transaction (raise, casts, functions, arrays, numeric arithmetic,
// strings, row patches and builds). codegen/jit/jit_runtime.cc declares each to LLVM.
// Conventions (jit/jit_runtime.h): extern "C"; a function that can fail takes the
// EvalState first, stores the exception there and returns 0 (1 on success).
#pragma once

#include <cstdint>

#include "codegen/runtime/eval_state.h"
#include "planner/expr/expr.h"
#include "planner/types/domain_type.h"
#include "planner/types/enum_type.h"

namespace caracal::codegen {

extern "C" {

// Raises SqlError(sqlstate, message).
int32_t caracal_rt_raise(EvalState* state, const char* sqlstate, const char* message);

void caracal_rt_copy(planner::Datum* dst, const planner::Datum* src);

void caracal_rt_set_null(planner::Datum* dst);

int32_t caracal_rt_cast(EvalState* state, const planner::Datum* in, int32_t from_id, int32_t from_p, int32_t from_s,
                        int32_t to_id, int32_t to_p, int32_t to_s, int32_t explicit_cast, planner::Datum* out);

int32_t caracal_rt_func(EvalState* state, int32_t func, int32_t rid, int32_t rp, int32_t rs, const planner::Datum* args,
                        int32_t n, planner::Datum* out);

// caracal_rt_cast where either type is an enum or an array of one: `from_enum` /
// `to_enum` are the planner::EnumType's (or null).
int32_t caracal_rt_cast_enum(EvalState* state, const planner::Datum* in, int32_t from_id, int32_t from_p, int32_t from_s,
                             const planner::EnumType* from_enum, int32_t to_id, int32_t to_p, int32_t to_s,
                             const planner::EnumType* to_enum, int32_t explicit_cast, planner::Datum* out);

// The constraints of `domain` on `value` (a value of its base type; NULL too):
// planner::CheckDomain.
int32_t caracal_rt_check_domain(EvalState* state, const planner::Datum* value, const planner::DomainType* domain);

// caracal_rt_func for a kFunc node whose result type the codes cannot carry (an enum's):
// `e` is the node, which outlives the compiled code.
int32_t caracal_rt_func_typed(EvalState* state, const planner::Expr* e, const planner::Datum* args, int32_t n,
                              planner::Datum* out);

// PL/pgSQL's `var[index] := *value` on the variable itself (index_null: a NULL
// subscript). In place when the variable holds the only reference to its elements, so
// that a loop filling an array element by element is linear rather than quadratic;
// otherwise, and for every error, planner::EvalFunction(kArraySet) on a copy.
int32_t caracal_rt_array_set_var(EvalState* state, planner::Datum* var, int32_t index_null, int64_t index, const planner::Datum* value);

int32_t caracal_rt_make_array(EvalState* state, const planner::Datum* args, int32_t n, planner::Datum* out);

// The number of elements of a non-null array.
int64_t caracal_rt_array_length(const planner::Datum* array);

// array[index] (1-based) of a non-null array, in place (no copy: the array cannot change
// while an expression is evaluated); a NULL Datum when out of range.
const planner::Datum* caracal_rt_subscript(const planner::Datum* array, int64_t index);

// Binary arithmetic on two non-null boxed values (numeric; the interpreter's Arithmetic).
int32_t caracal_rt_arith(EvalState* state, int32_t op, const planner::Datum* a, const planner::Datum* b, int32_t rid, int32_t rp,
                         int32_t rs, planner::Datum* out);

void caracal_rt_num_neg(const planner::Datum* a, planner::Datum* out);

// CompareForType of two non-null boxed values: bpchar != 0 compares blank-insensitively.
int32_t caracal_rt_compare(const planner::Datum* a, const planner::Datum* b, int32_t bpchar);

int32_t caracal_rt_concat(EvalState* state, const planner::Datum* a, const planner::Datum* b, planner::Datum* out);

int32_t caracal_rt_any_all(int32_t op, int32_t all, int32_t type, const planner::Datum* value, const planner::Datum* array);

int32_t caracal_rt_like(const planner::Datum* text, const planner::Datum* pattern, int32_t case_insensitive);

// ascii() of a non-null string (char(n): as the text it casts to, without trailing
// blanks), without building the text.
int64_t caracal_rt_ascii(const planner::Datum* in, int32_t strip_blanks);

// memcpy, for generated code (which links only against this table).
void caracal_rt_copy_bytes(void* dst, const void* src, int64_t n);

// A string column of a row (the null case is handled by the caller).
void caracal_rt_read_string(const engine::RowValue* row, int32_t col, planner::Datum* out);

// A numeric column of any precision (engine::ColumnType::kDecimal: its decimal text) of
// a row, as a numeric Datum (the null case is handled by the caller).
void caracal_rt_read_decimal(const engine::RowValue* row, int32_t col, planner::Datum* out);

// An array column (engine::ColumnType::kArray: its text) of a row, as an array Datum of
// elements of type `element` (a planner::TypeId) with modifiers `precision` and `scale`
// (the null case is handled by the caller).
void caracal_rt_read_array(const engine::RowValue* row, int32_t col, int32_t element, int32_t precision, int32_t scale,
                           planner::Datum* out);

// Overwrites string column `col` of `row` (a compiled UPDATE's private copy) with
// `value` when the old value is not null and has its byte size, as
// RowPatch::SetSameSizeString: 1; else 0 (nothing written).
int32_t caracal_rt_patch_string(engine::RowValue* row, int32_t col, const planner::Datum* value);

// The new row of a compiled UPDATE whose string values do not all fit its copy
// (row_writes.h): target->row (the copy, with every fixed-width SET value written) with
// the `count` string values set, encoded as RowBuilder would into target->rebuilt:
// kRowWritten; kRowFallback (nothing built) for a char(n) value shorter than n, which
// the general path pads; 0 on an error.
int32_t caracal_rt_rebuild_row(EvalState* state, PatchTarget* target, const PatchString* strings, int32_t count);

// The row of a compiled INSERT (row_writes.h) from its cells, one per column of
// out->schema, encoded as RowBuilder would: kRowWritten with the row in out->row;
// kRowFallback (nothing built) for a char(n) value shorter than n, which the general
// path pads; 0 on an error.
int32_t caracal_rt_build_row(EvalState* state, const BuildCell* cells, BuiltRow* out);

}  // extern "C"

}  // namespace caracal::codegen
