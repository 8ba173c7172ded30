// PointKeyPlan: a statement that addresses one row by its whole primary key, when every
// key column is an integer and every key expression an integer: compiled code computes
// the key inline (no Datums, no interpreter) and hands it to the statement runner
// (caracal_rt_stmt_key). Covers the body's point SELECT INTO, point UPDATE and DELETE and
// INSERT ... VALUES (its primary-key VALUES), and the init program's kDeclare /
// kReconRead of such statements.
#pragma once

#include <optional>
#include <vector>

#include "engine/types/key.h"
#include "engine/types/types.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

struct PointKeyPlan {
  std::vector<const planner::Expr*> parts;  // one per primary-key column, in key order
  std::vector<engine::ColumnType> widths;           // kSmallInt, kInteger or kBigInt
  int32_t packed_widths = 0;                // PackKeyWidths(widths)
};

// `s` is a statement of `ir` (body or init program). Nullopt when it does not qualify
// (then it runs as before: the runner evaluates its key).
std::optional<PointKeyPlan> PlanPointKey(const planner::ProcedureIr& ir, const planner::Stmt& s);

// The key width of an integer SQL type (how Key::AppendInt encodes it); nullopt for others.
// Inline, as the two below: an inserted row's key is packed with them on every INSERT.
constexpr std::optional<engine::ColumnType> IntegerWidth(planner::TypeId type) {
  switch (type) {
    case planner::TypeId::kInt2: return engine::ColumnType::kSmallInt;
    case planner::TypeId::kInt4: return engine::ColumnType::kInteger;
    case planner::TypeId::kInt8: return engine::ColumnType::kBigInt;
    default: return std::nullopt;
  }
}

// The bytes Key::EncodeInt writes for a part of `width`.
constexpr size_t KeyPartBytes(engine::ColumnType width) {
  return width == engine::ColumnType::kSmallInt ? 2 : width == engine::ColumnType::kInteger ? 4 : 8;
}

// Key widths travel to the runtime as 2 bits per column (at most 16 columns).
constexpr int kMaxPointKeyParts = 16;
constexpr engine::ColumnType UnpackKeyWidth(int32_t packed, int index) {
  switch ((packed >> (2 * index)) & 3) {
    case 0: return engine::ColumnType::kSmallInt;
    case 1: return engine::ColumnType::kInteger;
    default: return engine::ColumnType::kBigInt;
  }
}
// One width's 2 bits (shift them by 2 * index).
constexpr int32_t PackedKeyWidth(engine::ColumnType width) {
  return width == engine::ColumnType::kSmallInt ? 0 : width == engine::ColumnType::kInteger ? 1 : 2;
}
// The key of parts[0..n) with their packed widths, as the runner encodes it.
engine::Key KeyFromParts(const int64_t* parts, int32_t n, int32_t packed_widths);

}  // namespace caracal::codegen
