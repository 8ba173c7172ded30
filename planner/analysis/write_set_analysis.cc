// The write-set analysis (README.md, "Write-set analysis"). Passes, in order:
//   1. hoist nextval() to sequencing time;
//   2. find the read-derived variables (values that come from the database, directly or
//      through assignments and control flow);
//   3. classify every table statement (access, key class, key text, ApplyRowUpdate,
//      index entries it cannot name in advance);
//   4. build the init program (the body's key-computing slice with kDeclare / kReconRead);
//   5. place the publish point;
//   6. mark range queries whose rows the range write after them can reuse.
#include "planner/analysis/write_set_analysis.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>

#include "planner/analysis/abort_points.h"
#include "planner/analysis/expr_render.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

using Access = AccessInfo::Access;
using KeyClass = AccessInfo::KeyClass;

bool Intersects(const std::set<int>& a, const std::set<int>& b) {
  for (int x : a)
    if (b.count(x)) return true;
  return false;
}

bool IsTableStatement(const Stmt& s) { return s.id >= 1 && s.table != nullptr; }
bool IsWrite(const Stmt& s) {
  return s.kind == StmtKind::kInsert || s.kind == StmtKind::kUpdate || s.kind == StmtKind::kDelete;
}
bool IsLoop(const Stmt& s) {
  return s.kind == StmtKind::kForRange || s.kind == StmtKind::kForEach || s.kind == StmtKind::kWhile;
}

SqlError AtLine(SqlError e, const ProcedureIr& ir, int line) {
  if (e.context().empty() && !ir.command_tag.empty()) return e;
  if (e.context().empty())
    e.WithContext(fmt::format("compilation of PL/pgSQL function \"{}\" near line {}", ir.name, line));
  return e;
}

// ---------------------------------------------------------------------------------------
// 1. nextval() at sequencing time.

class SequenceHoister {
 public:
  explicit SequenceHoister(ProcedureIr& ir) : ir_(ir) {}

  void Run() {
    // DECLARE defaults run first, in declaration order.
    for (size_t i = 0; i < ir_.variables.size(); ++i)
      if (ir_.variables[i].default_value) HoistIn(*ir_.variables[i].default_value, true, 0);
    bool unconditional = true;
    for (auto& s : ir_.body) {
      HoistStatement(*s, unconditional);
      if (ContainsReturn(*s)) unconditional = false;
    }
  }

 private:
  static bool ContainsReturn(const Stmt& s) {
    bool found = false;
    auto visit = [&](const Stmt& n) { found = found || n.kind == StmtKind::kReturn; };
    visit(s);
    for (const auto& b : s.blocks) ForEachStmt(b, visit);
    ForEachStmt(s.else_block, visit);
    ForEachStmt(s.body, visit);
    return found;
  }

  void HoistStatement(Stmt& s, bool unconditional) {
    ForEachOwnExpr(s, [&](Expr& e) { HoistIn(e, unconditional, s.line); });
    for (auto& b : s.blocks)
      for (auto& n : b) HoistStatement(*n, false);
    for (auto& n : s.else_block) HoistStatement(*n, false);
    for (auto& n : s.body) HoistStatement(*n, false);
  }

  void HoistIn(Expr& e, bool unconditional, int line) {
    bool short_circuit = e.kind == ExprKind::kCase || e.kind == ExprKind::kCoalesce || e.kind == ExprKind::kAnd ||
                         e.kind == ExprKind::kOr || e.kind == ExprKind::kNullIf;
    for (auto& a : e.args) HoistIn(*a, unconditional && !short_circuit, line);
    if (e.kind != ExprKind::kNextval) return;
    if (!unconditional)
      throw AtLine(NotSupported("nextval() where it may not run exactly once per call")
                       .WithHint("Sequence values are drawn when the call is sequenced, before it runs: call nextval() "
                                 "in a DECLARE default or in an assignment at the top of the body, and use the variable."),
                   ir_, line);
    for (int v : VariablesOf(e.args[0].get()))
      if (ir_.variables[v].kind != VariableKind::kParameter)
        throw AtLine(NotSupported("a nextval() argument that depends on variables")
                         .WithHint("The sequence name may depend only on parameters and constants."),
                     ir_, line);
    Variable v;
    v.name = fmt::format("$nextval{}", ir_.sequence_calls.size() + 1);
    v.type = SqlType::Of(TypeId::kInt8);
    v.kind = VariableKind::kSequence;
    int slot = static_cast<int>(ir_.variables.size());
    ir_.variables.push_back(std::move(v));
    SequenceCall call;
    call.sequence_name = std::move(e.args[0]);
    call.variable = slot;
    ir_.sequence_calls.push_back(std::move(call));
    // In place: access paths hold raw pointers into WHERE clauses.
    e.kind = ExprKind::kSlot;
    e.slot = Slot{SlotSpace::kVariable, slot};
    e.args.clear();
  }

