// The text forms of the byte types, uuid and bytea, as PostgreSQL reads and writes
// them, and the encodings of encode() / decode(). A uuid or bytea value is a Datum
// kString holding the raw bytes (16 for a uuid); these functions are the only place
// that turns them into text and back.
#pragma once

#include <string>
#include <string_view>

namespace caracal::planner {

// The value of hex digit `c` (either case), or -1.
int HexDigitValue(char c);

// uuid_in: 32 hex digits, upper or lower case, optionally in braces, with an optional
// hyphen after any group of four digits. Throws SqlError 22P02 otherwise.
std::string ParseUuid(std::string_view text);
// uuid_out: 8-4-4-4-12 lower-case hex digits of 16 bytes.
std::string FormatUuid(std::string_view bytes);

// byteain: `\x` and pairs of hex digits (whitespace between pairs allowed), or the
// escape format (`\\` and `\ooo` octal escapes; every other byte as it is). Throws
// SqlError 22023 / 22P02 with PostgreSQL's messages.
std::string ParseBytea(std::string_view text);
// byteaout with bytea_output = hex: `\x` and two lower-case hex digits per byte.
std::string FormatBytea(std::string_view bytes);

// encode(bytes, format) and decode(text, format) for the formats 'hex', 'base64' and
// 'escape' (case-insensitive), with PostgreSQL's errors (22023 for an unknown format
// or bad input).
std::string EncodeBytes(std::string_view bytes, std::string_view format);
std::string DecodeBytes(std::string_view text, std::string_view format);

}  // namespace caracal::planner
