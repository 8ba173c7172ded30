#include "frontend/session/encoding.h"

#include <fmt/format.h>

namespace caracal::frontend {

namespace {

// The length a UTF-8 sequence announces by its lead byte (1 for a stray byte).
size_t SequenceLength(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

// PostgreSQL's pg_utf8_islegal: well-formed and not overlong, no surrogates, <= U+10FFFF.
bool Legal(const unsigned char* s, size_t n) {
  unsigned char a = s[0];
  switch (n) {
    case 1: return a < 0x80;
    case 2: return a >= 0xC2 && a <= 0xDF && (s[1] & 0xC0) == 0x80;
    case 3:
      if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return false;
      if (a == 0xE0) return s[1] >= 0xA0;
      if (a == 0xED) return s[1] <= 0x9F;
      return a >= 0xE1 && a <= 0xEF;
    case 4:
      if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return false;
      if (a == 0xF0) return s[1] >= 0x90;
      if (a == 0xF4) return s[1] <= 0x8F;
      return a >= 0xF1 && a <= 0xF3;
  }
  return false;
}

}  // namespace

std::optional<std::string> InvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    size_t n = SequenceLength(s[i]);
    if (s[i] == 0 || (s[i] >= 0x80 && n == 1) || i + n > text.size() || !Legal(s + i, n)) {
      std::string bytes;
      for (size_t k = 0; k < n && i + k < text.size(); ++k) bytes += fmt::format("{}0x{:02x}", k ? " " : "", s[i + k]);
      return fmt::format("invalid byte sequence for encoding \"UTF8\": {}", bytes);
    }
    i += n;
  }
  return std::nullopt;
}

}  // namespace caracal::frontend
