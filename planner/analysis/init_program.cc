#include "planner/analysis/init_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/analysis/read_taint.h"
#include "planner/analysis/routine_calls.h"
#include "planner/binder/check_constraints.h"
#include "planner/binder/coerce.h"
#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"
#include "planner/analysis/abort_points.h"
#include "planner/analysis/expr_render.h"
#include "planner/parser/sql_tokens.h"

namespace caracal::planner {

namespace {

using Access = AccessInfo::Access;
using KeyClass = AccessInfo::KeyClass;

class InitBuilder {
 public:
  InitBuilder(ProcedureIr& ir, const Taint& taint) : ir_(ir), taint_(taint) {}

  void Run() {
    ForEachStmt(ir_.body, [&](const Stmt& s) {
      if (!IsWrite(s)) return;
      if (std::optional<std::vector<Derived>> d = DeriveReturning(s)) derived_.emplace(&s, std::move(*d));
      else returning_targets_.insert(s.into.begin(), s.into.end());
    });
    // A variable also set by a RETURNING that cannot be derived is known only as it runs.
    for (auto& [stmt, targets] : derived_)
      std::erase_if(targets, [&](const Derived& d) { return returning_targets_.contains(d.target); });
    // Reads whose results dependent keys need run by reconnaissance.
    std::set<int> needed_reads;
    for (const Stmt* s : ir_.table_statements)
      if (s->access && s->access->key_class == KeyClass::kDependent && IsWrite(*s)) NeedKeysOf(*s);
    // Variables the kept statements need, to a fixpoint over assignments and recon reads.
    for (const Stmt* s : ir_.table_statements)
      if (s->access && Declared(*s)) NeedKeysOf(*s);
    NeedToFixpoint();
    DecideFromReconnaissance();
    RequireReconnaissanceBeforeOwnWrites();
    ComputeComputable();
    // Every write's keys must be computable now.
    for (const Stmt* s : ir_.table_statements) {
      if (!s->access || !IsWrite(*s)) continue;
      if (KeyCallsTableRoutine(*s))
        throw AtLine(NotSupported("a write whose key depends on a user function that reads tables")
                         .WithDetail(fmt::format("The key of statement {} ({} on {}) calls a function that reads tables, "
                                                 "which runs only as the call runs.",
                                                 s->id, AccessName(s->access->access), s->table->name)),
                     ir_, s->line);
      std::set<int> vars = KeyVariables(*s);
      for (int v : vars)
        if (!Computable(v)) {
          int source = taint_.SourceOf(v);
          std::string what = source == -2   ? "FOUND"
                             : source == -4 ? "ROW_COUNT"
                             : source == -3 ? "the RETURNING of an earlier write"
                             : source == -5 ? "what an EXCEPTION block caught (its variables' values depend on where an error stopped it)"
                             : source == -6 ? "a user function that reads tables"
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

  // Reconnaissance reads the state before the call, so a read that finds keys must not
  // come after a write of the same table earlier in the body (it would miss the call's
  // own change; the write set would be wrong and the call fail). Refused when the
  // procedure is created. (A write later in a loop, before the read's next iteration, is
  // not caught: TPC-C's Delivery reads and deletes other districts' rows that way.)
  // Two exceptions: a write in another branch of an IF than the read (outside loops: one
  // of them runs, HammerDB's NEWORD has one stock update per district), and an UPDATE of
  // columns the read does not name (DELIVERY sets o_carrier_id, then reads o_c_id):
  // reconnaissance then reads what the call will.
  void RequireReconnaissanceBeforeOwnWrites() {
    std::vector<std::pair<const Stmt*, size_t>> path;
    MapBranches(ir_.body, path);
    for (const Stmt* r : recon_) {
      std::vector<const TableInfo*> tables;
      if (r->query) tables = TablesRead(*r->query);
      else if (r->table) tables.push_back(r->table);
      for (const Stmt* w : ir_.table_statements) {
        if (w->id >= r->id || !IsWrite(*w) || std::ranges::find(tables, w->table) == tables.end()) continue;
        if (InOtherBranches(*w, *r) || ChangesNothingNamedBy(*w, *r)) continue;
        throw AtLine(NotSupported(fmt::format("a write whose key depends on a read of table {} after the procedure changed it",
                                              w->table->name))
                         .WithDetail(fmt::format("Statement {} reads {} to find the keys of later writes; statement {} "
                                                 "(line {}) changed it before, and the keys are found before the call runs.",
                                                 r->id, w->table->name, w->id, w->line))
                         .WithHint("Read the keys before changing the table, or derive them from the RETURNING of a "
                                   "data-modifying WITH query."),
                     ir_, r->line);
      }
    }
  }

  // The IF branches each statement is in, (the IF, which branch), for IFs outside loops
  // (in a loop, one iteration's branch may follow another's).
  void MapBranches(const Block& block, std::vector<std::pair<const Stmt*, size_t>>& path, bool in_loop = false) {
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      branches_[&s] = path;
      if (s.kind == StmtKind::kIf && !in_loop) {
        for (size_t b = 0; b <= s.blocks.size(); ++b) {
          path.emplace_back(&s, b);
          MapBranches(b < s.blocks.size() ? s.blocks[b] : s.else_block, path);
          path.pop_back();
        }
        continue;
      }
      const bool loop = in_loop || IsLoop(s);
      MapBranches(s.body, path, loop);
      for (const Block& b : s.blocks) MapBranches(b, path, loop);
      MapBranches(s.else_block, path, loop);
    }
  }

  bool InOtherBranches(const Stmt& a, const Stmt& b) const {
    auto pa = branches_.find(&a), pb = branches_.find(&b);
    if (pa == branches_.end() || pb == branches_.end()) return false;
    for (const auto& [stmt, branch] : pa->second)
      for (const auto& [other, other_branch] : pb->second)
        if (stmt == other && branch != other_branch) return true;
    return false;
  }

  // Whether `w` is an UPDATE of none of the columns read `r` names, `r` naming w's table
  // itself (not through a view) and no `*`: judged on r's text, so a column it names for
  // another table counts too (never too few).
  static bool ChangesNothingNamedBy(const Stmt& w, const Stmt& r) {
    if (w.kind != StmtKind::kUpdate || w.assignments.empty() || r.sql_text.empty()) return false;
    std::set<std::string> words;
    for (const SqlToken& t : ScanSql(r.sql_text)) {
      if (t.kind == PG_QUERY__TOKEN__ASCII_42) return false;  // * (or a product: never too few)
      if (std::string word = TokenWord(r.sql_text, t); !word.empty()) words.insert(std::move(word));
    }
    if (words.empty() || !words.contains(w.table->name)) return false;
    for (const auto& [column, value] : w.assignments)
      if (words.contains(w.table->columns[static_cast<size_t>(column)].name)) return false;
    return true;
  }

  // A query of no table: the init program runs it (as a reconnaissance read, which reads
  // nothing) to compute what the body will compute.
  static bool ReadsNoTable(const Stmt& s) { return s.query && TablesRead(*s.query).empty(); }

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

  // Whether the key KeyVariables reads calls a function that reads tables.
  static bool KeyCallsTableRoutine(const Stmt& s) {
    auto calls = [](const ExprPtr& e) { return e && CallsTableRoutine(*e); };
    if (s.kind == StmtKind::kInsert)
      return std::ranges::any_of(s.table->primary_key, [&](int c) { return calls(s.row_values[c]); });
    const KeyAccess& k = s.select ? s.select_key : s.where_key;
    return std::ranges::any_of(k.key, calls) || calls(k.lower) || calls(k.upper);
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
    // At least once: with nothing needed yet (writes of constant keys only), the control
    // flow above them still needs its bounds.
    for (size_t before = SIZE_MAX; before != needed_.size() + recon_.size();) {
      before = needed_.size() + recon_.size();
      ForEachStmt(ir_.body, [&](const Stmt& s) {
        if (s.kind == StmtKind::kAssign && needed_.count(s.target)) Need(s.value.get());
        if (auto it = derived_.find(&s); it != derived_.end())
          for (const Derived& d : it->second)
            if (needed_.count(d.target)) Need(d.value.get());
        if (s.kind == StmtKind::kSelectInto && (s.table || s.query))
          for (int t : s.into)
            if (needed_.count(t) && (taint_.read_derived().count(t) || ReadsNoTable(s))) recon_.insert(&s);
        if (s.kind == StmtKind::kSelectInto && !s.table && !s.query)
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
      bool inner = kept_.count(&s) || recon_.count(&s) || (s.kind == StmtKind::kAssign && needed_.count(s.target)) ||
                   (s.kind == StmtKind::kSelectInto && !s.table && !s.query &&
                    std::ranges::any_of(s.into, [&](int t) { return needed_.count(t) > 0; }));
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
    // The results of reconnaissance reads whose inputs are computable, and variables
    // derived from them by assignments - unless the assignment runs under a decision the
    // init program cannot make (then it may or may not run).
    for (size_t before = SIZE_MAX; before != computable_.size();) {
      before = computable_.size();
      for (const Stmt* r : recon_) {
        bool inputs = true;
        ForEachOwnExpr(*r, [&](const Expr& e) { inputs = inputs && ExprComputable(&e); });
        if (inputs)
          for (int t : r->into) SetComputable(t);
      }
      MarkComputable(ir_.body, true);
    }
    // Flow-insensitive, so a read-derived variable is computable only if every value the
    // body gives it is: one assignment the init program cannot make as the body does (in
    // an EXCEPTION block, under an IF it cannot decide, of a value it cannot know) makes
    // it unknown wherever it is read, even where another assignment was computable (a
    // DECLARE default, then a FETCH in an EXCEPTION block).
    for (bool changed = true; changed;) {
      changed = false;
      std::set<int> blocked;
      CollectUncomputed(ir_.body, true, blocked);
      for (int v : blocked)
        if (taint_.read_derived().count(v) && computable_.erase(v)) changed = true;
    }
  }
  // The variables some statement of `block` gives a value the init program cannot compute.
  void CollectUncomputed(const Block& block, bool decided, std::set<int>& out) const {
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      if (s.kind == StmtKind::kAssign && (!decided || !ExprComputable(s.value.get()))) out.insert(s.target);
      if (s.kind == StmtKind::kSelectInto && recon_.count(&s) && !decided) out.insert(s.into.begin(), s.into.end());
      bool inner = decided && (s.kind != StmtKind::kExceptionBlock || HandlersOnlyRaise(s));
      for (const auto& c : s.conds) inner = inner && ExprComputable(c.get());
      if (IsLoop(s)) {
        inner = inner && ExprComputable(s.lower.get()) && ExprComputable(s.upper.get()) &&
                ExprComputable(s.step.get()) && ExprComputable(s.value.get());
        if (!inner && s.target >= 0) out.insert(s.target);
      }
      for (const auto& b : s.blocks) CollectUncomputed(b, inner, out);
      CollectUncomputed(s.else_block, inner, out);
      CollectUncomputed(s.body, inner, out);
    }
  }
  // What a write's RETURNING assigns is known only as the body runs (a data-modifying
  // WITH's rows too, however the arrays start).
  void SetComputable(int v) {
    if (!returning_targets_.contains(v)) computable_.insert(v);
  }
  void MarkComputable(const Block& block, bool decided) {
    for (const auto& sp : block) {
      const Stmt& s = *sp;
      if (s.kind == StmtKind::kAssign && decided && ExprComputable(s.value.get())) SetComputable(s.target);
      if (auto it = derived_.find(&s); decided && it != derived_.end())
        for (const Derived& d : it->second)
          if (ExprComputable(d.value.get())) SetComputable(d.target);
      // An EXCEPTION block's statements may or may not run (an error may stop the body,
      // a handler may not run): like a branch the init program cannot decide; unless its
      // handlers only raise again (then the body runs to its end, or the call fails).
      bool inner = decided && (s.kind != StmtKind::kExceptionBlock || HandlersOnlyRaise(s));
      for (const auto& c : s.conds) inner = inner && ExprComputable(c.get());
      if (IsLoop(s)) {
        inner = inner && ExprComputable(s.lower.get()) && ExprComputable(s.upper.get()) &&
                ExprComputable(s.step.get()) && ExprComputable(s.value.get());
        if (inner && s.target >= 0) SetComputable(s.target);
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

  // SELECT e1, e2 INTO x, y without FROM, whose targets the init program needs: the
  // assignments it stands for. Only the plain form; one with WHERE, grouping or LIMIT (or
  // whose outputs read its own targets) is left out, and a write keyed by its targets
  // then fails its declaration check when it runs instead of writing undeclared.
  void AssignFromTablelessSelect(const Stmt& s, Block& out) {
    const SelectPlan& q = *s.select;
    if (q.where || q.grouped || q.having || q.limit || q.offset || !q.aggregates.empty() || s.into_reads_targets) return;
    for (size_t i = 0; i < s.into.size() && i < q.outputs.size(); ++i) {
      const int target = s.into[i];
      if (!needed_.count(target) || !ExprComputable(q.outputs[i].get())) continue;
      ExprPtr value = q.outputs[i]->Clone();
      const SqlType& type = ir_.variables[target].type;
      ExprPtr coerced = value->type == type ? std::move(value) : TryCoerce(value, type, CastContext::kAssignment);
      if (!coerced) continue;
      auto n = Shell(s, StmtKind::kAssign);
      n->target = target;
      n->value = std::move(coerced);
      out.push_back(std::move(n));
    }
  }

  // INSERT ... VALUES ... RETURNING e INTO v without ON CONFLICT: e over the new row is e
  // over the row's values, so v is known as soon as they are (a serial key drawn at
  // sequencing, the parameters): the parent-then-child insert. nullopt when the statement
  // is not such an INSERT or a RETURNING item reads more than the row and variables.
  struct Derived {
    int target;
    ExprPtr value;
  };
  std::optional<std::vector<Derived>> DeriveReturning(const Stmt& s) const {
    if (s.kind != StmtKind::kInsert || s.on_conflict != OnConflict::kNone || s.into.empty() || s.query ||
        s.returning.size() != s.into.size())
      return std::nullopt;
    for (const auto& v : s.row_values)
      if (!v) return std::nullopt;
    std::vector<Derived> out;
    for (size_t i = 0; i < s.into.size(); ++i) {
      ExprPtr value = s.returning[i]->Clone();
      if (!OverRowValues(*value, s)) return std::nullopt;
      const SqlType& type = ir_.variables[s.into[i]].type;
      ExprPtr coerced = value->type == type ? std::move(value) : TryCoerce(value, type, CastContext::kAssignment);
      if (!coerced) return std::nullopt;
      out.push_back({s.into[i], std::move(coerced)});
    }
    return out;
  }
  // Rewrites the new row's columns in `e` as the INSERT's values; false if `e` reads
  // anything else than them, variables and constants.
  static bool OverRowValues(Expr& e, const Stmt& s) {
    if (e.kind == ExprKind::kSubquery || e.kind == ExprKind::kNextval) return false;
    if (e.kind == ExprKind::kSlot) {
      if (e.slot.space == SlotSpace::kVariable) return true;
      if (e.slot.space != SlotSpace::kColumn) return false;
      // Past a CHECK guard: the value the row holds when it is written at all.
      ExprPtr v = Unguarded(*s.row_values[static_cast<size_t>(e.slot.index)]).Clone();
      e = std::move(*v);
      return true;
    }
    for (auto& a : e.args)
      if (!OverRowValues(*a, s)) return false;
    return true;
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
        case StmtKind::kExceptionBlock: {
          // The body's declarations up to where an error stops it (the body fails there
          // too: the init program computes only what the body computes the same way),
          // then every handler's, since any of them may run.
          Block body = Build(s.body, false);
          Block handlers;
          for (const auto& b : s.blocks)
            for (auto& n : Build(b, false)) handlers.push_back(std::move(n));
          if (body.empty() && handlers.empty()) break;
          auto n = Shell(s, StmtKind::kExceptionBlock);
          n->body = std::move(body);
          n->else_block = std::move(handlers);
          out.push_back(std::move(n));
          break;
        }
        case StmtKind::kSelectInto:
          if (recon_.count(&s)) {
            auto n = Shell(s, StmtKind::kReconRead);
            n->target_stmt = s.id;
            out.push_back(std::move(n));
          } else if (s.access && s.access->access == Access::kReadPrefetch) {
            auto n = Shell(s, StmtKind::kDeclare);
            n->target_stmt = s.id;
            out.push_back(std::move(n));
          } else if (!s.table && !s.query && s.select) {
            AssignFromTablelessSelect(s, out);
          }
          break;
        case StmtKind::kInsert:
        case StmtKind::kUpdate:
        case StmtKind::kDelete: {
          auto n = Shell(s, StmtKind::kDeclare);
          n->target_stmt = s.id;
          out.push_back(std::move(n));
          if (auto it = derived_.find(&s); it != derived_.end())
            for (const Derived& d : it->second) {
              if (!needed_.count(d.target) || !ExprComputable(d.value.get())) continue;
              auto assign = Shell(s, StmtKind::kAssign);
              assign->target = d.target;
              assign->value = d.value->Clone();
              out.push_back(std::move(assign));
            }
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
  std::set<int> returning_targets_;  // the INTO targets of writes' RETURNING that DeriveReturning cannot derive
  std::map<const Stmt*, std::vector<Derived>> derived_;  // the INSERTs whose RETURNING it derives
  std::set<int> assigned_;
  std::set<int> set_in_init_;
  std::map<const Stmt*, std::vector<std::pair<const Stmt*, size_t>>> branches_;  // MapBranches
  int dropped_exits_ = 0;  // EXITs the init program cannot decide (see kWhile)
};

}  // namespace

void BuildInitProgram(ProcedureIr& ir, const Taint& taint) { InitBuilder(ir, taint).Run(); }

}  // namespace caracal::planner
