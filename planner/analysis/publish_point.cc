#include "planner/analysis/publish_point.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/analysis/read_taint.h"
#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"
#include "planner/analysis/abort_points.h"

namespace caracal::planner {

namespace {

// The writes of `block` (recursively), with whether each sits in a loop.
void CollectWrites(const Block& block, bool in_loop, std::vector<std::pair<const Stmt*, bool>>& out) {
  for (const auto& s : block) {
    if (IsWrite(*s)) out.emplace_back(s.get(), in_loop);
    bool loop = in_loop || IsLoop(*s);
    for (const auto& b : s->blocks) CollectWrites(b, loop, out);
    CollectWrites(s->else_block, loop, out);
    CollectWrites(s->body, loop, out);
  }
}

// Whether the statements body[from..] write each row at most once: the engine cannot
// take back a published write, so a row written after the publish point must not be
// written again (no write in a loop, no two writes of one table).
bool SuffixWritesRowsOnce(const ProcedureIr& ir, size_t from) {
  // Tables written before: a row written before the publish point cannot be written
  // after it either.
  std::vector<std::pair<const Stmt*, bool>> before;
  for (size_t i = 0; i < from && i < ir.body.size(); ++i) {
    if (IsWrite(*ir.body[i])) before.emplace_back(ir.body[i].get(), false);
    for (const auto& b : ir.body[i]->blocks) CollectWrites(b, false, before);
    CollectWrites(ir.body[i]->else_block, false, before);
    CollectWrites(ir.body[i]->body, false, before);
  }
  std::set<const TableInfo*> tables;
  for (const auto& [w, in_loop] : before) tables.insert(w->table);
  std::vector<std::pair<const Stmt*, bool>> writes;
  for (size_t i = from; i < ir.body.size(); ++i) {
    CollectWrites(ir.body[i]->body, IsLoop(*ir.body[i]), writes);
    for (const auto& b : ir.body[i]->blocks) CollectWrites(b, false, writes);
    CollectWrites(ir.body[i]->else_block, false, writes);
    if (IsWrite(*ir.body[i])) writes.emplace_back(ir.body[i].get(), false);
  }
  for (const auto& [w, in_loop] : writes) {
    if (in_loop || w->kind == StmtKind::kUpdate || w->kind == StmtKind::kDelete) {
      if (in_loop) return false;
      if (w->where_key.kind != KeyAccess::Kind::kPoint) return false;  // a range may meet an own insert
    }
    if (!tables.insert(w->table).second) return false;
  }
  return true;
}

}  // namespace

void PlacePublish(ProcedureIr& ir) {
  int last = -1;
  for (size_t i = 0; i < ir.body.size(); ++i)
    if (StatementMayAbort(*ir.body[i], ir)) last = static_cast<int>(i);
  // A scalar function that can fall off its end fails there (2F005).
  bool ends_with_return = !ir.body.empty() && ir.body.back()->kind == StmtKind::kReturn;
  if (ir.kind == ProcedureIr::Kind::kFunction && ir.returns == ProcedureIr::Returns::kScalar && ir.out_variables.empty() &&
      !ends_with_return)
    return;
  size_t at = static_cast<size_t>(last + 1);
  while (at < ir.body.size() && !SuffixWritesRowsOnce(ir, at)) ++at;
  // Nothing to publish early if no write follows.
  std::vector<std::pair<const Stmt*, bool>> writes;
  for (size_t i = at; i < ir.body.size(); ++i) {
    if (IsWrite(*ir.body[i])) writes.emplace_back(ir.body[i].get(), false);
    for (const auto& b : ir.body[i]->blocks) CollectWrites(b, false, writes);
    CollectWrites(ir.body[i]->else_block, false, writes);
    CollectWrites(ir.body[i]->body, true, writes);
  }
  if (writes.empty()) return;
  auto publish = std::make_unique<Stmt>();
  publish->kind = StmtKind::kPublish;
  publish->line = ir.body[at]->line;
  ir.body.insert(ir.body.begin() + static_cast<long>(at), std::move(publish));
}

}  // namespace caracal::planner
