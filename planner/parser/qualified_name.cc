#include "planner/parser/qualified_name.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

SqlError InvalidName() { return SqlError("42602", "invalid name syntax"); }

// PostgreSQL's SplitIdentifierString with '.' as the separator: spaces around each name
// are allowed, an empty name is not.
std::vector<std::string> SplitNames(std::string_view text) {
  std::vector<std::string> names;
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip_space();
  if (i == text.size()) throw InvalidName();
  for (;;) {
    std::string name;
    if (text[i] == '"') {
      for (++i;; ++i) {
        if (i == text.size()) throw InvalidName();  // unterminated quote
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            name += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        name += text[i];
      }
      if (name.empty()) throw InvalidName();
    } else {
      while (i < text.size() && text[i] != '.' && !std::isspace(static_cast<unsigned char>(text[i]))) {
        if (text[i] == '"') throw InvalidName();
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        ++i;
      }
      if (name.empty()) throw InvalidName();
    }
    names.push_back(std::move(name));
    skip_space();
    if (i == text.size()) return names;
    if (text[i] != '.') throw InvalidName();
    ++i;
    skip_space();
    if (i == text.size()) throw InvalidName();
  }
}

bool IsPlainName(std::string_view name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) plain = plain && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  return plain;
}

}  // namespace

RelationText RelationNameFromText(std::string_view text) {
  // The common case (every nextval() of a constant name reads it as it draws): one name
  // needing no folding.
  if (IsPlainName(text)) return {std::string(text), std::string(text)};
  std::vector<std::string> names = SplitNames(text);
  if (names.size() > 3) throw SqlError("42601", fmt::format("improper relation name (too many dotted names): {}", text));
  if (names.size() == 3)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("cross-database references are not implemented: {}", text));
  if (names.size() == 2 && names[0] != "public" && names[0] != "pg_catalog")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", names[0]));
  if (names.size() == 2) return {names[1], names[0] + "." + names[1], names[0] == "pg_catalog"};
  return {names[0], names[0]};
}

std::string RegclassText(std::string_view name) { return IsPlainName(name) ? std::string(name) : QuotedIdentifier(name); }

std::string RangeVarRelationName(const PgQuery__RangeVar* rv) {
  if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname), rv->location);
  return rv->relname;
}

}  // namespace caracal::planner
