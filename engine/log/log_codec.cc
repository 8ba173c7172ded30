#include "engine/log/log_codec.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <fmt/format.h>

#include <vector>

namespace caracal::engine {

namespace {

// Value tags. Stored in the log: never renumber.
enum : uint8_t {
  kTagNull = 0,
  kTagFalse = 1,
  kTagTrue = 2,
  kTagInt = 3,
  kTagDouble = 4,
  kTagNumeric = 5,
  kTagString = 6,
  kTagTimestamp = 7,
  kTagArray = 8,
};

constexpr int kMaxArrayDepth = 16;

}  // namespace

uint64_t Checksum(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

uint64_t Checksum(std::string_view a, std::string_view b) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, a.data(), a.size());
  XXH3_64bits_update(&state, b.data(), b.size());
  return XXH3_64bits_digest(&state);
}

void ByteWriter::Val(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: U8(kTagNull); return;
    case Value::Kind::kBool: U8(v.as_bool() ? kTagTrue : kTagFalse); return;
    case Value::Kind::kInt:
      U8(kTagInt);
      Signed(v.as_int());
      return;
    case Value::Kind::kDouble:
      U8(kTagDouble);
      Double(v.as_double());
      return;
    case Value::Kind::kNumeric:
      U8(kTagNumeric);
      Signed(v.numeric_mantissa());
      U8(static_cast<uint8_t>(v.numeric_scale()));
      return;
    case Value::Kind::kString:
      U8(kTagString);
      Bytes(v.as_string());
      return;
    case Value::Kind::kTimestamp:
      U8(kTagTimestamp);
      Signed(v.as_timestamp());
      return;
    case Value::Kind::kArray:
      U8(kTagArray);
      Varint(v.as_array().size());
      for (const Value& e : v.as_array()) Val(e);
      return;
  }
}

void ByteReader::Fail(std::string_view why) const {
  throw LogFormatError(fmt::format("{}: {} (at byte {} of {})", what_, why, pos_, in_.size()));
}

std::string_view ByteReader::Take(size_t n) {
  if (n > in_.size() - pos_) Fail("truncated");
  std::string_view s = in_.substr(pos_, n);
  pos_ += n;
  return s;
}

uint64_t ByteReader::Fixed(int n) {
  std::string_view s = Take(static_cast<size_t>(n));
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(s[i])) << (8 * i);
  return v;
}

uint64_t ByteReader::Varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b = U8();
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  Fail("varint too long");
}

size_t ByteReader::Length() {
  uint64_t n = Varint();
  if (n > remaining()) Fail("length beyond the end");
  return static_cast<size_t>(n);
}

size_t ByteReader::Count(size_t min_item_bytes) {
  uint64_t n = Varint();
  if (min_item_bytes > 0 && n > remaining() / min_item_bytes) Fail("count beyond the end");
  return static_cast<size_t>(n);
}

void ByteReader::ExpectDone() const {
  if (!done()) Fail("unexpected bytes after the end");
}

Value ByteReader::Val(int depth) {
  uint8_t tag = U8();
  switch (tag) {
    case kTagNull: return Value::Null();
    case kTagFalse: return Value::Bool(false);
    case kTagTrue: return Value::Bool(true);
    case kTagInt: return Value::Int(Signed());
    case kTagDouble: return Value::Double(Double());
    case kTagNumeric: {
      int64_t m = Signed();
      int scale = U8();
      if (scale > 18) Fail("numeric scale out of range");
      return Value::Numeric(m, scale);
    }
    case kTagString: return Value::String(std::string(Bytes()));
    case kTagTimestamp: return Value::Timestamp(Signed());
    case kTagArray: {
      if (depth >= kMaxArrayDepth) Fail("arrays nested too deeply");
      size_t n = Count(1);
      std::vector<Value> elements;
      elements.reserve(n);
      for (size_t i = 0; i < n; ++i) elements.push_back(Val(depth + 1));
      return Value::Array(std::move(elements));
    }
    default: Fail(fmt::format("unknown value tag {}", tag));
  }
}

}  // namespace caracal::engine
