// Taint: which variables of a procedure hold values read from the database, directly or
// through assignments and control flow (the write-set analysis's second pass). A key
// built from a tainted variable is dependent (found by reconnaissance), and a loop whose
// bounds are tainted cannot be unrolled by the init program. Shared by the statement
// classification and the init-program builder.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/analysis/routine_calls.h"
#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

// Whether each handler of exception block `s` is RAISEs only (NOTICEs, then an error):
// then control leaves the block normally only when its body ran to its end.
inline bool HandlersOnlyRaise(const Stmt& s) {
  for (const auto& handler : s.blocks) {
    if (handler.empty() || handler.back()->kind != StmtKind::kRaise || handler.back()->level != RaiseLevel::kException)
      return false;
    for (const auto& h : handler)
      if (h->kind != StmtKind::kRaise) return false;
  }
  return true;
}

class Taint {
 public:
  explicit Taint(const ProcedureIr& ir) {
    if (ir.found_variable >= 0) Add(ir.found_variable, -2);
    if (ir.row_count_variable >= 0) Add(ir.row_count_variable, -4);
    for (int changes = 1; changes > 0;) {
      changes_ = 0;
      for (size_t v = 0; v < ir.variables.size(); ++v)  // DECLARE x := f(...) of a function that reads
        if (Refs(ir.variables[v].default_value.get()))
          Add(static_cast<int>(v), SourceOfExpr(ir.variables[v].default_value.get()));
      Walk(ir.body, std::nullopt);
      changes = changes_;
    }
  }

  const std::set<int>& read_derived() const { return read_derived_; }
  // Whether `e` reads a read-derived variable or calls a function that reads tables.
  bool Refs(const Expr* e) const { return e && (Intersects(VariablesOf(e), read_derived_) || CallsTableRoutine(*e)); }
  // The statement id of the read a read-derived variable comes from; -2: FOUND; -3: the
  // RETURNING of a write; -4: ROW_COUNT; -5: an EXCEPTION block (whether, and where, an
  // error stopped its body; a handler's error); -6: a user function that reads tables;
  // -1: unknown.
  int SourceOf(int var) const {
    auto it = source_.find(var);
    return it == source_.end() ? -1 : it->second;
  }
  // Whether a loop's iterations depend on the database (bounds, condition, or an EXIT
  // whose decision does).
  bool LoopDependsOnReads(const Stmt& loop) const {
    switch (loop.kind) {
      case StmtKind::kForRange:
        if (Refs(loop.lower.get()) || Refs(loop.upper.get()) || Refs(loop.step.get())) return true;
        break;
      case StmtKind::kForEach:
        if (Refs(loop.value.get())) return true;
        break;
      case StmtKind::kWhile:
        if (!loop.conds.empty() && Refs(loop.conds[0].get())) return true;
        break;
      default: return false;
    }
    return ExitDependsOnReads(loop.body, loop, false, 0);
  }

 private:
  void Add(int var, int source) {
    if (read_derived_.insert(var).second) {
      ++changes_;
      source_[var] = source;
    }
  }

  // An EXIT of `loop` (unlabelled at loop depth 0, or naming it) under a read-derived
  // decision.
  bool ExitDependsOnReads(const Block& block, const Stmt& loop, bool under_read_condition, int depth) const {
    for (const auto& s : block) {
      if (s->kind == StmtKind::kExit) {
        bool mine = s->label.empty() ? depth == 0 : s->label == loop.label;
        bool decided_by_reads = under_read_condition || (!s->conds.empty() && Refs(s->conds[0].get()));
        if (mine && decided_by_reads) return true;
      }
      bool cond = under_read_condition;
      if (s->kind == StmtKind::kIf)
        for (const auto& c : s->conds) cond = cond || Refs(c.get());
      int d = depth + (IsLoop(*s) ? 1 : 0);
      for (const auto& b : s->blocks)
        if (ExitDependsOnReads(b, loop, cond, d)) return true;
      if (ExitDependsOnReads(s->else_block, loop, cond, d)) return true;
      if (ExitDependsOnReads(s->body, loop, cond, d)) return true;
    }
    return false;
  }