  ProcedureIr& ir_;
};

// ---------------------------------------------------------------------------------------
// 2. Read-derived variables.

class Taint {
 public:
  explicit Taint(const ProcedureIr& ir) {
    if (ir.found_variable >= 0) Add(ir.found_variable, -2);
    if (ir.row_count_variable >= 0) Add(ir.row_count_variable, -4);
    for (int changes = 1; changes > 0;) {
      changes_ = 0;
      Walk(ir.body, std::nullopt);
      changes = changes_;
    }
  }

  const std::set<int>& read_derived() const { return read_derived_; }
  bool Refs(const Expr* e) const { return e && Intersects(VariablesOf(e), read_derived_); }
  // The statement id of the read a read-derived variable comes from; -2: FOUND; -3: the
  // RETURNING of a write; -1: unknown.
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
    return -1;
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
          if (s.table) {
            for (int t : s.into) Add(t, s.id);
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
        default: break;
      }
    }
  }

  std::set<int> read_derived_;
  std::map<int, int> source_;
  int changes_ = 0;
};

// ---------------------------------------------------------------------------------------
// 3. Per-statement access information.

class Classifier {
 public:
  Classifier(ProcedureIr& ir, const Taint& taint, const Catalog& catalog) : ir_(ir), taint_(taint), catalog_(catalog) {
    // What each variable stands for, for the key text: an input-derived variable with a
    // single definition renders as that definition.
    std::map<int, int> definitions;
    std::map<int, const Expr*> definition;
    for (size_t i = 0; i < ir_.variables.size(); ++i)
      if (ir_.variables[i].default_value) {
        ++definitions[static_cast<int>(i)];
        definition[static_cast<int>(i)] = ir_.variables[i].default_value.get();
      }
    ForEachStmt(ir_.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::kAssign) {
        ++definitions[s.target];
        definition[s.target] = s.value.get();
      }
      for (int t : s.into) definitions[t] += 2;
      if (s.kind == StmtKind::kForEach || s.kind == StmtKind::kForRange) definitions[s.target] += 2;
    });
    for (auto& [var, n] : definitions)
      if (n == 1 && !taint_.read_derived().count(var)) single_definition_[var] = definition[var];
  }

  void Run() { Walk(ir_.body, 0, nullptr); }

  std::string Render(const Expr& e, const TableInfo* table, int depth = 0) const {
    RenderNames names;
    names.table = table;
    names.variable = [&](int slot) -> std::string {
      const Variable& v = ir_.variables[slot];
      if (v.kind == VariableKind::kSequence) {
        for (const SequenceCall& c : ir_.sequence_calls)
          if (c.variable == slot) return fmt::format("nextval({})", Render(*c.sequence_name, nullptr, depth + 1));
      }
      if (v.kind == VariableKind::kNow) return "now()";
      auto it = single_definition_.find(slot);
      if (it != single_definition_.end() && depth < 4 && v.kind == VariableKind::kLocal)
        return Render(*it->second, nullptr, depth + 1);
      return v.name;
    };
    return RenderExpr(e, names);
  }

 private:
  std::string KeyText(const Stmt& s, const KeyAccess& k) const {
    const TableInfo& t = *s.table;
    std::vector<int> columns = t.primary_key;
    std::string via;
    if (k.kind == KeyAccess::Kind::kIndex && s.select) {
      columns = s.select->access.key_columns;
      for (const std::string& name : t.indexes)
        if (const IndexInfo* ix = catalog_.FindIndex(name); ix && ix->engine_index == k.index) via = " (index " + name + ")";
    }
    std::vector<std::string> parts;
    for (size_t i = 0; i < k.key.size(); ++i)
      parts.push_back(fmt::format("{} = {}", t.columns[columns[i]].name, Render(*k.key[i], &t)));
    if (k.key.size() < columns.size()) {
      const std::string& next = t.columns[columns[k.key.size()]].name;
      if (k.lower) parts.push_back(fmt::format("{} {} {}", next, k.lower_inclusive ? ">=" : ">", Render(*k.lower, &t)));
      if (k.upper) parts.push_back(fmt::format("{} {} {}", next, k.upper_inclusive ? "<=" : "<", Render(*k.upper, &t)));
    }
    if (parts.empty()) return "(all rows)";
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? " AND " : "") + parts[i];
    return out + via;
  }

  std::string InsertKeyText(const Stmt& s) const {
    const TableInfo& t = *s.table;
    std::string out;
    for (size_t i = 0; i < t.primary_key.size(); ++i)
      out += fmt::format("{}{} = {}", i ? " AND " : "", t.columns[t.primary_key[i]].name,
                         Render(*s.row_values[t.primary_key[i]], &t));
    return out;
  }

  std::string DependsText(int source) const {
    if (source == -2) return "FOUND";
    if (source == -4) return "ROW_COUNT";
    if (source == -3) return "the RETURNING of a write";
    if (source >= 1) {
      const Stmt& r = *ir_.table_statements[source - 1];
      return fmt::format("the read of {} at line {} (statement {})", r.table->name, r.line, source);
    }
    return "a value read from the database";
  }

  // Which read the keys need, and the note saying so.
  void MarkDependent(AccessInfo& a, const std::set<int>& vars, const Stmt* loop) {
    a.key_class = KeyClass::kDependent;
    int source = -1;
    for (int v : vars)
      if (taint_.read_derived().count(v)) source = taint_.SourceOf(v);
    if (source == -1 && loop) {
      std::set<int> loop_vars = VariablesOf(loop->lower.get());
      for (int v : VariablesOf(loop->upper.get())) loop_vars.insert(v);
      for (int v : VariablesOf(loop->value.get())) loop_vars.insert(v);
      if (!loop->conds.empty())
        for (int v : VariablesOf(loop->conds[0].get())) loop_vars.insert(v);
      for (int v : loop_vars)
        if (taint_.read_derived().count(v)) source = taint_.SourceOf(v);
    }
    a.depends_on = source >= 1 ? source : -1;
    a.note = fmt::format("key depends on {}: found by reconnaissance", DependsText(source));
  }

  bool WrittenLater(const Stmt& s) const {
    bool after = false, touched = false;
    ForEachStmt(ir_.body, [&](const Stmt& n) {
      if (&n == &s) {
        after = true;
        return;
      }
      if (after && n.table == s.table && IsWrite(n)) touched = true;
    });
    return touched;
  }

  void ApplyRowUpdateCandidate(const Stmt& s, AccessInfo& a, int loop_depth) {
    if (s.kind != StmtKind::kUpdate || a.access != Access::kUpdate || a.key_class == KeyClass::kDependent) return;
    std::string why;
    // RETURNING ... INTO is evaluated in the callback, on the new row, and the body waits
    // for it (as the native Payment waits for w_name); a RETURNING whose rows go to the
    // client (ad-hoc UPDATE) is not.
    const bool returning_into = !s.returning.empty() && !s.into.empty() && !s.emit_returning;
    if (!s.returning.empty() && !returning_into) why = "RETURNING reads the new row";
    for (const auto& [c, e] : s.assignments)
      if (taint_.Refs(e.get())) why = "a new value depends on a read";
    if (taint_.Refs(s.filter.get())) why = "the WHERE clause depends on a read";
    // Later reads of the row are fine (they wait for a split piece); a later write of the
    // same table might hit the same row while its piece is still queued.
    if (why.empty() && WrittenLater(s)) why = fmt::format("{} is written again later", s.table->name);
    if (!why.empty()) {
      a.note = "not ApplyRowUpdate: " + why;
      return;
    }
    a.apply_row_update = true;
    // One unit per row update, plus one per four assigned columns (the callback's work).
    a.weight = 1 + static_cast<int>(s.assignments.size() / 4);
    a.wait_for_update = returning_into || !ir_.command_tag.empty() || FoundReadAfter(s, loop_depth > 0);
  }

  static bool ReadsVariable(const Stmt& s, int var) {
    bool reads = false;
    ForEachOwnExpr(s, [&](const Expr& e) { reads = reads || VariablesOf(&e).count(var) > 0; });
    return reads;
  }

  // Whether FOUND (or ROW_COUNT, its count) may be read after `s` sets it (anywhere
  // later, or anywhere at all when `s` repeats in a loop).
  bool FoundReadAfter(const Stmt& s, bool in_loop) const {
    if (ir_.found_variable < 0 && ir_.row_count_variable < 0) return false;
    bool after = false, read = false;
    ForEachStmt(ir_.body, [&](const Stmt& n) {
      if (&n == &s) after = true;
      else if ((after || in_loop) && (ReadsVariable(n, ir_.found_variable) || ReadsVariable(n, ir_.row_count_variable)))
        read = true;
    });
    return read;
  }

  // AccessInfo::unknown_indexes of write `s`.
  std::vector<std::string> UnknownIndexes(const Stmt& s, bool range, const Stmt* loop) const {
    std::vector<std::string> out;
    if (s.kind != StmtKind::kInsert && s.kind != StmtKind::kUpdate) return out;
    auto known = [&](const Expr* e) {
      return e != nullptr && !e->References(SlotSpace::kColumn) && !e->References(SlotSpace::kExcluded) &&
             !taint_.Refs(e) && !(loop && enclosing_loop_reads_);
    };
    for (const std::string& name : s.table->indexes) {
      const IndexInfo* index = catalog_.FindIndex(name);
      if (index == nullptr) continue;
      bool assigned = false;
      for (const auto& [col, e] : s.assignments)
        for (int c : index->columns) assigned |= c == col;
      bool unknown = false;
      if (s.kind == StmtKind::kInsert) {
        // The inserted row's entry, from its values; DO UPDATE's applies to a row it reads.
        for (int c : index->columns) unknown |= !known(s.row_values[c].get());
        unknown |= assigned;
      } else if (assigned) {
        unknown = range;
        for (int c : index->columns) {
          const Expr* value = nullptr;
          for (const auto& [col, e] : s.assignments)
            if (col == c) value = e.get();
          unknown |= !known(value);  // unassigned: the old row's value
        }
      }
      if (unknown) out.push_back(name);
    }
    return out;
  }

  void Classify(Stmt& s, int loop_depth, const Stmt* loop) {
    AccessInfo a;
    const KeyAccess* k = nullptr;
    std::set<int> key_vars;
    bool range = false;
    switch (s.kind) {
      case StmtKind::kSelectInto:
      case StmtKind::kReturnQuery:
        k = &s.select_key;
        range = k->kind != KeyAccess::Kind::kPoint;
        a.access = k->kind == KeyAccess::Kind::kPoint ? Access::kReadPrefetch : Access::kRead;
        if (s.kind == StmtKind::kReturnQuery) a.access = Access::kRead;
        break;
      case StmtKind::kInsert:
        a.access = s.on_conflict == OnConflict::kNone ? Access::kInsert : Access::kUpsert;
        for (int c : s.table->primary_key) CollectVariables(*s.row_values[c], key_vars);
        break;
      case StmtKind::kUpdate:
      case StmtKind::kDelete:
        k = &s.where_key;
        range = k->kind != KeyAccess::Kind::kPoint;
        if (s.kind == StmtKind::kUpdate) a.access = range ? Access::kRangeUpdate : Access::kUpdate;
        else a.access = range ? Access::kRangeDelete : Access::kDelete;
        break;
      default: return;
    }
    if (k) {
      for (const auto& e : k->key) CollectVariables(*e, key_vars);
      for (int v : VariablesOf(k->lower.get())) key_vars.insert(v);
      for (int v : VariablesOf(k->upper.get())) key_vars.insert(v);
    }
    a.key_expr = s.kind == StmtKind::kInsert ? InsertKeyText(s) : KeyText(s, *k);
    a.key_class = range ? KeyClass::kRange : loop_depth > 0 ? KeyClass::kLoop : KeyClass::kStatic;
    bool depends = Intersects(key_vars, taint_.read_derived()) || (loop && enclosing_loop_reads_);
    if (IsWrite(s)) {
      a.unknown_indexes = UnknownIndexes(s, range, loop);
      if (depends) MarkDependent(a, key_vars, loop);
      else if (range && k->kind == KeyAccess::Kind::kFullScan) a.note = "no primary-key prefix in WHERE: every row is a candidate";
      ApplyRowUpdateCandidate(s, a, loop_depth);
    } else {
      if (depends) {
        a.access = Access::kRead;
        a.note = fmt::format("not prefetched: key depends on {}", DependsText([&] {
                               for (int v : key_vars)
                                 if (taint_.read_derived().count(v)) return taint_.SourceOf(v);
                               return -1;
                             }()));
      } else if (range && k->kind == KeyAccess::Kind::kFullScan) {
        a.note = "no primary-key prefix in WHERE: scans the table";
      }
    }
    if (!a.unknown_indexes.empty()) {
      std::string names;
      for (const std::string& n : a.unknown_indexes) names += (names.empty() ? "" : ", ") + n;
      a.note += fmt::format("{}index {}: entries known only when written (its scans also read the rows written, that epoch)",
                            a.note.empty() ? "" : "; ", names);
    }
    s.access = std::move(a);
  }

  void Walk(Block& block, int loop_depth, const Stmt* loop) {
    for (auto& sp : block) {
      Stmt& s = *sp;
      if (IsTableStatement(s)) Classify(s, loop_depth, loop);
      bool saved = enclosing_loop_reads_;
      if (IsLoop(s)) {
        // A WHILE whose exits depend on reads cannot be enumerated ahead of time; a FOR
        // over fixed bounds can (writes under a read-dependent EXIT are declared for
        // every iteration, the unused ones become ignore markers).
        bool enumerable = s.kind != StmtKind::kWhile ? !(taint_.Refs(s.lower.get()) || taint_.Refs(s.upper.get()) ||
                                                         taint_.Refs(s.step.get()) || taint_.Refs(s.value.get()))
                                                     : !taint_.LoopDependsOnReads(s);
        enclosing_loop_reads_ = enclosing_loop_reads_ || !enumerable;
      }
      const Stmt* inner_loop = IsLoop(s) ? &s : loop;
      int depth = loop_depth + (IsLoop(s) ? 1 : 0);
      for (auto& b : s.blocks) Walk(b, loop_depth, loop);
      Walk(s.else_block, loop_depth, loop);
      Walk(s.body, depth, inner_loop);
      enclosing_loop_reads_ = saved;
    }
  }

  ProcedureIr& ir_;
  const Taint& taint_;
  const Catalog& catalog_;
  std::map<int, const Expr*> single_definition_;
  bool enclosing_loop_reads_ = false;
};

