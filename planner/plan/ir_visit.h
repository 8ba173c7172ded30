// Traversals of the procedure IR shared by the write-set analysis and EXPLAIN: the
// expressions a statement owns, the statements of a block (recursively), the variables
// an expression reads.
#pragma once

#include <set>

#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// Calls fn(ExprT&) for every expression `s` owns itself (not those of nested blocks),
// in evaluation order where it matters (SELECT outputs before its filters).
template <typename StmtT, typename F>
void ForEachOwnExpr(StmtT& s, F&& fn) {
  auto one = [&](auto& p) {
    if (p) fn(*p);
  };
  one(s.value);
  for (auto& e : s.conds) one(e);
  one(s.lower);
  one(s.upper);
  one(s.step);
  for (auto& e : s.row_values) one(e);
  for (auto& k : s.where_key.key) one(k);
  one(s.where_key.lower);
  one(s.where_key.upper);
  one(s.filter);
  for (auto& a : s.assignments) one(a.second);
  one(s.conflict_filter);
  for (auto& e : s.returning) one(e);
  for (auto& e : s.args) one(e);
  if (s.select) {
    auto& q = *s.select;
    for (auto& e : q.outputs) one(e);
    one(q.where);
    for (auto& e : q.group_by) one(e);
    for (auto& a : q.aggregates) {
      one(a.arg);
      one(a.filter);
      one(a.delimiter);
    }
    one(q.having);
    one(q.limit);
    one(q.offset);
  }
  for (auto& k : s.select_key.key) one(k);
  one(s.select_key.lower);
  one(s.select_key.upper);
  if (s.query) ForEachQueryExpr(*s.query, fn);
}

// Pre-order over every statement of `block` and its nested blocks, in the text's order.
template <typename BlockT, typename F>
void ForEachStmt(BlockT& block, F&& fn) {
  for (auto& s : block) {
    fn(*s);
    ForEachStmt(s->body, fn);  // first: an EXCEPTION block's statements come before its handlers
    for (auto& b : s->blocks) ForEachStmt(b, fn);
    ForEachStmt(s->else_block, fn);
  }
}

// The frame slots `e` reads.
inline void CollectVariables(const Expr& e, std::set<int>& out) {
  if (e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kVariable) out.insert(e.slot.index);
  for (const auto& a : e.args) CollectVariables(*a, out);
}

inline std::set<int> VariablesOf(const Expr* e) {
  std::set<int> out;
  if (e) CollectVariables(*e, out);
  return out;
}

}  // namespace caracal::planner
