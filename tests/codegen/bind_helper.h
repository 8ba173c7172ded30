// Test helper: binds `SELECT <expr>` with the planner's ExprBinder over a scope of typed
// names (frame variables or row columns), so compiled trees are exactly what the binder
// makes.
#pragma once

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/parser/parse_tree.h"
#include "planner/binder/expr_binder.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen::testing {

struct Name {
  std::string name;
  planner::SqlType type;
  planner::Slot slot;
};

class TestScope : public planner::NameScope {
 public:
  explicit TestScope(std::vector<Name> names) : names_(std::move(names)) {}
  std::optional<planner::NameBinding> Lookup(std::span<const std::string> names, int) const override {
    if (names.size() != 1) return std::nullopt;
    for (const Name& n : names_)
      if (n.name == names[0]) return planner::NameBinding{n.slot, n.type};
    return std::nullopt;
  }
  const std::vector<Name>& names() const { return names_; }

 private:
  std::vector<Name> names_;
};

// Binds the single target of `SELECT <expr>`. Throws SqlError / planner::SyntaxError.
// Constant subexpressions are not folded, so that `1 + 2` still tests compiled addition.
inline planner::ExprPtr BindExpr(const std::string& expr, const planner::NameScope& scope) {
  planner::ParseTree tree = planner::ParseTree::Parse("SELECT " + expr);
  const PgQuery__Node* stmt = tree.statements().at(0).node;
  const PgQuery__SelectStmt* select = stmt->select_stmt;
  planner::ExprBinder binder(&scope);
  binder.FoldConstants(false);
  return binder.Bind(select->target_list[0]->res_target->val);
}

}  // namespace caracal::codegen::testing
