// The client encoding is UTF-8, as PostgreSQL checks it: a query string with an invalid
// byte sequence is refused before parsing, with PostgreSQL's message.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace caracal::frontend {

// nullopt if `text` is valid UTF-8; otherwise PostgreSQL's message for the first bad
// sequence: invalid byte sequence for encoding "UTF8": 0xe2 0x28 0xa1 (SQLSTATE 22021).
std::optional<std::string> InvalidUtf8(std::string_view text);

}  // namespace caracal::frontend
