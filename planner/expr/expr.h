// The bound expression IR: what the binder makes of a SQL scalar expression, what the
// interpreter (expr_eval.h) evaluates and what codegen/ will later compile. See README.md.
//
// Every node carries its SqlType; operands have already been coerced by the binder (an
// explicit kCast node wherever PostgreSQL would insert an implicit cast), so evaluation
// never has to resolve types. Values come from *slots*, never from raw row offsets: a
// slot names a column of the current row, a procedure variable or parameter, a GROUP BY
// key or an aggregate result, so the same tree runs over a table row, a group or a
// PL/pgSQL frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planner/types/datum.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

struct ProcedureIr;

enum class SlotSpace : uint8_t {
  kColumn,     // column `index` of the current row (table schema order)
  kVariable,   // a procedure variable or parameter (PL/pgSQL binder)
  kGroupKey,   // GROUP BY expression `index`, in a grouped query's output
  kAggregate,  // aggregate `index`, in a grouped query's output
  kExcluded,   // INSERT ... ON CONFLICT DO UPDATE: column `index` of the proposed row
  kTuple,      // position `index` of the current tuple of a query plan node (exec/query_exec)
  kOuter,      // correlation value `index` handed to a subquery by the query around it
};

struct Slot {
  SlotSpace space = SlotSpace::kColumn;
  int index = 0;
  bool operator==(const Slot&) const = default;
};

enum class ExprKind : uint8_t {
  kConst,     // value
  kSlot,      // slot
  kCast,      // args[0] converted to `type` (explicit: PostgreSQL's explicit-cast rules)
  kArith,     // op in {kAdd..kMod}, args[0] op args[1] (or kNeg: -args[0])
  kCompare,   // op in {kEq..kGe}, both args of one comparison family
  kConcat,    // args[0] || args[1], both text
  kAnd,       // n-ary, three-valued
  kOr,        // n-ary, three-valued
  kNot,
  kIsNull,    // negated: IS NOT NULL
  kBoolTest,  // IS [NOT] TRUE/FALSE/UNKNOWN: op kEq (TRUE), kNe (FALSE), kLt (UNKNOWN); negated
  kCase,      // args: [when0, then0, when1, then1, ..., else] (else always present)
  kCoalesce,
  kNullIf,    // args[0], args[1] (compared with args[0]'s type)
  kGreatest,
  kLeast,
  kIn,        // args[0] IN (args[1..]); negated: NOT IN
  kLike,      // args[0] LIKE args[1]; negated; case_insensitive: ILIKE
  kAnyAll,    // args[0] op ANY (args[1]), or ALL when negated: args[1] an array whose
              // elements compare with args[0] (op in {kEq..kGe}); PostgreSQL's NULL rules
  kFunc,      // builtin function `func` over args
  kAggRef,    // an aggregate call (only before grouping rewrites it into a kAggregate slot)
  kArray,     // ARRAY[args...]: a one-dimensional array of the args (coerced to the element type)
  kSubscript, // args[0][args[1]]: args[1] is integer; NULL array, NULL or out-of-range
              // subscript -> NULL (PostgreSQL's semantics; arrays are 1-based)
  kNextval,   // nextval(args[0]) (args[0]: text, over parameters and constants): bigint. Never
              // evaluated in place: the write-set analysis hoists every call to sequencing
              // time (ProcedureIr::sequence_calls) and rewrites it into a kSequence slot;
              // Eval throws if one is left.
  kSubquery,  // a subquery used as an expression: subplan `subplan` of the query, run with
              // its correlation values (see SubLink); EvalContext::subqueries runs it
  kWindowRef, // a window function call (only before planning rewrites it into a kTuple slot)
  kRoutineCall,  // a call of the user function `routine`: args are its parameters' values, in
                 // parameter order (coerced, defaults filled in); EvalContext::routines runs it.
                 // NULL without a call when the function is STRICT and an argument is NULL
};

// How a kSubquery uses its rows. kAny/kAll: args[0] is the tested value, compared by `op`
// with the subquery's one column (both of args[0]'s type) - or args[0..tested_values) a
// row, compared with as many columns by `=` or `<>` as PostgreSQL compares rows; the
// remaining args (all of them for the other kinds) are the correlation values, the
// subquery's kOuter slots 0..n-1.
enum class SubLink : uint8_t { kExists, kScalar, kAny, kAll, kArray };

enum class Op : uint8_t { kNone, kAdd, kSub, kMul, kDiv, kMod, kNeg, kEq, kNe, kLt, kLe, kGt, kGe };