// ---------------------------------------------------------------------------------------
// 4. The init program.

class InitBuilder {
 public:
  InitBuilder(ProcedureIr& ir, const Taint& taint) : ir_(ir), taint_(taint) {}

  void Run() {
    // Reads whose results dependent keys need run by reconnaissance.
    std::set<int> needed_reads;
    for (const Stmt* s : ir_.table_statements)
      if (s->access && s->access->key_class == KeyClass::kDependent && IsWrite(*s)) NeedKeysOf(*s);
    // Variables the kept statements need, to a fixpoint over assignments and recon reads.
    for (const Stmt* s : ir_.table_statements)
      if (s->access && Declared(*s)) NeedKeysOf(*s);
    NeedToFixpoint();
    DecideFromReconnaissance();
    for (const Stmt* r : recon_)
      for (int t : r->into) computable_.insert(t);
    ComputeComputable();
    // Every write's keys must be computable now.
    for (const Stmt* s : ir_.table_statements) {
      if (!s->access || !IsWrite(*s)) continue;
      std::set<int> vars = KeyVariables(*s);
      for (int v : vars)
        if (!Computable(v)) {
          int source = taint_.SourceOf(v);
          std::string what = source == -2   ? "FOUND"
                             : source == -4 ? "ROW_COUNT"
                             : source == -3 ? "the RETURNING of an earlier write"
                                            : "a computed value";
          throw AtLine(NotSupported(fmt::format("a write whose key depends on {}", what))
                           .WithDetail(fmt::format("The key of statement {} ({} on {}) uses \"{}\", which cannot be known "
                                                   "before the call runs.",
                                                   s->id, AccessName(s->access->access), s->table->name,
                                                   ir_.variables[v].name))
                           .WithHint("Compute the key from the parameters, or read it with SELECT ... INTO first."),
                       ir_, s->line);
        }
    }
    NoteAssignments();
    ir_.init = Build(ir_.body, true);
  }

