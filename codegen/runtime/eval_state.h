// EvalState: what JIT-compiled code receives (one pointer), and the byte layouts of the
// C++ objects it reads and writes directly.
//
// Generated code never throws: a runtime function that fails stores the exception in
// `error` and returns 0; the generated code then returns its error status at once, and
// the C++ caller rethrows (`RethrowIfError`). So no C++ exception ever unwinds through a
// JIT'd frame, and the SqlError a user sees is exactly the one the interpreter throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>

#include "engine/types/row_value.h"
#include "engine/types/types.h"
#include "planner/types/datum.h"

namespace caracal::engine {
class DeclareContext;
}

namespace caracal::codegen {

struct EvalState {
  // The procedure frame (SlotSpace::kVariable). Expressions only read it; compiled
  // statements write it.
  planner::Datum* variables = nullptr;
  const planner::Datum* group_keys = nullptr;  // SlotSpace::kGroupKey
  const planner::Datum* aggregates = nullptr;  // SlotSpace::kAggregate
  const engine::RowValue* row = nullptr;               // SlotSpace::kColumn
  const engine::RowValue* excluded = nullptr;          // SlotSpace::kExcluded
  // Scratch Datums for intermediate boxed values (numeric, strings); the compiled unit
  // says how many it needs. Owned by the caller, so one compiled unit runs concurrently.
  planner::Datum* temps = nullptr;
  // Opaque pointer for the statement runtime (procedures); expressions ignore it.
  void* user = nullptr;
  // An init program's DeclareContext, for the declarations that are one call on it
  // (caracal_rt_declare_direct); null when the hooks must see every declaration.
  engine::DeclareContext* declare = nullptr;
  // Set by a failing runtime function (not read by generated code).
  std::exception_ptr error;
  // Where compiled procedure code failed (caracal_rt_error_at), for PL/pgSQL's CONTEXT:
  // the planner::Stmt (a planner::Variable for ErrorWhere::kLocals), and the ErrorWhere.
  const void* error_at = nullptr;
  int32_t error_where = 0;

  void RethrowIfError() {
    if (error) {
      std::exception_ptr e = std::move(error);
      error = nullptr;
      std::rethrow_exception(e);
    }
  }
};

// What a compiled row write returns (jit/row_writes.h says when each happens): the row
// is written, the UPDATE's WHERE residual rejected it, or the general path must write
// it; 0 is an error, as for any compiled expression.
enum RowWrite : int32_t {
  kRowWritten = 1,
  kRowRejected = 2,
  kRowFallback = 3,
};

// A column of the row a compiled INSERT builds (row_writes.h), as generated code fills it
// for caracal_rt_build_row.
struct BuildCell {
  int64_t bits;                  // a fixed-width column's slot
  const planner::Datum* string;  // a string column's value (kind kString); else nullptr
  int64_t is_null;
};
// What a compiled UPDATE's patch writes to (row_writes.h): `row` is the caller's
// writable copy of the old row. When a string column changes size or nullness the copy
// cannot take it, and the runtime encodes the whole new row into `rebuilt`, which the
// caller then owns (and uses instead of the copy).
struct PatchTarget {
  engine::RowValue* row = nullptr;
  const engine::Schema* schema = nullptr;
  engine::RowValue* rebuilt = nullptr;
};
// A string SET value of a compiled UPDATE, as generated code records it for
// caracal_rt_rebuild_row.
struct PatchString {
  int64_t col;
  const planner::Datum* value;  // kind kString unless is_null
  int64_t is_null;
};
// What a compiled INSERT's case writes to: the caller sets `schema` (the table's); the
// runtime sets `row`, which the caller then owns.
struct BuiltRow {
  const engine::Schema* schema = nullptr;
  engine::RowValue* row = nullptr;
};

// Byte offsets generated code uses. offsetof on these types is supported by GCC and
// Clang (they are not standard-layout because of std::string members); the static
// asserts in layout.cc check the assumptions the code generator makes.
struct Layout {
  static size_t StateVariables();
  static size_t StateGroupKeys();
  static size_t StateAggregates();
  static size_t StateRow();
  static size_t StateExcluded();
  static size_t StateTemps();
  static size_t StateUser();

  static size_t DatumSize();
  static size_t DatumKind();      // uint8_t
  static size_t DatumInt();       // int64_t (bool, integers, timestamp)
  static size_t DatumFloat();     // double
  static size_t DatumNumeric();   // Numeric: int128 mantissa at +0, int32 scale at +16
  static size_t NumericMantissa();
  static size_t NumericScale();

  // The standard library's own layouts, which generated code reads only where these
  // say they hold (checked once, at startup, on real objects; otherwise it calls the
  // runtime): a Datum's std::string is {char* data; size_t size; union {char local[16];
  // size_t capacity}} with data == local for short strings (libstdc++), and its
  // shared_ptr<const vector<Datum>> starts with the vector's address, which is
  // {Datum* begin; Datum* end; ...}.
  static size_t DatumString();    // offset of the std::string
  static size_t DatumArray();     // offset of the shared_ptr
  static bool StringLayoutKnown();
  static bool ArrayLayoutKnown();
  // Whether a short key written at Key::Layout()'s offsets (as compiled point keys are)
  // is the Key the engine builds: checked once, at startup, on real keys.
  static bool KeyInPlaceKnown();

  // RowValue: uint16 column count at +4; null bitmap at +8 (bytes rounded to 8-byte
  // words: ((n + 63) / 64) * 8); then one 8-byte slot per column.
  static size_t BuildCellSize();
  static size_t BuildCellString();
  static size_t BuildCellNull();
  static size_t PatchTargetRow();
  static size_t PatchStringSize();
  static size_t PatchStringValue();
  static size_t PatchStringNull();

  static size_t RowHeader();
  static size_t RowNumColumns();
};

}  // namespace caracal::codegen
