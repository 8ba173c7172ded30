#include "planner/types/bytes_text.h"

#include <fmt/format.h>

#include <cctype>

#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase64Digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The bytes of the (possibly multibyte UTF-8) character at `s`, as PostgreSQL's errors
// quote one character.
std::string_view CharacterAt(std::string_view s) {
  const auto lead = static_cast<unsigned char>(s[0]);
  size_t n = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  return s.substr(0, std::min(n, s.size()));
}

bool IsHexSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// hex_decode: pairs of hex digits, whitespace allowed between pairs.
std::string HexDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size() / 2);
  size_t i = 0;
  auto digit = [&](size_t at) {
    const int v = HexDigitValue(s[at]);
    if (v < 0)
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("invalid hexadecimal digit: \"{}\"", CharacterAt(s.substr(at))));
    return v;
  };
  while (i < s.size()) {
    if (IsHexSpace(s[i])) {
      ++i;
      continue;
    }
    const int hi = digit(i++);
    if (i >= s.size())
      throw SqlError(sqlstate::kInvalidParameterValue, "invalid hexadecimal data: odd number of digits");
    const int lo = digit(i++);
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return out;
}

std::string HexEncode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 15]);
  }
  return out;
}

[[noreturn]] void BadByteaEscape() {
  throw SqlError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type bytea");
}

bool IsOctalEscape(std::string_view s, size_t i) {
  return i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
         s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7';
}

// The escape format's decoding (byteain's and decode(..., 'escape')'s).
std::string EscapeDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '\\') {
      out.push_back(s[i++]);
    } else if (IsOctalEscape(s, i)) {
      out.push_back(static_cast<char>((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0')));
      i += 4;
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out.push_back('\\');
      i += 2;
    } else {
      BadByteaEscape();
    }
  }
  return out;
}

std::string EscapeEncode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (b == 0 || b >= 0x80) {
      out.push_back('\\');
      out.push_back(static_cast<char>('0' + (b >> 6 & 3)));
      out.push_back(static_cast<char>('0' + (b >> 3 & 7)));
      out.push_back(static_cast<char>('0' + (b & 7)));
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// pg_base64_encode: a newline after every 76 output characters.
std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4 + bytes.size() / 57 + 1);
  size_t line_end = 76;
  uint32_t buf = 0;
  int pos = 2;
  for (char c : bytes) {
    buf |= static_cast<uint32_t>(static_cast<unsigned char>(c)) << (pos << 3);
    if (--pos < 0) {
      out.push_back(kBase64Digits[buf >> 18 & 0x3f]);
      out.push_back(kBase64Digits[buf >> 12 & 0x3f]);
      out.push_back(kBase64Digits[buf >> 6 & 0x3f]);
      out.push_back(kBase64Digits[buf & 0x3f]);
      pos = 2;
      buf = 0;
    }
    if (out.size() >= line_end) {
      out.push_back('\n');
      line_end = out.size() + 76;
    }
  }
  if (pos != 2) {
    out.push_back(kBase64Digits[buf >> 18 & 0x3f]);
    out.push_back(kBase64Digits[buf >> 12 & 0x3f]);
    out.push_back(pos == 0 ? kBase64Digits[buf >> 6 & 0x3f] : '=');
    out.push_back('=');
  }
  return out;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// pg_base64_decode: whitespace skipped, '=' padding ends the data.
std::string Base64Decode(std::string_view s) {
  std::string out;
  out.reserve(s.size() * 3 / 4);
  uint32_t buf = 0;
  int pos = 0, end = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (IsHexSpace(c)) continue;
    int b = 0;
    if (c == '=') {
      if (end == 0) {
        if (pos == 2) end = 1;
        else if (pos == 3) end = 2;
        else throw SqlError(sqlstate::kInvalidParameterValue, "unexpected \"=\" while decoding base64 sequence");
      }
    } else {
      b = Base64Value(c);
      if (b < 0)
        throw SqlError(sqlstate::kInvalidParameterValue,
                       fmt::format("invalid symbol \"{}\" found while decoding base64 sequence", CharacterAt(s.substr(i))));
    }
    buf = buf << 6 | static_cast<uint32_t>(b);
    if (++pos == 4) {
      out.push_back(static_cast<char>(buf >> 16 & 255));
      if (end == 0 || end > 1) out.push_back(static_cast<char>(buf >> 8 & 255));
      if (end == 0 || end > 2) out.push_back(static_cast<char>(buf & 255));
      buf = 0;
      pos = 0;
    }
  }
  if (pos != 0)
    throw SqlError(sqlstate::kInvalidParameterValue, "invalid base64 end sequence")
        .WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.");
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

[[noreturn]] void UnknownEncoding(std::string_view format) {
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("unrecognized encoding: \"{}\"", format));
}

}  // namespace

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string ParseUuid(std::string_view text) {
  auto bad = [&]() -> SqlError {
    return SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("invalid input syntax for type uuid: \"{}\"", text));
  };
  std::string_view s = text;
  const bool braces = !s.empty() && s[0] == '{';
  if (braces) s.remove_prefix(1);
  std::string out;
  out.reserve(16);
  size_t i = 0;
  for (int n = 0; n < 16; ++n) {
    if (i + 2 > s.size()) throw bad();
    const int hi = HexDigitValue(s[i]), lo = HexDigitValue(s[i + 1]);
    if (hi < 0 || lo < 0) throw bad();
    out.push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
    if (i < s.size() && s[i] == '-' && n % 2 == 1 && n < 15) ++i;
  }
  if (braces) {
    if (i >= s.size() || s[i] != '}') throw bad();
    ++i;
  }
  if (i != s.size()) throw bad();
  return out;
}

std::string FormatUuid(std::string_view bytes) {
  std::string out;
  out.reserve(36);
  for (size_t n = 0; n < bytes.size(); ++n) {
    if (n == 4 || n == 6 || n == 8 || n == 10) out.push_back('-');
    const auto b = static_cast<unsigned char>(bytes[n]);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 15]);
  }
  return out;
}

std::string ParseBytea(std::string_view text) {
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') return HexDecode(text.substr(2));
  return EscapeDecode(text);
}

std::string FormatBytea(std::string_view bytes) { return "\\x" + HexEncode(bytes); }

std::string EncodeBytes(std::string_view bytes, std::string_view format) {
  const std::string f = Lower(format);
  if (f == "hex") return HexEncode(bytes);
  if (f == "base64") return Base64Encode(bytes);
  if (f == "escape") return EscapeEncode(bytes);
  UnknownEncoding(format);
}

std::string DecodeBytes(std::string_view text, std::string_view format) {
  const std::string f = Lower(format);
  if (f == "hex") return HexDecode(text);
  if (f == "base64") return Base64Decode(text);
  if (f == "escape") return EscapeDecode(text);
  UnknownEncoding(format);
}

}  // namespace caracal::planner
