// Small helpers over libpg_query's protobuf-c parse tree (the planner binds that tree
// directly; it depends on libpg_query's headers, never on frontend/).
#pragma once

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <string>
#include <string_view>
#include <vector>

namespace caracal::planner {

// The text of a String node ("" for anything else).
inline std::string StringValue(const PgQuery__Node* n) {
  return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? std::string(n->string->sval) : std::string();
}

// The names of a qualified name list (["pg_catalog", "int4"]).
inline std::vector<std::string> NameList(PgQuery__Node* const* items, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(StringValue(items[i]));
  return out;
}

// `name` as a quoted identifier ("a""b"), for SQL text the planner writes and parses.
inline std::string QuotedIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The location libpg_query recorded for an expression node, or -1.
int NodeLocation(const PgQuery__Node* n);

}  // namespace caracal::planner
