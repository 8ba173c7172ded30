// JSON values as PostgreSQL's json and jsonb types hold them. A json value is a Datum
// kString of its text exactly as it was written (validated, kept verbatim, duplicate
// keys and all); a jsonb value is a Datum kString of its canonical text, as PostgreSQL's
// jsonb prints: object keys unique (the last one wins) and ordered by length, then
// bytes; numbers as numeric prints them; `{"a": 1, "b": [1, 2]}` spacing. Equal jsonb
// values therefore have equal text, which is what equality, hashing and keys use.
//
// The parser is written here rather than taken from nlohmann-json because json's
// operators return the text of a sub-value exactly as written (spaces included) and
// numbers keep their digits (1.50 is not 1.5), neither of which that library reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace caracal::planner {

struct JsonNode {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  // kNumber: the number as written; kString: the decoded string.
  std::string text;
  // kArray: the elements; kObject: the values, in the order written.
  std::vector<JsonNode> items;
  // kObject: the keys (decoded), one per item.
  std::vector<std::string> keys;
  // The node's text in the parsed input (what json's operators return).
  std::string_view raw;

  // The object member `key` (the last one of that name, as PostgreSQL's json
  // operators find it), or nullptr.
  const JsonNode* Member(std::string_view key) const;
  // Array element `index` (negative: from the end), or nullptr.
  const JsonNode* Element(int64_t index) const;
};

// Parses JSON text. Throws SqlError 22P02 "invalid input syntax for type json" with
// PostgreSQL's DETAIL ("Token "x" is invalid.", ...) and CONTEXT ("JSON data, line 1:
// ..."). Strings may not contain \u0000 (PostgreSQL's text cannot hold it).
JsonNode ParseJson(std::string_view text);

// The jsonb form of a parsed value: numbers in numeric's canonical text, object keys
// de-duplicated (last wins) and sorted as jsonb sorts them. `raw` is cleared.
JsonNode ToJsonb(JsonNode node);
// The canonical text of a jsonb node (ToJsonb'd).
std::string JsonbText(const JsonNode& node);
// json_typeof / jsonb_typeof: "object", "array", "string", "number", "boolean", "null".
std::string_view JsonTypeName(const JsonNode& node);
// `s` as a JSON string literal, escaped as PostgreSQL's escape_json does.
std::string JsonQuote(std::string_view s);
// The text ->> gives for a non-null node: a string's value, else the node's JSON text
// (with `jsonb`, written canonically; otherwise its raw text as parsed).
std::string JsonScalarText(const JsonNode& node, bool jsonb);
// jsonb containment (`a @> b`), as PostgreSQL defines it: objects contain objects whose
// pairs they contain, arrays contain arrays whose elements each match some element
// (and a top-level array contains a scalar it holds), scalars are equal.
bool JsonbContains(const JsonNode& a, const JsonNode& b);

}  // namespace caracal::planner
