// Key: an order-preserving byte encoding of a tuple of column values, so that memcmp
// order equals SQL order. Primary keys, range bounds and secondary index entries all
// use it. Short keys (the common case: a few integers) live inline, without allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/types/types.h"
#include "engine/types/value.h"

namespace caracal::engine {

class Key {
 public:
  static constexpr size_t kInlineCapacity = 40;

  Key() = default;
  Key(const Key& other) { Assign(other.data(), other.size()); }
  Key(Key&& other) noexcept { *this = std::move(other); }
  Key& operator=(const Key& other) {
    if (this != &other) Assign(other.data(), other.size());
    return *this;
  }
  Key& operator=(Key&& other) noexcept;
  ~Key() = default;

  const uint8_t* data() const { return heap_ ? heap_.get() : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data()), size_}; }

  // Appenders, one per column type, in order-preserving form.
  void AppendInt(int64_t v, ColumnType width);  // width: kSmallInt, kInteger or kBigInt
  // AppendInt's bytes into `out` (room for 8); their count. For callers that encode
  // several columns before appending them at once.
  static size_t EncodeInt(int64_t v, ColumnType width, uint8_t* out) {
    switch (width) {
      case ColumnType::kSmallInt: {
        const uint16_t u = static_cast<uint16_t>(static_cast<int16_t>(v)) ^ 0x8000u;
        out[0] = static_cast<uint8_t>(u >> 8);
        out[1] = static_cast<uint8_t>(u & 0xff);
        return 2;
      }
      case ColumnType::kInteger: {
        const uint32_t u = __builtin_bswap32(static_cast<uint32_t>(static_cast<int32_t>(v)) ^ 0x80000000u);
        std::memcpy(out, &u, 4);
        return 4;
      }
      default: {
        const uint64_t u = __builtin_bswap64(static_cast<uint64_t>(v) ^ 0x8000000000000000ull);
        std::memcpy(out, &u, 8);
        return 8;
      }
    }
  }
  void AppendDouble(double v);
  void AppendBool(bool v);
  void AppendString(std::string_view s);
  // A numeric of any precision given as its decimal text ("-12.50"), ordered as the
  // numbers are, equal numbers of other scales alike (1.5 and 1.50). Throws KeyError for
  // text that is not a plain decimal number.
  void AppendDecimal(std::string_view text);
  // Appends `v` converted to `column`'s type; throws KeyError on NULL or a kind mismatch.
  void AppendValue(const Value& v, const Column& column);
  // Raw bytes (a prefix of another key, or an upper-bound sentinel).
  void AppendBytes(const void* p, size_t n);
  // Room for `n` more bytes at the end, for the caller to fill at once (EncodeInt).
  uint8_t* AppendRoom(size_t n) { return Grow(n); }

  // The smallest key greater than every key that starts with this one: for prefix ranges.
  Key PrefixSuccessor() const;

  std::string ToHex() const;

  friend bool operator==(const Key& a, const Key& b) {
    return a.size_ == b.size_ && std::memcmp(a.data(), b.data(), a.size_) == 0;
  }
  friend int Compare(const Key& a, const Key& b) {
    size_t n = a.size_ < b.size_ ? a.size_ : b.size_;
    int c = std::memcmp(a.data(), b.data(), n);
    if (c != 0) return c;
    return a.size_ < b.size_ ? -1 : (a.size_ > b.size_ ? 1 : 0);
  }
  friend bool operator<(const Key& a, const Key& b) { return Compare(a, b) < 0; }

  uint64_t Hash() const;

  // Where a Key keeps its bytes, for JIT'd code that builds short keys in place (codegen's
  // point keys): a key of at most kInlineCapacity bytes is {size, capacity =
  // kInlineCapacity, the bytes in the inline buffer, a null heap pointer}, and such a key
  // owns nothing, so it needs no destructor. Byte offsets into the object.
  struct InlineLayout {
    size_t size;       // uint32_t
    size_t capacity;   // uint32_t
    size_t bytes;      // uint8_t[kInlineCapacity]
    size_t heap;       // a pointer (std::unique_ptr<uint8_t[]>), null
    size_t object_size;
    size_t object_align;
  };
  static InlineLayout Layout();

 private:
  void Assign(const uint8_t* p, size_t n);
  // Room for `extra` more bytes at the end (size grows by `extra`); their address.
  uint8_t* Grow(size_t extra) {
    const size_t need = size_ + extra;
    if (need > capacity_) return GrowHeap(extra);
    uint8_t* out = (heap_ ? heap_.get() : inline_) + size_;
    size_ = static_cast<uint32_t>(need);
    return out;
  }
  uint8_t* GrowHeap(size_t extra);

  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineCapacity;
  uint8_t inline_[kInlineCapacity];
  std::unique_ptr<uint8_t[]> heap_;
};

struct KeyLess {
  bool operator()(const Key& a, const Key& b) const { return a < b; }
};

// The end of the span [key, PointSpanEnd(key)) that holds exactly `key` (its successor in
// byte order: `key` followed by a zero byte); IsPointSpan recognizes such a span.
Key PointSpanEnd(const Key& key);
bool IsPointSpan(const Key& lo, const Key& hi);

struct KeyHash {
  size_t operator()(const Key& k) const { return static_cast<size_t>(k.Hash()); }
};

// Builds a key from values for the given key columns of a schema.
Key EncodeKey(const Schema& schema, std::span<const int> key_columns, std::span<const Value> values);
// Primary key of a schema from values of its key columns, in key order.
Key EncodePrimaryKey(const Schema& schema, std::span<const Value> key_values);
// Decodes a key back into values (for output and state hashing).
std::vector<Value> DecodeKey(const Schema& schema, std::span<const int> key_columns, const Key& key);

}  // namespace caracal::engine
