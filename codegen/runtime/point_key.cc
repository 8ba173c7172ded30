#include "codegen/runtime/point_key.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace caracal::codegen {

using planner::AccessInfo;
using planner::Expr;
using planner::KeyAccess;
using planner::Stmt;
using planner::StmtKind;

namespace {

// The primary-key expressions of a point read path, or nothing.
std::optional<std::vector<const Expr*>> SelectKey(const Stmt& s) {
  if (!s.select || s.table == nullptr) return std::nullopt;
  const planner::AccessPath& path = s.select->access;
  if (path.kind != planner::AccessPath::Kind::kPointRead) return std::nullopt;
  if (!path.key_columns.empty() && path.key_columns != s.table->primary_key) return std::nullopt;
  if (path.prefix.size() != s.table->primary_key.size()) return std::nullopt;
  return path.prefix;
}

std::optional<std::vector<const Expr*>> WhereKey(const Stmt& s) {
  if (s.table == nullptr || s.where_key.kind != KeyAccess::Kind::kPoint) return std::nullopt;
  if (s.where_key.key.size() != s.table->primary_key.size()) return std::nullopt;
  std::vector<const Expr*> parts;
  for (const auto& e : s.where_key.key) parts.push_back(e.get());
  return parts;
}

// The VALUES of an INSERT's primary-key columns.
std::optional<std::vector<const Expr*>> InsertKey(const Stmt& s) {
  if (s.table == nullptr || s.row_values.size() != s.table->columns.size()) return std::nullopt;
  std::vector<const Expr*> parts;
  for (int c : s.table->primary_key) parts.push_back(s.row_values[static_cast<size_t>(c)].get());
  return parts;
}

// The key expressions the runner would evaluate for `s` (a body statement), as `init`
// (kDeclare: its declaration; kReconRead: its read) or as the body runs it.
std::optional<std::vector<const Expr*>> KeyExprs(const Stmt& s, StmtKind init) {
  if (init == StmtKind::kReconRead) return s.kind == StmtKind::kSelectInto && s.point_lookup ? SelectKey(s) : std::nullopt;
  if (init == StmtKind::kDeclare) {
    if (!s.access) return std::nullopt;
    switch (s.access->access) {
      case AccessInfo::Access::kReadPrefetch: return s.select ? SelectKey(s) : WhereKey(s);
      case AccessInfo::Access::kInsert:
      case AccessInfo::Access::kUpsert: return InsertKey(s);
      case AccessInfo::Access::kUpdate:
      case AccessInfo::Access::kDelete: return WhereKey(s);
      default: return std::nullopt;
    }
  }
  switch (s.kind) {
    case StmtKind::kSelectInto: return s.point_lookup ? SelectKey(s) : std::nullopt;
    case StmtKind::kUpdate:
    case StmtKind::kDelete: return WhereKey(s);
    case StmtKind::kInsert: return InsertKey(s);
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<PointKeyPlan> PlanPointKey(const planner::ProcedureIr& ir, const Stmt& s) {
  const Stmt* target = &s;
  StmtKind init = StmtKind::kNull;
  if (s.kind == StmtKind::kDeclare || s.kind == StmtKind::kReconRead) {
    target = ir.TableStatement(s.target_stmt);
    init = s.kind;
    if (target == nullptr) return std::nullopt;
  }
  std::optional<std::vector<const Expr*>> parts = KeyExprs(*target, init);
  if (!parts || parts->empty() || parts->size() > kMaxPointKeyParts) return std::nullopt;
  PointKeyPlan plan;
  for (size_t i = 0; i < parts->size(); ++i) {
    const Expr* e = (*parts)[i];
    std::optional<engine::ColumnType> width = IntegerWidth(target->table->columns[target->table->primary_key[i]].type.id);
    if (e == nullptr || !width || !e->type.is_integer() || e->References(planner::SlotSpace::kColumn)) return std::nullopt;
    plan.parts.push_back(e);
    plan.widths.push_back(*width);
    plan.packed_widths |= PackedKeyWidth(*width) << (2 * i);
  }
  return plan;
}

namespace {

// The bytes beyond 2 per part that four packed 2-bit widths add: an integer (code 1) 2, a
// bigint (code 2, or 3) 6.
constexpr std::array<uint8_t, 256> ExtraKeyBytes() {
  std::array<uint8_t, 256> t{};
  for (int b = 0; b < 256; ++b)
    for (int i = 0; i < 4; ++i) {
      const int code = (b >> (2 * i)) & 3;
      t[static_cast<size_t>(b)] = static_cast<uint8_t>(t[static_cast<size_t>(b)] + (code == 0 ? 0 : code == 1 ? 2 : 6));
    }
  return t;
}
constexpr std::array<uint8_t, 256> kExtraKeyBytes = ExtraKeyBytes();

}  // namespace

engine::Key KeyFromParts(const int64_t* parts, int32_t n, int32_t packed_widths) {
  // The parts' room is taken at once (one capacity check), then encoded in place; the
  // room by table, four parts at a time (std::popcount would be a libgcc call without
  // -mpopcnt, Debian's x86-64 baseline).
  static_assert(kMaxPointKeyParts == 16, "two bits per part in an int32");
  n = std::clamp(n, 0, kMaxPointKeyParts);
  const uint32_t fields = n == 16 ? 0xFFFFFFFFu : (1u << (2 * n)) - 1;
  uint32_t packed = static_cast<uint32_t>(packed_widths) & fields;
  // One Key for both paths, so that it is constructed in the caller's slot (NRVO).
  engine::Key key;
  if (packed == (0x55555555u & fields)) {
    // Every part an integer, as nearly every key is (TPC-C's all are): no width per part.
    uint8_t* out = key.AppendRoom(4 * static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) {
      const uint32_t u = __builtin_bswap32(static_cast<uint32_t>(static_cast<int32_t>(parts[i])) ^ 0x80000000u);
      std::memcpy(out + 4 * i, &u, 4);
    }
    return key;
  }
  size_t size = 2 * static_cast<size_t>(n);
  for (; packed != 0; packed >>= 8) size += kExtraKeyBytes[packed & 0xFF];
  uint8_t* out = key.AppendRoom(size);
  for (int32_t i = 0; i < n; ++i) out += engine::Key::EncodeInt(parts[i], UnpackKeyWidth(packed_widths, i), out);
  return key;
}

}  // namespace caracal::codegen
