// RowValue: one immutable version of a row's contents, in a compact self-contained blob
// whose layout the table's Schema fixes:
//
//   [header: size, column count][null bitmap, 8-byte aligned][one 8-byte slot per column]
//   [variable area: string bytes]
//
// Integers, booleans, timestamps and numeric mantissas are int64 slots, real/double are
// double slots, strings are (offset, length) into the variable area. A version is written
// once by its transaction and never changed; a new version is a new blob (RowBuilder).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <forward_list>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/types.h"
#include "engine/types/value.h"

namespace caracal::engine {

class RowValue {
 public:
  RowValue(const RowValue&) = delete;
  RowValue& operator=(const RowValue&) = delete;

  uint32_t size() const { return size_; }
  int num_columns() const { return num_columns_; }

  bool IsNull(int col) const { return (bitmap()[col >> 3] >> (col & 7)) & 1; }
  int64_t GetInt(int col) const { return Slot(col).i; }
  double GetDouble(int col) const { return Slot(col).d; }
  bool GetBool(int col) const { return Slot(col).i != 0; }
  std::string_view GetString(int col) const {
    const SlotBits& s = Slot(col);
    return {reinterpret_cast<const char*>(this) + s.str.offset, s.str.length};
  }
  // The column as a Value of the column's type (NULL if null).
  Value Get(const Schema& schema, int col) const;
  std::vector<Value> GetAll(const Schema& schema) const;

  // The blob itself: position-independent (strings are offsets into it), so these bytes
  // are how the input log and checkpoints store a row.
  std::string_view bytes() const { return {reinterpret_cast<const char*>(this), size_}; }
  // (RowFromBytes, below, turns them back into a row.)

  struct Deleter {
    void operator()(RowValue* v) const { std::free(v); }
  };

 private:
  friend class RowBuilder;
  friend class RowPatch;
  RowValue() = default;
  union SlotBits {
    int64_t i;
    double d;
    struct {
      uint32_t offset;
      uint32_t length;
    } str;
  };
  static size_t BitmapBytes(int n) { return ((static_cast<size_t>(n) + 63) / 64) * 8; }
  const uint8_t* bitmap() const { return reinterpret_cast<const uint8_t*>(this) + sizeof(RowValue); }
  const SlotBits& Slot(int col) const {
    return reinterpret_cast<const SlotBits*>(bitmap() + BitmapBytes(num_columns_))[col];
  }

  uint32_t size_;
  uint16_t num_columns_;
  uint16_t reserved_;
};

using RowValuePtr = std::unique_ptr<RowValue, RowValue::Deleter>;

// One column of a row being encoded: a fixed-width column's slot bits, or a string.
struct RowCell {
  bool null = true;
  bool is_string = false;
  int64_t bits = 0;
  std::string_view str;
};
// The row of `cells` (one per column, in order): what RowBuilder::Build returns for the
// same cells. Strings are copied in column order after the slots.
RowValuePtr EncodeRow(std::span<const RowCell> cells);
// The same for `n` cells made on demand: `cell_at(i)` returns column i's RowCell (it is
// asked twice per column), so cells kept in another layout need no RowCell array.
template <typename CellAt>
RowValuePtr EncodeRowWith(int n, CellAt&& cell_at) {
  const size_t bitmap = ((static_cast<size_t>(n) + 63) / 64) * 8;
  const size_t fixed = 8 + bitmap + 8 * static_cast<size_t>(n);
  size_t total = fixed;
  for (int i = 0; i < n; ++i) {
    const RowCell& c = cell_at(i);  // a reference, or a temporary kept alive
    if (!c.null && c.is_string) total += c.str.size();
  }
  auto* raw = static_cast<uint8_t*>(std::malloc(total));
  if (raw == nullptr) throw std::bad_alloc();
  std::memset(raw, 0, fixed);
  const auto size32 = static_cast<uint32_t>(total);
  const auto cols16 = static_cast<uint16_t>(n);
  std::memcpy(raw, &size32, 4);
  std::memcpy(raw + 4, &cols16, 2);
  uint8_t* bits = raw + 8;
  uint8_t* slots = raw + 8 + bitmap;
  size_t var = fixed;
  for (int i = 0; i < n; ++i) {
    const RowCell& c = cell_at(i);  // a reference, or a temporary kept alive
    if (c.null) {
      bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
      continue;
    }
    if (c.is_string) {
      const auto off = static_cast<uint32_t>(var), len = static_cast<uint32_t>(c.str.size());
      std::memcpy(slots + 8 * i, &off, 4);
      std::memcpy(slots + 8 * i + 4, &len, 4);
      std::memcpy(raw + var, c.str.data(), c.str.size());
      var += c.str.size();
    } else {
      std::memcpy(slots + 8 * i, &c.bits, 8);
    }
  }
  return RowValuePtr(reinterpret_cast<RowValue*>(raw));
}

// Builds a RowValue: column by column, or as a copy of an earlier version with some
// columns changed. String views passed in must stay valid until Build().
class RowBuilder {
 public:
  explicit RowBuilder(const Schema& schema);
  RowBuilder(const Schema& schema, const RowValue& base);

