// Small predicates over the procedure IR that the write-set passes share.
#pragma once

#include <fmt/format.h>

#include <set>

#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

inline bool Intersects(const std::set<int>& a, const std::set<int>& b) {
  for (int x : a)
    if (b.count(x)) return true;
  return false;
}

// A numbered statement that reads or writes tables: one table's (`table`), or a query plan's.
inline bool IsTableStatement(const Stmt& s) { return s.id >= 1 && (s.table != nullptr || s.query != nullptr); }
inline bool IsWrite(const Stmt& s) {
  return s.kind == StmtKind::kInsert || s.kind == StmtKind::kUpdate || s.kind == StmtKind::kDelete;
}
inline bool IsLoop(const Stmt& s) {
  return s.kind == StmtKind::kForRange || s.kind == StmtKind::kForEach || s.kind == StmtKind::kWhile;
}

inline SqlError AtLine(SqlError e, const ProcedureIr& ir, int line) {
  if (e.context().empty() && ir.is_ad_hoc_dml()) return e;
  if (e.context().empty())
    e.WithContext(fmt::format("compilation of PL/pgSQL function \"{}\" near line {}", ir.name, line));
  return e;
}

}  // namespace caracal::planner
