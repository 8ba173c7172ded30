// Type coercion for the binder: PostgreSQL's implicit/assignment/explicit casts applied to
// bound expressions (constants are folded at bind time, so '2024-01-01' becomes a
// timestamp constant and a bad literal is reported where it is written), and
// select_common_type for CASE, COALESCE, IN, GREATEST/LEAST and UNION-like contexts.
#pragma once

#include <span>
#include <string_view>

#include "planner/types/cast.h"
#include "planner/expr/expr.h"

namespace caracal::planner {

// Whether a row's column of type `got` is of type `want` as PostgreSQL's
// convert_tuples_by_position asks (RETURN QUERY, RETURN NEXT of a record): the same type,
// modifiers aside (a function's result columns have none).
inline bool SameRowColumnType(const SqlType& got, const SqlType& want) {
  return got.SameBase(want);
}

// Converts `e` to `to` if `context` allows it; otherwise throws SqlError. For
// assignment errors `column` names the target column.
ExprPtr Coerce(ExprPtr e, const SqlType& to, CastContext context, std::string_view column = {});
// Same, but returns nullptr (leaving `e` intact) instead of throwing when not allowed.
ExprPtr TryCoerce(ExprPtr& e, const SqlType& to, CastContext context);

// An enum value (or an array of them) as its text (text[]); anything else as it is. For
// the functions that print values of any type from their Datums and type codes
// (to_json, array_to_string): an enum's Datum is its position, not its label.
ExprPtr EnumsAsText(ExprPtr e);

// The common type of a list of expressions, as PostgreSQL's select_common_type
// ("CASE types integer and text cannot be matched"). All-unknown resolves to text.
SqlType CommonType(std::span<const SqlType> types, std::string_view construct, int location);
// `common` (CommonType's result) with the type modifier all of `types` share, as
// PostgreSQL's exprTypmod gives CASE, COALESCE, GREATEST and LEAST: when every input is
// exactly common's type with one typmod (char(24) and char(24): char(24)), that typmod;
// otherwise none (char(24) and char(10), or an untyped NULL among them).
SqlType WithCommonTypmod(const SqlType& common, std::span<const SqlType> types);

// The wider of two numeric-category types for arithmetic and comparison.
SqlType PromoteNumeric(const SqlType& a, const SqlType& b);

}  // namespace caracal::planner
