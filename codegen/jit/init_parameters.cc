#include "codegen/jit/init_parameters.h"

#include <algorithm>

#include "planner/plan/access_path.h"

namespace caracal::codegen {

namespace {

using planner::Expr;
using planner::ExprPtr;
using planner::Stmt;
using planner::StmtKind;

class ParameterReads {
 public:
  explicit ParameterReads(const planner::ProcedureIr& ir) : ir_(ir) {
    out_.read.assign(static_cast<size_t>(ir.parameter_count), false);
  }

  void Block(const planner::Block& block) {
    for (const planner::StmtPtr& s : block) Statement(*s);
  }

  // The DECLARE defaults, which the init program evaluates as the body does (a loop's
  // bound may be a local set from a parameter: v_n integer := array_length(p_items, 1)).
  void Defaults() {
    for (const planner::Variable& v : ir_.variables) One(v.default_value);
  }

  InitParameters Take() { return std::move(out_); }

 private:
  void Statement(const Stmt& s) {
    Exprs(s);
    for (const planner::Block& b : s.blocks) Block(b);
    Block(s.else_block);
    Block(s.body);
    const Stmt* target = ir_.TableStatement(s.target_stmt);
    if (target == nullptr) return;
    if (s.kind == StmtKind::kReconRead) Exprs(*target);
    if (s.kind == StmtKind::kDeclare) Declared(*target);
  }

  // What declaring body statement `s` evaluates (codegen/interpreter/init_statements.cc, and the
  // compiled init code's keys): its keys, an INSERT's key columns, and the new values
  // of its row where the table's index entries may need them.
  void Declared(const Stmt& s) {
    Key(s.where_key);
    Key(s.select_key);
    if (s.select) Path(s.select->access);  // a prefetch's key (ProcedureInterpreter::ReadKeyOf)
    if (s.table == nullptr) return;
    const std::vector<int>& pk = s.table->primary_key;
    auto in_key = [&](int column) { return std::find(pk.begin(), pk.end(), column) != pk.end(); };
    const bool indexed = !s.table->indexes.empty();
    if (!indexed && (!s.row_values.empty() || !s.assignments.empty())) Unindexed(*s.table);
    for (size_t c = 0; c < s.row_values.size(); ++c)
      if (indexed || in_key(static_cast<int>(c))) One(s.row_values[c]);
    for (const auto& [column, value] : s.assignments)
      if (indexed || in_key(column)) One(value);
  }

  void Unindexed(const planner::TableInfo& table) {
    auto& tables = out_.unindexed_writes;
    if (std::find(tables.begin(), tables.end(), &table) == tables.end()) tables.push_back(&table);
  }

  // Every expression of `s` itself (not of its nested blocks).
  void Exprs(const Stmt& s) {
    One(s.value);
    All(s.conds);
    One(s.lower);
    One(s.upper);
    One(s.step);
    Key(s.where_key);
    Key(s.select_key);
    One(s.filter);
    All(s.row_values);
    for (const auto& [column, value] : s.assignments) One(value);
    One(s.conflict_filter);
    All(s.returning);
    All(s.args);
    if (const planner::SelectPlan* p = s.select.get()) {
      One(p->where);
      One(p->residual);
      All(p->group_by);
      for (const planner::AggregateSpec& a : p->aggregates) {
        One(a.arg);
        One(a.filter);
      }
      One(p->having);
      All(p->outputs);
      One(p->limit);
      One(p->offset);
    }
    if (s.query) planner::ForEachQueryExpr(*s.query, [&](const Expr& e) { Walk(e); });
  }

  void Path(const planner::AccessPath& path) {
    for (const Expr* e : path.prefix) Walk(*e);
    if (path.lower) Walk(*path.lower->value);
    if (path.upper) Walk(*path.upper->value);
    for (const Expr* e : path.decided) Walk(*e);
  }

  void Key(const planner::KeyAccess& k) {
    All(k.key);
    One(k.lower);
    One(k.upper);
  }

  void All(const std::vector<ExprPtr>& exprs) {
    for (const ExprPtr& e : exprs) One(e);
  }

  void One(const ExprPtr& e) {
    if (e) Walk(*e);
  }

  void Walk(const Expr& e) {
    if (e.kind == planner::ExprKind::kSlot && e.slot.space == planner::SlotSpace::kVariable && e.slot.index >= 0 &&
        e.slot.index < ir_.parameter_count)
      out_.read[static_cast<size_t>(e.slot.index)] = true;
    for (const ExprPtr& a : e.args) One(a);
  }

  const planner::ProcedureIr& ir_;
  InitParameters out_;
};

}  // namespace

InitParameters ParametersReadByInit(const planner::ProcedureIr& ir) {
  ParameterReads reads(ir);
  reads.Defaults();
  reads.Block(ir.init);
  return reads.Take();
}

}  // namespace caracal::codegen
