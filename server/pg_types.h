// PostgreSQL's type identities and wire formats for the types of DESIGN §3: the type
// OIDs, sizes and modifiers a RowDescription carries, the SQL name a bound parameter is
// cast to, and the binary send/receive formats (int2/4/8, float4/8, bool, text, varchar,
// bpchar, numeric in base-10000 digits, timestamp and date as PostgreSQL's integer
// datetimes, uuid as its 16 bytes, bytea as its bytes). Values cross the boundary as PostgreSQL's text format: binary input is
// turned into text before it is bound, binary output is made from a result's text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "planner/types/sql_type.h"

namespace caracal::server {

namespace oid {
inline constexpr int32_t kUnspecified = 0;
inline constexpr int32_t kBool = 16, kBytea = 17, kName = 19, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25;
inline constexpr int32_t kOid = 26, kChar = 18, kFloat4 = 700, kFloat8 = 701, kUnknown = 705, kBpchar = 1042;
inline constexpr int32_t kVarchar = 1043, kDate = 1082, kTime = 1083, kTimestamp = 1114, kTimestamptz = 1184,
                        kInterval = 1186;
inline constexpr int32_t kNumeric = 1700, kRegproc = 24, kRegclass = 2205, kRegtype = 2206, kUuid = 2950;
inline constexpr int32_t kJson = 114, kJsonb = 3802;
}  // namespace oid

// The OID of a column or parameter type (an array: its array type, e.g. _int4 1007).
int32_t TypeOid(const planner::SqlType& type);
// typlen of a type OID (-1: variable length).
int16_t TypeSize(int32_t type_oid);
// atttypmod: numeric (p << 16 | s) + 4, char/varchar n + 4, otherwise -1.
int32_t TypeModifier(const planner::SqlType& type);
// The SQL spelling a parameter of this OID is cast to ("integer", "numeric",
// "integer[]"), nullopt for OIDs we do not know (the value stays an untyped literal).
std::optional<std::string> CastName(int32_t type_oid);
// pg_type.typname of an OID ("int4", "_int4"), or "unknown".
std::string TypeName(int32_t type_oid);

// A value received in binary format as PostgreSQL's text of it. Throws
// planner::SqlError 22P03 for malformed data, 0A000 for a type without a binary form here.
std::string TextFromBinary(int32_t type_oid, std::string_view bytes);
// PostgreSQL's binary send format of the value whose text is `text`. Throws
// planner::SqlError 0A000 for types without a binary form here.
std::string BinaryFromText(int32_t type_oid, std::string_view text);

// Numeric text <-> PostgreSQL's binary NUMERIC (exposed for tests).
std::string NumericToBinary(std::string_view text);
std::string NumericFromBinary(std::string_view bytes);

}  // namespace caracal::server
