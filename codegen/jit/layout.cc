#include <cstddef>
#include <new>

#include "codegen/runtime/eval_state.h"
#include "engine/types/key.h"

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

// A Datum's std::string as the generated code reads it (see Layout): short and long.
bool StringLayoutHolds() {
  Datum d;
  auto word = [&](size_t at) {
    uint64_t w;
    __builtin_memcpy(&w, reinterpret_cast<const char*>(&d) + offsetof(Datum, s) + at, sizeof w);
    return w;
  };
  const auto local = reinterpret_cast<uint64_t>(reinterpret_cast<const char*>(&d) + offsetof(Datum, s) + 16);
  d.s = "ab";
  if (word(0) != reinterpret_cast<uint64_t>(d.s.data()) || word(0) != local || word(8) != 2 || d.s.capacity() != 15)
    return false;
  d.s.assign(40, 'x');
  return word(0) == reinterpret_cast<uint64_t>(d.s.data()) && word(0) != local && word(8) == 40 &&
         word(16) == d.s.capacity();
}
const bool kStringLayoutOk = StringLayoutHolds();

// A Datum's array: shared_ptr's element pointer first, then the vector's begin and end.
bool ArrayLayoutHolds() {
  Datum d = Datum::Array({Datum::Int(1), Datum::Int(2), Datum::Int(3)});
  uint64_t vec, begin, end;
  __builtin_memcpy(&vec, reinterpret_cast<const char*>(&d) + offsetof(Datum, array), sizeof vec);
  if (vec != reinterpret_cast<uint64_t>(d.array.get())) return false;
  __builtin_memcpy(&begin, reinterpret_cast<const char*>(vec), sizeof begin);
  __builtin_memcpy(&end, reinterpret_cast<const char*>(vec) + 8, sizeof end);
  return begin == reinterpret_cast<uint64_t>(d.array->data()) && end - begin == 3 * sizeof(Datum);
}
const bool kArrayLayoutOk = ArrayLayoutHolds();

// A short key written the way compiled code writes it (Key::Layout: size, capacity, the
// bytes, a null heap pointer) equals and hashes as the key the engine encodes.
bool KeyInPlaceHolds() {
  engine::Key expected;
  expected.AppendInt(-7, engine::ColumnType::kSmallInt);
  expected.AppendInt(123456, engine::ColumnType::kInteger);
  expected.AppendInt(-9876543210LL, engine::ColumnType::kBigInt);
  const engine::Key::InlineLayout layout = engine::Key::Layout();
  if (layout.object_size != sizeof(engine::Key) || layout.object_align > alignof(std::max_align_t) ||
      layout.bytes + engine::Key::kInlineCapacity > layout.object_size || expected.size() > engine::Key::kInlineCapacity)
    return false;
  alignas(engine::Key) unsigned char storage[sizeof(engine::Key)] = {};
  const auto size = static_cast<uint32_t>(expected.size());
  const auto capacity = static_cast<uint32_t>(engine::Key::kInlineCapacity);
  const void* null = nullptr;
  __builtin_memcpy(storage + layout.size, &size, sizeof size);
  __builtin_memcpy(storage + layout.capacity, &capacity, sizeof capacity);
  __builtin_memcpy(storage + layout.heap, &null, sizeof null);
  __builtin_memcpy(storage + layout.bytes, expected.data(), expected.size());
  const engine::Key& built = *std::launder(reinterpret_cast<const engine::Key*>(storage));
  return built == expected && built.Hash() == expected.Hash() && built.data() == storage + layout.bytes &&
         engine::Key(built) == expected;
}
const bool kKeyInPlaceOk = KeyInPlaceHolds();

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
size_t Layout::DatumString() { return offsetof(Datum, s); }
size_t Layout::DatumArray() { return offsetof(Datum, array); }
bool Layout::StringLayoutKnown() { return kStringLayoutOk; }
bool Layout::ArrayLayoutKnown() { return kArrayLayoutOk; }
bool Layout::KeyInPlaceKnown() { return kKeyInPlaceOk; }

static_assert(offsetof(BuildCell, bits) == 0);
size_t Layout::BuildCellSize() { return sizeof(BuildCell); }
size_t Layout::BuildCellString() { return offsetof(BuildCell, string); }
size_t Layout::BuildCellNull() { return offsetof(BuildCell, is_null); }
size_t Layout::PatchTargetRow() { return offsetof(PatchTarget, row); }
static_assert(offsetof(PatchString, col) == 0);
size_t Layout::PatchStringSize() { return sizeof(PatchString); }
size_t Layout::PatchStringValue() { return offsetof(PatchString, value); }
size_t Layout::PatchStringNull() { return offsetof(PatchString, is_null); }

size_t Layout::RowHeader() { return sizeof(engine::RowValue); }
size_t Layout::RowNumColumns() { return 4; }

}  // namespace caracal::codegen
