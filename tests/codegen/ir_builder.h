// Test helper: builds a ProcedureIr by hand, in the shape the PL/pgSQL binder makes;
// expressions are bound from SQL text over the procedure's variables.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planner/plan/procedure_ir.h"
#include "tests/codegen/bind_helper.h"

namespace caracal::codegen::testing {

// Builds a ProcedureIr by hand; expressions are bound from SQL text over its variables.
class IrBuilder {
 public:
  IrBuilder() { ir_->name = "p"; }

  int Var(const std::string& name, planner::SqlType type, planner::VariableKind kind = planner::VariableKind::kLocal,
          bool not_null = false, const std::string& default_sql = "") {
    planner::Variable v;
    v.name = name;
    v.type = type;
    v.kind = kind;
    v.not_null = not_null;
    int slot = static_cast<int>(ir_->variables.size());
    names_.push_back({name, type, {planner::SlotSpace::kVariable, slot}});
    if (!default_sql.empty()) v.default_value = X(default_sql);
    if (kind == planner::VariableKind::kFound) ir_->found_variable = slot;
    if (kind == planner::VariableKind::kParameter) ++ir_->parameter_count;
    ir_->variables.push_back(std::move(v));
    return slot;
  }

  planner::ExprPtr X(const std::string& sql) {
    TestScope scope(names_);
    return BindExpr(sql, scope);
  }

  planner::StmtPtr Assign(int target, const std::string& sql) {
    auto s = New(planner::StmtKind::kAssign);
    s->target = target;
    s->value = X(sql);
    return s;
  }
  planner::StmtPtr If(const std::string& cond, planner::Block then_block, planner::Block else_block = {}) {
    auto s = New(planner::StmtKind::kIf);
    s->conds.push_back(X(cond));
    s->blocks.push_back(std::move(then_block));
    s->else_block = std::move(else_block);
    return s;
  }
  planner::StmtPtr For(int var, const std::string& lo, const std::string& hi, planner::Block body, bool reverse = false,
              const std::string& step = "", const std::string& label = "") {
    auto s = New(planner::StmtKind::kForRange);
    s->target = var;
    s->lower = X(lo);
    s->upper = X(hi);
    if (!step.empty()) s->step = X(step);
    s->reverse = reverse;
    s->body = std::move(body);
    s->label = label;
    return s;
  }
  planner::StmtPtr While(const std::string& cond, planner::Block body, const std::string& label = "") {
    auto s = New(planner::StmtKind::kWhile);
    if (!cond.empty()) s->conds.push_back(X(cond));
    s->body = std::move(body);
    s->label = label;
    return s;
  }
  planner::StmtPtr Exit(const std::string& when = "", const std::string& label = "", bool is_continue = false) {
    auto s = New(is_continue ? planner::StmtKind::kContinue : planner::StmtKind::kExit);
    if (!when.empty()) s->conds.push_back(X(when));
    s->label = label;
    return s;
  }
  planner::StmtPtr Raise(planner::RaiseLevel level, const std::string& format, const std::vector<std::string>& args,
                const std::string& sqlstate = "P0001") {
    auto s = New(planner::StmtKind::kRaise);
    s->level = level;
    s->message = format;
    for (const auto& a : args) s->args.push_back(X(a));
    s->sqlstate = sqlstate;
    return s;
  }
  planner::StmtPtr Return(const std::string& sql = "") {
    auto s = New(planner::StmtKind::kReturn);
    if (!sql.empty()) s->value = X(sql);
    return s;
  }
  planner::StmtPtr New(planner::StmtKind kind) {
    auto s = std::make_unique<planner::Stmt>();
    s->kind = kind;
    s->id = next_id_++;
    return s;
  }

  planner::ProcedureIr& ir() { return *ir_; }
  std::unique_ptr<planner::ProcedureIr> Take() { return std::move(ir_); }

 private:
  std::unique_ptr<planner::ProcedureIr> ir_ = std::make_unique<planner::ProcedureIr>();
  std::vector<Name> names_;
  int next_id_ = 0;
};

template <typename... S>
planner::Block Blk(S&&... stmts) {
  planner::Block b;
  (b.push_back(std::forward<S>(stmts)), ...);
  return b;
}

}  // namespace caracal::codegen::testing