  // The source a read-derived expression has (the first read-derived variable's).
  int SourceOfExpr(const Expr* e) const {
    for (int v : VariablesOf(e))
      if (read_derived_.count(v)) return SourceOf(v);
    return e && CallsTableRoutine(*e) ? -6 : -1;
  }

  // `control`: the source of the read-dependent decision this block runs under, if any.
  void Walk(const Block& block, std::optional<int> control) {
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      switch (s.kind) {
        case StmtKind::kAssign:
          if (Refs(s.value.get())) Add(s.target, SourceOfExpr(s.value.get()));
          else if (control) Add(s.target, *control);
          break;
        case StmtKind::kIf: {
          std::optional<int> c = control;
          for (const auto& cond : s.conds)
            if (!c && Refs(cond.get())) c = SourceOfExpr(cond.get());
          for (const auto& b : s.blocks) Walk(b, c);
          Walk(s.else_block, c);
          break;
        }
        case StmtKind::kForRange:
        case StmtKind::kForEach:
        case StmtKind::kWhile: {
          std::optional<int> c = control;
          if (!c && LoopDependsOnReads(s)) {
            int source = -1;
            for (const Expr* e : {s.lower.get(), s.upper.get(), s.step.get(), s.value.get()})
              if (source == -1 && Refs(e)) source = SourceOfExpr(e);
            if (source == -1 && !s.conds.empty() && Refs(s.conds[0].get())) source = SourceOfExpr(s.conds[0].get());
            c = source;
          }
          if (c && s.target >= 0) Add(s.target, *c);
          Walk(s.body, c);
          break;
        }
        case StmtKind::kSelectInto:
          if (s.table || (s.query && !TablesRead(*s.query).empty())) {
            // Rows chosen by what a write returned are as unknown as that is.
            int source = s.id;
            ForEachOwnExpr(s, [&](const Expr& e) {
              if (Refs(&e) && SourceOfExpr(&e) == -3) source = -3;
            });
            for (int t : s.into) Add(t, source);
          } else if (s.query) {
            // A query of no table (unnest of an array parameter): its rows come from the
            // variables it reads.
            std::optional<int> r = control;
            ForEachQueryExpr(*s.query, [&](const Expr& e) {
              if (!r && Refs(&e)) r = SourceOfExpr(&e);
            });
            if (r)
              for (int t : s.into) Add(t, *r);
          } else {
            std::optional<int> r = control;
            for (const auto& o : s.select->outputs)
              if (!r && Refs(o.get())) r = SourceOfExpr(o.get());
            if (r)
              for (int t : s.into) Add(t, *r);
          }
          break;
        case StmtKind::kInsert:
        case StmtKind::kUpdate:
        case StmtKind::kDelete:
          for (int t : s.into) Add(t, -3);
          break;
        case StmtKind::kExceptionBlock: {
          // Where an error stops the body (a duplicate key, a failed CHECK: things only
          // execution finds) and whether a handler runs depend on the database: whatever
          // the block assigns does too, like the branches of an IF over values read.
          // Unless every handler only raises again (HammerDB's WHEN ... THEN ROLLBACK,
          // which raises here): then the statements after the block run only when the
          // body ran to its end, and no handler uses what it assigned but in a message.
          for (int e : s.error_slots) Add(e, -5);
          std::optional<int> c = control ? control : std::optional<int>(-5);
          Walk(s.body, HandlersOnlyRaise(s) ? control : c);
          for (const auto& b : s.blocks) Walk(b, c);
          break;
        }
        default: break;
      }
    }
  }

  std::set<int> read_derived_;
  std::map<int, int> source_;
  int changes_ = 0;
};

}  // namespace caracal::planner