  RowBuilder& SetNull(int col);
  RowBuilder& SetInt(int col, int64_t v);
  RowBuilder& SetDouble(int col, double v);
  RowBuilder& SetBool(int col, bool v) { return SetInt(col, v ? 1 : 0); }
  RowBuilder& SetString(int col, std::string_view v);  // copied into the builder
  RowBuilder& SetStringRef(int col, std::string_view v);  // referenced until Build()
  // Sets a column from a Value, converting to the column's type (numeric rescaled,
  // char(n) blank-padded). Throws EngineError on a kind mismatch or NOT NULL violation.
  RowBuilder& Set(int col, const Value& v);

  RowValuePtr Build() const { return EncodeRow(cells_); }

 private:
  const Schema& schema_;
  std::vector<RowCell> cells_;
  // Stable addresses, and (unlike a deque) no allocation while empty.
  std::forward_list<std::string> owned_;
};

// A copy of a row with some fixed-width columns (everything but strings) or same-size
// strings changed: the blob is copied and their slots or bytes rewritten, without
// re-encoding the rest of the row. The
// result is byte for byte what RowBuilder(schema, base) with the same calls builds (a
// null column's slot is zero), so the state hash cannot tell them apart.
class RowPatch {
 public:
  explicit RowPatch(const RowValue& base);
  RowPatch& SetNull(int col);
  RowPatch& SetInt(int col, int64_t v);
  RowPatch& SetDouble(int col, double v);
  // As RowBuilder::Set, for a column that is not a string (std::logic_error otherwise).
  RowPatch& Set(const Schema& schema, int col, const Value& v);
  // Overwrites a string column whose base value is not null and has exactly v.size()
  // bytes (std::logic_error otherwise): the layout is unchanged, so the row is still what
  // RowBuilder would build. `v` must already be what RowBuilder stores (char(n) padded).
  RowPatch& SetSameSizeString(int col, std::string_view v);
  RowValuePtr Build() { return std::move(row_); }
  // The copy itself, for generated code that rewrites slots, null bits and same-size
  // strings exactly as the setters above do (codegen/update_patch.h).
  RowValue* mutable_row() { return row_.get(); }

 private:
  uint8_t* bitmap() { return reinterpret_cast<uint8_t*>(row_.get()) + sizeof(RowValue); }
  RowValue::SlotBits& Slot(int col) { return const_cast<RowValue::SlotBits&>(row_->Slot(col)); }

  RowValuePtr row_;
};

// A copy of `bytes` (RowValue::bytes() of a row of the same schema) as a row. Throws
// EngineError (XX001) if they are not a well-formed row of `schema`: wrong size, column
// count, or a string outside the blob.
RowValuePtr RowFromBytes(const Schema& schema, std::string_view bytes);

// A whole row from values, one per column in schema order.
RowValuePtr MakeRow(const Schema& schema, std::span<const Value> values);

}  // namespace caracal::engine
