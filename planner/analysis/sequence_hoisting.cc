#include "planner/analysis/sequence_hoisting.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "planner/analysis/abort_points.h"
#include "planner/analysis/read_taint.h"
#include "planner/analysis/statement_predicates.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

using Access = AccessInfo::Access;
using KeyClass = AccessInfo::KeyClass;

bool IsShortCircuit(const Expr& e) {
  return e.kind == ExprKind::kCase || e.kind == ExprKind::kCoalesce || e.kind == ExprKind::kAnd ||
         e.kind == ExprKind::kOr || e.kind == ExprKind::kNullIf;
}

bool ContainsReturn(const Stmt& s) {
  bool found = false;
  auto visit = [&](const Stmt& n) { found = found || n.kind == StmtKind::kReturn; };
  visit(s);
  for (const auto& b : s.blocks) ForEachStmt(b, visit);
  ForEachStmt(s.else_block, visit);
  ForEachStmt(s.body, visit);
  return found;
}

// The select list of a SELECT without FROM, WHERE, grouping or LIMIT: one row.
std::vector<ExprPtr>* SingleRowOutputs(Stmt& s) {
  if (s.select) {
    SelectPlan& q = *s.select;
    if (q.table != nullptr || q.where || !q.group_by.empty() || !q.aggregates.empty() || q.having || q.limit || q.offset)
      return nullptr;
    return &q.outputs;
  }
  if (s.query && s.query->subplans.empty() && s.query->ctes.empty()) {
    QueryNode& root = *s.query->root;
    if (root.kind == QueryNodeKind::kProject && root.children.size() == 1 &&
        root.children[0]->kind == QueryNodeKind::kResult)
      return &root.exprs;
  }
  return nullptr;
}

// Where a statement's nextval() calls can be drawn as it starts: expressions it
// evaluates exactly once each time it runs (an assignment, a single-row INSERT's
// VALUES, RAISE's parameters, RETURN [NEXT]'s value, a SELECT of one row without FROM).
template <typename F>
void ForEachOncePerRunExpr(Stmt& s, F&& fn) {
  auto one = [&](ExprPtr& e) {
    if (e) fn(*e);
  };
  switch (s.kind) {
    case StmtKind::kSelectInto:
    case StmtKind::kReturnQuery:
      if (std::vector<ExprPtr>* outputs = SingleRowOutputs(s))
        for (auto& e : *outputs) one(e);
      break;
    case StmtKind::kAssign:
    case StmtKind::kReturn:
    case StmtKind::kReturnNext: one(s.value); break;
    case StmtKind::kInsert:
      if (!s.query)
        for (auto& e : s.row_values) one(e);
      break;
    case StmtKind::kRaise:
      for (auto& e : s.args) one(e);
      break;
    default: break;
  }
}

class SequenceHoister {
 public:
  explicit SequenceHoister(ProcedureIr& ir) : ir_(ir) {}

  void Run() {
    // DECLARE defaults run first, in declaration order.
    for (size_t i = 0; i < ir_.variables.size(); ++i)
      if (ir_.variables[i].default_value) HoistIn(*ir_.variables[i].default_value, true, 0, static_cast<int>(i));
    std::string why = WhyBodyCannotDrawAtSequencing();
    if (why.empty()) {
      bool unconditional = true;
      for (auto& s : ir_.body) {
        HoistStatement(*s, unconditional);
        if (ContainsReturn(*s)) unconditional = false;
      }
      return;
    }
    ir_.serial_reason = std::move(why);
    for (auto& s : ir_.body) DrawAsStatementRuns(*s);
  }

 private:
  // Empty when every nextval() of the body runs exactly once per call, at the top level,
  // with nothing before it that can make the call fail (which would leave the sequence
  // as it was in PostgreSQL), and with a sequence name over parameters: then each is
  // drawn at sequencing. Else why not.
  std::string WhyBodyCannotDrawAtSequencing() const {
    std::string why;
    bool unconditional = true, may_fail_before = false;
    for (const Variable& v : ir_.variables)
      if (v.default_value && (MayRaise(*v.default_value) || (v.not_null && MayBeNull(*v.default_value, ir_, nullptr))))
        may_fail_before = true;
    std::function<void(const Stmt&, bool)> visit = [&](const Stmt& s, bool top) {
      ForEachOwnExpr(s, [&](const Expr& e) { Check(e, top && unconditional && !s.query, may_fail_before, s.line, why); });
      for (const auto& b : s.blocks)
        for (const auto& n : b) visit(*n, false);
      for (const auto& n : s.else_block) visit(*n, false);
      for (const auto& n : s.body) visit(*n, false);
    };
    for (const auto& s : ir_.body) {
      visit(*s, true);
      if (!why.empty()) return why;
      if (ContainsReturn(*s)) unconditional = false;
      may_fail_before = may_fail_before || StatementMayAbort(*s, ir_);
    }
    return why;
  }

