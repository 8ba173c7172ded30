#include "planner/analysis/sequence_hoisting.h"

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

namespace caracal::planner {

namespace {

using Access = AccessInfo::Access;
using KeyClass = AccessInfo::KeyClass;

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
    // A query plan evaluates its expressions once per row: a nextval() in it is refused.
    ForEachOwnExpr(s, [&](Expr& e) { HoistIn(e, unconditional && !s.query, s.line); });
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

}  // namespace

void HoistSequenceCalls(ProcedureIr& ir) { SequenceHoister(ir).Run(); }

}  // namespace caracal::planner
