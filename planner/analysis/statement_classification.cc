#include "planner/analysis/statement_classification.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/analysis/read_taint.h"
#include "planner/binder/check_constraints.h"
#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"
#include "planner/analysis/abort_points.h"
#include "planner/analysis/expr_render.h"

namespace caracal::planner {

namespace {

using Access = AccessInfo::Access;
using KeyClass = AccessInfo::KeyClass;

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
      if (v.kind == VariableKind::kSequence)
        if (const SequenceCall* c = ir_.SequenceCallOf(slot))
          return fmt::format("nextval({})", Render(*c->sequence_name, nullptr, depth + 1));
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
    if (t.HasRowIdentity()) return "(new row identity)";
    std::string out;
    for (size_t i = 0; i < t.primary_key.size(); ++i)
      out += fmt::format("{}{} = {}", i ? " AND " : "", t.columns[t.primary_key[i]].name,
                         Render(Unguarded(*s.row_values[t.primary_key[i]]), &t));  // the value, not its CHECK
    return out;
  }

  std::string DependsText(int source) const {
    if (source == -2) return "FOUND";
    if (source == -4) return "ROW_COUNT";
    if (source == -3) return "the RETURNING of a write";
    if (source == -5) return "whether an EXCEPTION block caught an error";
    if (source == -6) return "a user function that reads tables";
    if (source >= 1) {
      const Stmt& r = *ir_.table_statements[source - 1];
      if (r.query) return fmt::format("the query at line {} (statement {})", r.line, source);
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
    // A split piece evaluates the new values alone, where no function body can run.
    for (const auto& [c, e] : s.assignments)
      if (e->Contains(ExprKind::kRoutineCall)) why = "a new value calls a user function";
    if (s.filter && s.filter->Contains(ExprKind::kRoutineCall)) why = "the WHERE clause calls a user function";
    for (const auto& [c, e] : s.assignments)
      if (s.table->InUniqueIndex(c))
        why = fmt::format("column {} is in a UNIQUE index (a split piece could not raise its violation)",
                          s.table->columns[static_cast<size_t>(c)].name);
    for (const auto& [c, e] : s.assignments)
      if (s.table->InForeignKey(c))
        why = fmt::format("column {} is in a foreign key (its check reads the new row)",
                          s.table->columns[static_cast<size_t>(c)].name);
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
    a.wait_for_update = returning_into || ir_.is_ad_hoc_dml() || FoundReadAfter(s, loop_depth > 0);
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

  // A query plan (a join, subqueries, ...) reads at its serial position, never prefetched:
  // which rows it reads is known only as it runs.
  void ClassifyQuery(Stmt& s, int loop_depth) {
    AccessInfo a;
    a.access = Access::kRead;
    a.key_class = loop_depth > 0 ? KeyClass::kLoop : KeyClass::kRange;
    const std::string tables = TableNamesRead(*s.query);
    a.key_expr = tables.empty() ? "query (no table)" : "query over " + tables;
    bool over_reads = false;  // of values the call read (or a write returned)
    ForEachQueryExpr(*s.query, [&](const Expr& e) { over_reads = over_reads || taint_.Refs(&e); });
    a.note = !tables.empty() ? "a query plan: read at its serial position, not prefetched"
             : over_reads    ? "rows computed from values the call read or wrote"
                             : "rows computed from the arguments, in the init program too";
    s.access = std::move(a);
  }

  void Classify(Stmt& s, int loop_depth, const Stmt* loop) {
    AccessInfo a;
    const KeyAccess* k = nullptr;
    std::set<int> key_vars;
    bool range = false;
    switch (s.kind) {
      case StmtKind::kSelectInto:
      case StmtKind::kReturnQuery:
        if (s.query) {
          ClassifyQuery(s, loop_depth);
          return;
        }
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

}  // namespace

void ClassifyStatements(ProcedureIr& ir, const Taint& taint, const Catalog& catalog) {
  Classifier(ir, taint, catalog).Run();
}

}  // namespace caracal::planner
