// Byte encoding shared by the input log and checkpoints: little-endian fixed-width
// integers, LEB128 varints (zigzag for signed values), length-prefixed strings and
// engine Values. ByteReader checks every bound and throws LogFormatError instead of
// reading past its input, so a damaged record that slipped past its checksum (or a
// format bug) is an error, never a crash.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/types/value.h"

namespace caracal::engine {

// The log or a checkpoint is not what it should be: a malformed record, a checksum
// mismatch where none may be, a missing segment. The message says where.
class LogFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// xxHash3 (64 bits) of `bytes`: every log record and checkpoint block carries one.
uint64_t Checksum(std::string_view bytes);
uint64_t Checksum(std::string_view a, std::string_view b);  // of the concatenation

class ByteWriter {
 public:
  explicit ByteWriter(std::string& out) : out_(out) {}

  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(uint32_t v) { Fixed(v, 4); }
  void U64(uint64_t v) { Fixed(v, 8); }
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void Signed(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Double(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    U64(bits);
  }
  // Length-prefixed bytes.
  void Bytes(std::string_view s) {
    Varint(s.size());
    out_.append(s);
  }
  void Raw(std::string_view s) { out_.append(s); }
  void Val(const Value& v);

  std::string& out() { return out_; }

 private:
  void Fixed(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string& out_;
};

class ByteReader {
 public:
  // `what` names the input in error messages ("log record 42").
  ByteReader(std::string_view in, std::string what) : in_(in), what_(std::move(what)) {}

  uint8_t U8() { return static_cast<uint8_t>(Take(1)[0]); }
  uint32_t U32() { return static_cast<uint32_t>(Fixed(4)); }
  uint64_t U64() { return Fixed(8); }
  uint64_t Varint();
  int64_t Signed() {
    uint64_t z = Varint();
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  double Double() {
    uint64_t bits = U64();
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  std::string_view Bytes() { return Take(Length()); }
  std::string_view Raw(size_t n) { return Take(n); }
  Value Val() { return Val(0); }
  // A count of items that each take at least `min_item_bytes`: checked against what is
  // left, so a damaged count cannot make the caller reserve gigabytes.
  size_t Count(size_t min_item_bytes = 1);

  bool done() const { return pos_ == in_.size(); }
  size_t remaining() const { return in_.size() - pos_; }
  // Throws unless everything was read.
  void ExpectDone() const;
  [[noreturn]] void Fail(std::string_view why) const;

 private:
  size_t Length();
  std::string_view Take(size_t n);
  uint64_t Fixed(int n);
  Value Val(int depth);

  std::string_view in_;
  size_t pos_ = 0;
  std::string what_;
};

}  // namespace caracal::engine