 private:
  static const char* AccessName(Access a) {
    switch (a) {
      case Access::kInsert: return "insert";
      case Access::kUpsert: return "upsert";
      case Access::kUpdate: return "update";
      case Access::kDelete: return "delete";
      case Access::kRangeUpdate: return "range_update";
      case Access::kRangeDelete: return "range_delete";
      default: return "read";
    }
  }

  static bool Declared(const Stmt& s) { return IsWrite(s) || s.access->access == Access::kReadPrefetch; }

  static std::set<int> KeyVariables(const Stmt& s) {
    std::set<int> vars;
    if (s.kind == StmtKind::kInsert) {
      for (int c : s.table->primary_key) CollectVariables(*s.row_values[c], vars);
      return vars;
    }
    const KeyAccess& k = s.select ? s.select_key : s.where_key;
    for (const auto& e : k.key) CollectVariables(*e, vars);
    if (k.lower) CollectVariables(*k.lower, vars);
    if (k.upper) CollectVariables(*k.upper, vars);
    if (s.select && s.select->access.kind != AccessPath::Kind::kFullScan) {
      for (const Expr* e : s.select->access.prefix) CollectVariables(*e, vars);
    }
    return vars;
  }

  void Need(const Expr* e) {
    if (!e) return;
    for (int v : VariablesOf(e)) needed_.insert(v);
  }
  void NeedKeysOf(const Stmt& s) {
    for (int v : KeyVariables(s)) needed_.insert(v);
    kept_.insert(&s);
  }