enum class Func : uint8_t {
  kAbs, kRound, kTrunc, kFloor, kCeil, kMod, kLength, kLower, kUpper, kSubstr, kBtrim, kLtrim,
  kRtrim, kReplace, kStrpos, kConcat, kPower, kSqrt, kSign, kLeft, kRight,
  kOctetLength,  // octet_length(text | char(n)) -> integer: bytes (char(n) with its padding)
  kBitLength,    // bit_length(text) -> integer: 8 * octet_length
  kConcatWs,     // concat_ws(text, any, ...) -> text: the non-NULL values joined by the first
  kAscii,        // ascii(text) -> integer: the first character's code point (0 if empty)
  kRepeat,       // repeat(text, integer) -> text
  kChr,          // chr(integer) -> text
  kFormat,       // format(text, args...) -> text: %s, %I, %L, %%, positions (%2$s), widths;
                 // args after the format are text (string arguments keep their padding,
                 // as the output function prints them)
  kArrayLength,  // array_length(anyarray, integer) -> integer (NULL for an empty array)
  kCardinality,  // cardinality(anyarray) -> integer
  kArrayUpper,   // array_upper(anyarray, integer) -> integer
  kArrayLower,   // array_lower(anyarray, integer) -> integer
  kBoolOut,      // boolout(boolean) -> text: 't'/'f', the output function, which concat()
                 // and format() print with (a cast to text gives 'true'/'false')
  kArrayAppend,  // array_append(anycompatiblearray, anycompatible), also `array || element`:
                 // a NULL array is an empty one; a NULL element is appended
  kArrayPrepend, // array_prepend(anycompatible, anycompatiblearray), `element || array`
  kArrayCat,     // array_cat(a, b), `array || array`: NULL only when both are NULL
  kArraySet,     // PL/pgSQL's `var[i] := x` (no SQL name): args (array, i, x), the array with
                 // element i set, NULL-filled past the end; raises on a NULL subscript and
                 // on a subscript that would move the lower bound off 1
  kLpad,         // lpad(text, integer [, text]) -> text
  kRpad,         // rpad(text, integer [, text]) -> text
  kReverse,      // reverse(text) -> text
  kInitcap,      // initcap(text) -> text (ASCII letters, as PostgreSQL's C locale)
  kSplitPart,    // split_part(text, text, integer) -> text (negative: from the end)
  kStartsWith,   // starts_with(text, text) -> boolean
  kTranslate,    // translate(text, text, text) -> text
  kPi,           // pi() -> double precision
  kRandom,       // random() -> double precision: RandomDraws (random_draws.h), at Expr::site
  kToCharNumber, // to_char(integer | bigint | numeric | double precision, text) -> text
  kCheckViolation,  // raises a CHECK violation (never bound by name): args (table, constraint,
                    // not-null flags '0'/'1' per column, column names joined by '\x1f',
                    // then each column's new value as text); a NOT NULL one comes first
  // Date/time functions (planner/expr/datetime_builtins.cc). Those whose answer depends
  // on which time type the argument is (extract, date_part, to_char) get the type as a
  // last, constant int4 argument (datetime::TimeKind), which the binder adds.
  kNow,          // now() where no transaction timestamp is at hand: a column DEFAULT (each
                 // INSERT replaces it with its transaction's now()) or a bulk load
  kDateTrunc, kDatePart, kExtract, kAge, kJustifyDays, kJustifyHours, kJustifyInterval, kMakeDate,
  kMakeTime, kMakeTimestamp, kToChar, kToTimestamp, kToDate, kIsFinite,
  kTimezone,     // timezone(zone, t), `t AT TIME ZONE zone`: only UTC
  // The byte types (planner/types/bytes_text.h, digests through OpenSSL).
  kUuidFromDraws,  // gen_random_uuid() is bound as this over three random() draws (never
                   // bound by name): a version 4 uuid from their bits, so it replays
  kMd5,            // md5(text | bytea) -> text (hex)
  kSha224, kSha256, kSha384, kSha512,  // shaN(bytea) -> bytea
  kEncode,         // encode(bytea, text) -> text: 'hex', 'base64', 'escape'
  kDecode,         // decode(text, text) -> bytea
  kConvertTo,      // convert_to(text, name) -> bytea: the text's UTF-8 bytes
  kConvertFrom,    // convert_from(bytea, name) -> text: the bytes, checked as UTF-8
  kGetByte,        // get_byte(bytea, integer) -> integer
  kUuidNameBased,  // uuid-ossp's uuid_generate_v3 / _v5(namespace uuid, name text): args
                   // (namespace, name, version 3 or 5 as an int4 constant)
  kDigest,         // pgcrypto's digest(bytea, type text) -> bytea
  kHmac,           // pgcrypto's hmac(bytea, key bytea, type text) -> bytea
  // json and jsonb (planner/types/json.h, expr/json_builtins.cc). Results of type json
  // or jsonb are text of that type; a jsonb argument's text is canonical.
  kJsonGet,          // `j -> key | index`: the member or element, NULL if none
  kJsonGetText,      // `j ->> key | index`: as text (a string's value, null's NULL)
  kJsonPath,         // `j #> text[]`
  kJsonPathText,     // `j #>> text[]`
  kJsonbContains,    // `a @> b`
  kJsonbExists,      // `j ? text`: a key of an object, a string element of an array
  kJsonbExistsAny,   // `j ?| text[]`
  kJsonbExistsAll,   // `j ?& text[]`
  kJsonbConcat,      // `jsonb || jsonb`
  kJsonbDelete,      // `jsonb - text | integer`
  kToJson,           // to_json / to_jsonb (args: value, its TypeId, its element TypeId as
                     // int4 constants, added by the binder); also each value of the builders
  kJsonBuildObject,  // json_build_object / jsonb_build_object (the result type says which):
                     // args alternate key text and kToJson value
  kJsonBuildArray,   // json_build_array / jsonb_build_array: args kToJson values
  kJsonRow,          // row_to_json / to_json of a record: args as kJsonBuildObject's, written
                     // compactly as PostgreSQL writes a row ({"a":1,"b":"x"})
  kJsonTypeof,       // json_typeof / jsonb_typeof -> text
  kJsonArrayLength,  // json_array_length / jsonb_array_length -> integer
  kJsonbSet,         // jsonb_set(jsonb, text[], jsonb, boolean)
  kJsonbStripNulls,  // jsonb_strip_nulls(jsonb)
  kJsonbPretty,      // jsonb_pretty(jsonb) -> text
  kJsonAgg,          // json_agg / jsonb_agg(x), bound over array_agg(x) (args: that aggregate,
                     // x's TypeId and element TypeId as int4 constants)
  // The set-returning json functions are unnest over these arrays (binder/json_operators.h):
  kJsonArrayItems,   // (j, as_text, function name): the elements of a JSON array, as json[] /
                     // jsonb[] or (as_text) text[]
  kJsonObjectParts,  // (j, part, function name): an object's keys (part 0), values (1) or
                     // values as text (2), in order
  kJsonObjectAgg,    // json_object_agg / jsonb_object_agg(k, v), bound over array_agg(k) and
                     // array_agg(v) of the same rows (args: those, k's TypeId, v's TypeId and
                     // element TypeId as int4 constants)
  // More array functions (expr/array_builtins.cc), bound by binder/array_functions.h.
  // Elements compare as IS NOT DISTINCT FROM where PostgreSQL's do (remove, replace,
  // position), and NULL elements never match in the operators.
  kArrayRemove,      // array_remove(anycompatiblearray, anycompatible)
  kArrayReplace,     // array_replace(anycompatiblearray, anycompatible, anycompatible)
  kArrayPosition,    // array_position(anycompatiblearray, anycompatible [, integer])
  kArrayPositions,   // array_positions(anycompatiblearray, anycompatible) -> integer[]
  kArrayToString,    // array_to_string(anyarray, text [, text]): args (array, delimiter,
                     // NULL text or a NULL constant, then the element type's TypeId,
                     // precision and scale as int4 constants, added by the binder)
  kStringToArray,    // string_to_array(text, text [, text]) -> text[]
  kArrayContains,    // `anyarray @> anyarray`
  kArrayContainedBy, // `anyarray <@ anyarray`
  kArrayOverlap,     // `anyarray && anyarray`
  kArrayDims,        // array_dims(anyarray) -> text: "[1:n]", NULL for an empty array
  kArrayNdims,       // array_ndims(anyarray) -> integer: 1, NULL for an empty array
  kArrayFill,        // array_fill(anyelement, integer[] [, integer[]]) (one dimension from 1)
  kArraySlice,       // `a[lower:upper]` (args: array, lower, upper; an omitted bound is a
                     // constant 1 / a very large upper): the elements between, from 1
  // The enum functions (expr/enum_builtins.h): the node's type names the enum.
  kEnumFirst,        // enum_first(anyenum): the first label (the argument's value is unused)
  kEnumLast,         // enum_last(anyenum)
  kEnumRange,        // enum_range(anyenum [, anyenum]) -> anyenum[]
  kDomainCheck,      // args[0] (of the domain's base type) as a value of the domain the node's
                     // type names: its NOT NULL and CHECK constraints hold, else 23502 / 23514
};