  void Check(const Expr& e, bool unconditional, bool may_fail_before, int line, std::string& why) const {
    if (!why.empty()) return;
    for (const auto& a : e.args) Check(*a, unconditional && !IsShortCircuit(e), may_fail_before, line, why);
    if (e.kind != ExprKind::kNextval || !why.empty()) return;
    if (!unconditional)
      why = fmt::format("the nextval() of line {} may not run exactly once per call", line);
    else if (may_fail_before)
      why = fmt::format("the nextval() of line {} follows a statement that can make the call fail, which draws "
                        "nothing then",
                        line);
    else if (NameDependsOnVariables(e))
      why = fmt::format("the sequence name of the nextval() of line {} depends on variables", line);
  }

  bool NameDependsOnVariables(const Expr& e) const {
    for (int v : VariablesOf(e.args[0].get()))
      if (ir_.variables[v].kind != VariableKind::kParameter) return true;
    return false;
  }

  void HoistStatement(Stmt& s, bool unconditional) {
    // A query plan evaluates its expressions once per row: a nextval() in it is refused.
    ForEachOwnExpr(s, [&](Expr& e) { HoistIn(e, unconditional && !s.query, s.line, -1); });
    for (auto& b : s.blocks)
      for (auto& n : b) HoistStatement(*n, false);
    for (auto& n : s.else_block) HoistStatement(*n, false);
    for (auto& n : s.body) HoistStatement(*n, false);
  }

  void HoistIn(Expr& e, bool unconditional, int line, int local) {
    for (auto& a : e.args) HoistIn(*a, unconditional && !IsShortCircuit(e), line, local);
    if (e.kind != ExprKind::kNextval) return;
    if (!unconditional)
      throw AtLine(NotSupported("nextval() in a DECLARE default where it may not run exactly once per call")
                       .WithHint("Assign nextval() to the variable in the body instead."),
                   ir_, line);
    if (NameDependsOnVariables(e))
      throw AtLine(NotSupported("a nextval() argument in a DECLARE default that depends on variables")
                       .WithHint("The sequence name may depend only on parameters and constants; or assign "
                                 "nextval() to the variable in the body."),
                   ir_, line);
    ir_.sequence_calls.push_back(SequenceCall{std::move(e.args[0]), NewSlot(ir_.sequence_calls.size()), line, local});
    ToSlot(e, ir_.sequence_calls.back().variable);
  }

  // A serial procedure: each nextval() becomes a value its statement draws as it starts.
  void DrawAsStatementRuns(Stmt& s) {
    std::set<const Expr*> once;
    ForEachOncePerRunExpr(s, [&](Expr& e) {
      once.insert(&e);
      DrawIn(e, s, true);
    });
    ForEachOwnExpr(s, [&](Expr& e) {
      if (!once.contains(&e)) DrawIn(e, s, false);
    });
    for (auto& b : s.blocks)
      for (auto& n : b) DrawAsStatementRuns(*n);
    for (auto& n : s.else_block) DrawAsStatementRuns(*n);
    for (auto& n : s.body) DrawAsStatementRuns(*n);
  }

  void DrawIn(Expr& e, Stmt& s, bool once) {
    for (auto& a : e.args) DrawIn(*a, s, once && !IsShortCircuit(e));
    if (e.kind != ExprKind::kNextval) return;
    if (!once && ir_.command_tag == "SELECT")
      throw NotSupported("nextval() in a query that reads tables or returns more than one row")
          .WithHint("Draw the values with SELECT nextval(...) of their own, or in INSERT ... VALUES.");
    if (!once)
      throw AtLine(NotSupported("nextval() here")
                       .WithDetail(fmt::format("This procedure draws its sequence values as it runs ({}), and a "
                                               "statement draws them as it starts: only in an assignment, a "
                                               "single-row INSERT ... VALUES, RAISE or RETURN, outside CASE, "
                                               "COALESCE, NULLIF, AND and OR.",
                                               ir_.serial_reason))
                       .WithHint("Assign nextval() to a variable first, and use the variable."),
                   ir_, s.line);
    const size_t n = ir_.sequence_calls.size() + ir_.live_sequence_calls.size();
    ir_.live_sequence_calls.push_back(SequenceCall{std::move(e.args[0]), NewSlot(n), s.line});
    s.draws.push_back(static_cast<int>(ir_.live_sequence_calls.size() - 1));
    ToSlot(e, ir_.live_sequence_calls.back().variable);
  }

  int NewSlot(size_t ordinal) {
    Variable v;
    v.name = fmt::format("$nextval{}", ordinal + 1);
    v.type = SqlType::Of(TypeId::kInt8);
    v.kind = VariableKind::kSequence;
    ir_.variables.push_back(std::move(v));
    return static_cast<int>(ir_.variables.size() - 1);
  }

  // In place: access paths hold raw pointers into WHERE clauses.
  static void ToSlot(Expr& e, int slot) {
    e.kind = ExprKind::kSlot;
    e.slot = Slot{SlotSpace::kVariable, slot};
    e.args.clear();
  }

  ProcedureIr& ir_;
};

}  // namespace

void HoistSequenceCalls(ProcedureIr& ir) { SequenceHoister(ir).Run(); }

}  // namespace caracal::planner