  // needed_ and recon_ closed over assignments, reconnaissance reads and the control flow
  // the kept statements sit under.
  void NeedToFixpoint() {
    for (size_t before = 0; before != needed_.size() + recon_.size();) {
      before = needed_.size() + recon_.size();
      ForEachStmt(ir_.body, [&](const Stmt& s) {
        if (s.kind == StmtKind::kAssign && needed_.count(s.target)) Need(s.value.get());
        if (s.kind == StmtKind::kSelectInto && s.table)
          for (int t : s.into)
            if (needed_.count(t) && taint_.read_derived().count(t)) recon_.insert(&s);
        if (s.kind == StmtKind::kSelectInto && !s.table)
          for (int t : s.into)
            if (needed_.count(t))
              for (const auto& o : s.select->outputs) Need(o.get());
        if (recon_.count(&s)) {
          ForEachOwnExpr(s, [&](const Expr& e) { Need(&e); });
        }
      });
      // Control flow the kept statements sit under.
      NeedControl(ir_.body);
    }
  }

  // A condition over values read (IF r.qty < 5, CONTINUE WHEN q >= 5) above kept
  // statements is decided by the init program when the reads it needs run by
  // reconnaissance already: then it declares only the branch taken, not every branch.
  // A condition that would need another read stays undecided.
  void DecideFromReconnaissance() {
    std::vector<const Expr*> conditions;
    NeedControl(ir_.body, &conditions);  // needs nothing new: only lists them
    for (const Expr* c : conditions) {
      const std::set<int> needed = needed_;
      const std::set<const Stmt*> recon = recon_;
      Need(c);
      NeedToFixpoint();
      if (recon_ != recon) {
        needed_ = needed;
        recon_ = recon;
      }
    }
  }
  // Marks the conditions and bounds of control statements that contain kept statements
  // (or needed assignments); returns whether `block` contains any. The read-dependent
  // conditions it leaves unmarked (of IFs, and of EXIT / CONTINUEs in such loops) go to
  // `undecided`, if given.
  bool NeedControl(const Block& block, std::vector<const Expr*>* undecided = nullptr) {
    bool any = false;
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      bool inner = kept_.count(&s) || recon_.count(&s) || (s.kind == StmtKind::kAssign && needed_.count(s.target));
      for (const auto& b : s.blocks) inner = NeedControl(b, undecided) || inner;
      inner = NeedControl(s.else_block, undecided) || inner;
      inner = NeedControl(s.body, undecided) || inner;
      if (inner && (IsLoop(s) || s.kind == StmtKind::kIf)) {
        bool keep_conditions = true;
        if (s.kind == StmtKind::kIf)
          for (const auto& c : s.conds) keep_conditions = keep_conditions && !taint_.Refs(c.get());
        if (keep_conditions || IsLoop(s)) {
          for (const auto& c : s.conds) Need(c.get());
          Need(s.lower.get());
          Need(s.upper.get());
          Need(s.step.get());
          Need(s.value.get());
        } else if (undecided) {
          for (const auto& c : s.conds)
            if (taint_.Refs(c.get())) undecided->push_back(c.get());
        }
        if (IsLoop(s)) NeedExits(s.body, undecided);
      }
      any = any || inner;
    }
    return any;
  }
  void NeedExits(const Block& block, std::vector<const Expr*>* undecided) {
    ForEachStmt(block, [&](const Stmt& s) {
      if ((s.kind != StmtKind::kExit && s.kind != StmtKind::kContinue) || s.conds.empty()) return;
      if (!taint_.Refs(s.conds[0].get())) Need(s.conds[0].get());
      else if (undecided) undecided->push_back(s.conds[0].get());
    });
  }

  void ComputeComputable() {
    for (size_t i = 0; i < ir_.variables.size(); ++i)
      if (!taint_.read_derived().count(static_cast<int>(i))) computable_.insert(static_cast<int>(i));
    // Variables derived from reconnaissance reads by assignments - unless the assignment
    // runs under a decision the init program cannot make (then it may or may not run).
    for (size_t before = 0; before != computable_.size();) {
      before = computable_.size();
      MarkComputable(ir_.body, true);
    }
  }
  void MarkComputable(const Block& block, bool decided) {
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      if (s.kind == StmtKind::kAssign && decided && ExprComputable(s.value.get())) computable_.insert(s.target);
      bool inner = decided;
      for (const auto& c : s.conds) inner = inner && ExprComputable(c.get());
      if (IsLoop(s)) {
        inner = inner && ExprComputable(s.lower.get()) && ExprComputable(s.upper.get()) &&
                ExprComputable(s.step.get()) && ExprComputable(s.value.get());
        if (inner && s.target >= 0) computable_.insert(s.target);
      }
      for (const auto& b : s.blocks) MarkComputable(b, inner);
      MarkComputable(s.else_block, inner);
      MarkComputable(s.body, inner);
    }
  }
  bool Computable(int v) const { return computable_.count(v) > 0; }
  bool ExprComputable(const Expr* e) const {
    if (!e) return true;
    for (int v : VariablesOf(e))
      if (!Computable(v)) return false;
    return true;
  }

  // Whether the init program can decide condition `e` as the body will: its variables
  // are computable, and the init program gives them their values - it keeps only needed
  // assignments, so a computable variable nothing needs stays unset there.
  bool Decidable(const Expr* e) const {
    if (!ExprComputable(e)) return false;
    for (int v : VariablesOf(e))
      if (!needed_.count(v) && !set_in_init_.count(v) && assigned_.count(v)) return false;
    return true;
  }
  // assigned_: variables the body assigns (so their frame value in the init program is
  // only right if the init program assigns them too); set_in_init_: those it does
  // assign without their being needed (INTO targets of reconnaissance reads, loop
  // variables of the loops it keeps).
  void NoteAssignments() {
    ForEachStmt(ir_.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::kAssign || IsLoop(s)) {
        if (s.target >= 0) assigned_.insert(s.target);
      }
      for (int t : s.into) assigned_.insert(t);
      if (IsLoop(s) && s.target >= 0) set_in_init_.insert(s.target);
    });
    for (const Stmt* r : recon_)
      for (int t : r->into) set_in_init_.insert(t);
  }

  StmtPtr Shell(const Stmt& s, StmtKind kind) const {
    auto n = std::make_unique<Stmt>();
    n->kind = kind;
    n->line = s.line;
    n->label = s.label;
    n->target = s.target;
    n->reverse = s.reverse;
    return n;
  }

  // The init version of `block`. `exact`: this block runs in the init program exactly
  // when it runs in the body (no enclosing read-dependent branch was flattened), so its
  // EXIT / CONTINUE / RETURN can be kept.
  Block Build(const Block& block, bool exact) {
    Block out;
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      switch (s.kind) {
        case StmtKind::kAssign:
          if (needed_.count(s.target) && ExprComputable(s.value.get())) {
            auto n = Shell(s, StmtKind::kAssign);
            n->value = s.value->Clone();
            out.push_back(std::move(n));
          }
          break;
        case StmtKind::kIf: {
          // Conditions over inputs (or values known by reconnaissance) are decided exactly.
          bool exact_conditions = true;
          for (const auto& c : s.conds) exact_conditions = exact_conditions && Decidable(c.get());
          std::vector<Block> blocks;
          bool any = false;
          for (const auto& b : s.blocks) {
            blocks.push_back(Build(b, exact && exact_conditions));
            any = any || !blocks.back().empty();
          }
          Block else_block = Build(s.else_block, exact && exact_conditions);
          any = any || !else_block.empty();
          if (!any) break;
          if (exact_conditions) {
            auto n = Shell(s, StmtKind::kIf);
            for (const auto& c : s.conds) n->conds.push_back(c->Clone());
            n->blocks = std::move(blocks);
            n->else_block = std::move(else_block);
            out.push_back(std::move(n));
          } else {
            // The branch taken depends on the database: declare what every branch may write.
            for (auto& b : blocks)
              for (auto& n : b) out.push_back(std::move(n));
            for (auto& n : else_block) out.push_back(std::move(n));
          }
          break;
        }
        case StmtKind::kForRange:
        case StmtKind::kForEach:
        case StmtKind::kWhile: {
          bool bounds = ExprComputable(s.lower.get()) && ExprComputable(s.upper.get()) && ExprComputable(s.step.get()) &&
                        ExprComputable(s.value.get()) && (s.conds.empty() || ExprComputable(s.conds[0].get()));
          int dropped_before = dropped_exits_;
          Block body = Build(s.body, exact && bounds);
          if (body.empty()) break;
          if (s.kind == StmtKind::kWhile && dropped_exits_ != dropped_before)
            throw AtLine(NotSupported("a WHILE loop with writes whose EXIT depends on FOUND or on values the init "
                                      "program cannot know")
                             .WithHint("Use FOR i IN a..b with an EXIT WHEN, so the loop is bounded."),
                         ir_, s.line);
          if (!bounds)
            throw AtLine(NotSupported("a loop with writes whose iterations depend on FOUND or on the RETURNING of a write")
                             .WithHint("Loop over bounds computed from the parameters, or from values read with "
                                       "SELECT ... INTO."),
                         ir_, s.line);
          auto n = Shell(s, s.kind);
          if (s.value) n->value = s.value->Clone();
          for (const auto& c : s.conds) n->conds.push_back(c->Clone());
          if (s.lower) n->lower = s.lower->Clone();
          if (s.upper) n->upper = s.upper->Clone();
          if (s.step) n->step = s.step->Clone();
          n->body = std::move(body);
          out.push_back(std::move(n));
          break;
        }
        case StmtKind::kExit:
        case StmtKind::kContinue:
          if (exact && (s.conds.empty() || Decidable(s.conds[0].get()))) {
            auto n = Shell(s, s.kind);
            for (const auto& c : s.conds) n->conds.push_back(c->Clone());
            out.push_back(std::move(n));
          } else if (s.kind == StmtKind::kExit) {
            ++dropped_exits_;
          }
          break;
        case StmtKind::kReturn:
          if (exact) out.push_back(Shell(s, StmtKind::kReturn));
          break;
        case StmtKind::kSelectInto:
          if (recon_.count(&s)) {
            auto n = Shell(s, StmtKind::kReconRead);
            n->target_stmt = s.id;
            out.push_back(std::move(n));
          } else if (s.access && s.access->access == Access::kReadPrefetch) {
            auto n = Shell(s, StmtKind::kDeclare);
            n->target_stmt = s.id;
            out.push_back(std::move(n));
          }
          break;
        case StmtKind::kInsert:
        case StmtKind::kUpdate:
        case StmtKind::kDelete: {
          auto n = Shell(s, StmtKind::kDeclare);
          n->target_stmt = s.id;
          out.push_back(std::move(n));
          break;
        }
        default: break;
      }
    }
    return out;
  }

  ProcedureIr& ir_;
  const Taint& taint_;
  std::set<int> needed_;
  std::set<const Stmt*> kept_;
  std::set<const Stmt*> recon_;
  std::set<int> computable_;
  std::set<int> assigned_;
  std::set<int> set_in_init_;
  int dropped_exits_ = 0;  // EXITs the init program cannot decide (see kWhile)
};