// Window functions (kWindowRef `window_func`); the aggregates over a window are kAgg with
// `agg` set.
enum class WindowFunc : uint8_t { kRowNumber, kRank, kDenseRank, kLag, kLead, kFirstValue, kLastValue, kNtile, kAgg,
                                  kPercentRank, kCumeDist, kNthValue };

// kArrayAgg: array_agg(x) (with `distinct` and ordering: see Expr::distinct, Expr::order).
// kStringAgg: string_agg(text, delimiter) (args: value, delimiter); kBoolAnd also `every`.
enum class AggFunc : uint8_t { kCountStar, kCount, kSum, kMin, kMax, kAvg, kArrayAgg, kStringAgg, kBoolAnd, kBoolOr };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind = ExprKind::kConst;
  SqlType type;
  int location = -1;  // byte offset in the statement text, for errors raised at run time
  Op op = Op::kNone;
  Func func = Func::kAbs;
  AggFunc agg = AggFunc::kCount;
  bool negated = false;
  bool case_insensitive = false;
  bool explicit_cast = false;
  // kAggRef: DISTINCT; and for array_agg, `sort` orders the elements by their value
  // (1 ascending, -1 descending, 0: input order).
  bool distinct = false;
  int8_t sort = 0;
  // kAggRef with ORDER BY keys other than its value (array_agg(x ORDER BY y DESC, z)):
  // one entry per key, the keys being the args after the value and string_agg's
  // delimiter; each is kOrderDescending | kOrderNullsFirst (the default resolved: NULLS
  // FIRST when descending).
  std::vector<uint8_t> order;
  static constexpr uint8_t kOrderDescending = 1, kOrderNullsFirst = 2;
  // kAggRef with FILTER (WHERE cond): the last of `args` is cond.
  bool filtered = false;
  Datum value;  // kConst
  Slot slot;    // kSlot
  SubLink sublink = SubLink::kScalar;  // kSubquery
  int subplan = -1;                    // kSubquery: the query's subplan; kWindowRef: its window
  uint8_t tested_values = 1;           // kSubquery kAny / kAll: see SubLink
  WindowFunc window_func = WindowFunc::kRowNumber;  // kWindowRef
  // kRoutineCall: the function as it was when the expression was bound (CREATE OR REPLACE
  // of it binds its callers again: planner/exec/procedure_ddl.h).
  std::shared_ptr<const ProcedureIr> routine;
  std::string routine_name;  // kRoutineCall: the function's name (for messages)
  // A random() call (kFunc kRandom) or a kRoutineCall: its draw site in the procedure
  // (planner/analysis/draw_sites.h; random_draws.h says why); -1 outside procedures.
  int site = -1;
  std::vector<ExprPtr> args;

  ExprPtr Clone() const;
  // Structural equality (GROUP BY matching).
  bool Equals(const Expr& other) const;
  // Whether any slot of `space` occurs in the tree.
  bool References(SlotSpace space) const;
  bool ContainsAggregate() const;
  bool Contains(ExprKind k) const;  // this node or any below it is of kind `k`
  // Whether evaluating it calls random() (PostgreSQL's volatile: a new value each time,
  // so never a key to look rows up by, never folded).
  bool DrawsRandom() const;
  // A readable rendering of the IR, for tests and EXPLAIN.
  std::string DebugString() const;
};

// A node of `kind` and `type` without arguments (the caller adds them).
ExprPtr MakeExpr(ExprKind kind, SqlType type, int location = -1);
ExprPtr MakeConst(Datum value, SqlType type, int location = -1);
ExprPtr MakeSlot(Slot slot, SqlType type, int location = -1);
// A kFunc call of `func` over `args`.
ExprPtr MakeCall(Func func, SqlType type, std::vector<ExprPtr> args, int location = -1);
// Calls `f` on every slot in `e` (mutable), subquery correlation values included.
template <typename F>
void ForEachSlot(Expr& e, F&& f) {
  if (e.kind == ExprKind::kSlot) f(e.slot);
  for (auto& a : e.args) ForEachSlot(*a, f);
}

}  // namespace caracal::planner
