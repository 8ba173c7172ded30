#include <cstddef>

#include "codegen/eval_state.h"

#pragma GCC diagnostic ignored "-Winvalid-offsetof"

namespace caracal::codegen {

namespace {
using planner::Datum;
using planner::Numeric;

// A Numeric is {int128 mantissa; int scale}: checked by reading one back through the
// offsets the generated code uses.
bool NumericLayoutHolds() {
  Numeric n(static_cast<__int128>(-12345), 7);
  const char* p = reinterpret_cast<const char*>(&n);
  __int128 m;
  int s;
  __builtin_memcpy(&m, p + 0, sizeof m);
  __builtin_memcpy(&s, p + 16, sizeof s);
  return m == -12345 && s == 7;
}
const bool kNumericLayoutOk = NumericLayoutHolds();

// The RowValue header (size u32, num_columns u16, reserved u16) is 8 bytes.
static_assert(sizeof(uint32_t) + 2 * sizeof(uint16_t) == 8);
}  // namespace

size_t Layout::StateVariables() { return offsetof(EvalState, variables); }
size_t Layout::StateGroupKeys() { return offsetof(EvalState, group_keys); }
size_t Layout::StateAggregates() { return offsetof(EvalState, aggregates); }
size_t Layout::StateRow() { return offsetof(EvalState, row); }
size_t Layout::StateExcluded() { return offsetof(EvalState, excluded); }
size_t Layout::StateTemps() { return offsetof(EvalState, temps); }
size_t Layout::StateUser() { return offsetof(EvalState, user); }

size_t Layout::DatumSize() { return sizeof(Datum); }
size_t Layout::DatumKind() { return offsetof(Datum, kind); }
size_t Layout::DatumInt() { return offsetof(Datum, i); }
size_t Layout::DatumFloat() { return offsetof(Datum, f); }
size_t Layout::DatumNumeric() { return offsetof(Datum, n); }
size_t Layout::NumericMantissa() { return kNumericLayoutOk ? 0 : throw std::logic_error("Numeric layout"); }
size_t Layout::NumericScale() { return 16; }

static_assert(offsetof(BuildCell, bits) == 0);
size_t Layout::BuildCellSize() { return sizeof(BuildCell); }
size_t Layout::BuildCellString() { return offsetof(BuildCell, string); }
size_t Layout::BuildCellNull() { return offsetof(BuildCell, is_null); }

size_t Layout::RowHeader() { return sizeof(RowValue); }
size_t Layout::RowNumColumns() { return 4; }

}  // namespace caracal::codegen
