// Parameters of the extended protocol: where `$n` stands in a statement's text, which
// type each has (declared by the client at Parse, else inferred from the procedure or
// column it feeds, else text), and binding: values become typed literals substituted
// into the text ('v'::type, quotes doubled), which is then parsed and run like a
// simple query. A statement is bound and planned anew at every Execute.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/parser/parameter_tokens.h"
#include "planner/parser/parse_tree.h"
#include "planner/catalog/catalog.h"

namespace caracal::server {

// Parameter types for a statement with `count` parameters: `declared` (0 = let the
// server choose) completed from the statement: an argument of a CALL / SELECT f(...) /
// SELECT * FROM f(...) of a procedure takes its parameter's type, `$n::type` its cast's,
// a value of INSERT ... VALUES its column's; the rest stay 0 (described to clients as
// text, bound as untyped literals, which take their type from the context as
// PostgreSQL's unknown-type literals do).
std::vector<int32_t> InferParameterTypes(const planner::ParsedStatement* stmt, const planner::Catalog& catalog,
                                         const std::vector<int32_t>& declared, int count);

// `text` with every `$n` replaced by value n-1 (PostgreSQL text format; nullopt: NULL)
// as a literal of type `types[n-1]`.
std::string SubstituteParameters(const std::string& text, const std::vector<planner::ParameterSlot>& slots,
                                 const std::vector<int32_t>& types, const std::vector<std::optional<std::string>>& values);

}  // namespace caracal::server
