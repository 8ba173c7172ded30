// Casts between the supported SQL types, with PostgreSQL's three cast contexts
// (pg_cast.castcontext): implicit (operators, function arguments), assignment
// (INSERT/UPDATE/COPY into a column) and explicit (CAST / ::).
#pragma once

#include "planner/types/datum.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

enum class CastContext : uint8_t { kImplicit, kAssignment, kExplicit, kNone };

// The weakest context in which `from` converts to `to` (kNone: never). Unknown
// literals convert implicitly to anything.
CastContext CastContextFor(const SqlType& from, const SqlType& to);

// Converts a non-null or null datum of type `from` to `to`, including `to`'s
// modifiers. Throws SqlError on out-of-range values or bad text input.
Datum CastDatum(const Datum& value, const SqlType& from, const SqlType& to, bool explicit_cast);

// Whether CastDatum(value, from, to, ...) would return `value` unchanged, by a check
// much cheaper than the cast (false when in doubt): a string that already fits `to`.
bool CastKeepsValue(const Datum& value, const SqlType& from, const SqlType& to);

// Integer range checks by static type: "integer out of range" and friends.
int64_t CheckIntRange(__int128 v, TypeId type);

}  // namespace caracal::planner