// ---------------------------------------------------------------------------------------
// 5. The publish point.

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

// The publish point goes after the last top-level statement that can fail, and late
// enough that no row is written twice after it.
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

}  // namespace

// Sets Stmt::feeds_range_write of a range query directly followed by a range write of
// its table, in every block.
void MarkRangeReadsBeforeRangeWrites(Block& block) {
  for (size_t i = 0; i < block.size(); ++i) {
    Stmt& s = *block[i];
    for (Block& b : s.blocks) MarkRangeReadsBeforeRangeWrites(b);
    MarkRangeReadsBeforeRangeWrites(s.else_block);
    MarkRangeReadsBeforeRangeWrites(s.body);
    if (s.kind != StmtKind::kSelectInto || s.point_lookup || !s.select || s.select->table == nullptr ||
        s.select->access.kind != AccessPath::Kind::kRangeScan || i + 1 == block.size())
      continue;
    const Stmt& next = *block[i + 1];
    if ((next.kind == StmtKind::kUpdate || next.kind == StmtKind::kDelete) && next.table == s.select->table &&
        next.where_key.kind == KeyAccess::Kind::kRange)
      s.feeds_range_write = next.id;
  }
}

void AnalyzeProcedure(ProcedureIr& ir, const Catalog& catalog) {
  SequenceHoister(ir).Run();
  Taint taint(ir);
  Classifier classifier(ir, taint, catalog);
  classifier.Run();
  InitBuilder(ir, taint).Run();
  PlacePublish(ir);
  MarkRangeReadsBeforeRangeWrites(ir.body);
}

}  // namespace caracal::planner
