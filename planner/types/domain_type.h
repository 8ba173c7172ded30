// DomainType: a type made by CREATE DOMAIN name AS base [DEFAULT ...] [NOT NULL]
// [CHECK (...)]. A value of a domain is a value of its base type (same Datum, same
// engine column); what the domain adds is checked wherever a value becomes one
// (Func::kDomainCheck, which the binder puts on every coercion to the domain: an
// assignment to a column, variable or parameter of the type, a cast). An expression over
// a domain value is of the base type, as in PostgreSQL.
//
// The catalog owns every DomainType for its whole life (bound plans and compiled code
// point at it) and never changes one: ALTER DOMAIN is not supported.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planner/types/sql_type.h"

namespace caracal::planner {

struct Expr;

class DomainType {
 public:
  // CHECK (expr): a boolean over the value, VALUE being frame slot 0 (SlotSpace::
  // kVariable); false (not NULL) fails with 23514.
  struct Check {
    std::string name;
    std::shared_ptr<const Expr> expr;
  };

  DomainType(std::string name, SqlType base, bool not_null, std::shared_ptr<const Expr> default_expr,
             std::vector<Check> checks)
      : name_(std::move(name)),
        base_(base),
        not_null_(not_null),
        default_expr_(std::move(default_expr)),
        checks_(std::move(checks)) {}

  const std::string& name() const { return name_; }
  // The base type with its modifiers (numeric(5,2)); never a domain.
  const SqlType& base() const { return base_; }
  bool not_null() const { return not_null_; }
  // DEFAULT, coerced to the base type; null: none (a column of the domain without a
  // default of its own takes this one).
  const std::shared_ptr<const Expr>& default_expr() const { return default_expr_; }
  const std::vector<Check>& checks() const { return checks_; }  // by name, as PostgreSQL runs them

 private:
  std::string name_;
  SqlType base_;
  bool not_null_;
  std::shared_ptr<const Expr> default_expr_;
  std::vector<Check> checks_;
};

}  // namespace caracal::planner
