// PointKeyPlan: a statement that addresses one row by its whole primary key, when every
// key column is an integer and every key expression an integer: compiled code computes
// the key parts inline (no Datums, no interpreter) and hands them to the statement runner
// (caracal_rt_stmt_key). Covers the body's point SELECT INTO, point UPDATE and DELETE, and
// the init program's kDeclare / kReconRead of such statements and kDeclare of an INSERT
// (its primary-key VALUES).
#pragma once

#include <optional>
#include <vector>

#include "engine/key.h"
#include "engine/types.h"
#include "planner/procedure_ir.h"

namespace caracal::codegen {

struct PointKeyPlan {
  std::vector<const planner::Expr*> parts;  // one per primary-key column, in key order
  std::vector<ColumnType> widths;           // kSmallInt, kInteger or kBigInt
  int32_t packed_widths = 0;                // PackKeyWidths(widths)
};

// `s` is a statement of `ir` (body or init program). Nullopt when it does not qualify
// (then it runs as before: the runner evaluates its key).
std::optional<PointKeyPlan> PlanPointKey(const planner::ProcedureIr& ir, const planner::Stmt& s);

// The key width of an integer SQL type (how Key::AppendInt encodes it); nullopt for others.
std::optional<ColumnType> IntegerWidth(planner::TypeId type);

// Key widths travel to the runtime as 2 bits per column (at most 16 columns).
constexpr int kMaxPointKeyParts = 16;
ColumnType UnpackKeyWidth(int32_t packed, int index);
// One width's 2 bits (shift them by 2 * index).
int32_t PackedKeyWidth(ColumnType width);
// The key of parts[0..n) with their packed widths, as the runner encodes it.
Key KeyFromParts(const int64_t* parts, int32_t n, int32_t packed_widths);

}  // namespace caracal::codegen
