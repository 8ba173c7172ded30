#include "planner/expr/domain_check.h"

#include <fmt/format.h>

#include <span>

#include "planner/expr/expr_eval.h"
#include "planner/types/domain_type.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

Datum CheckDomain(const SqlType& type, Datum value) {
  const DomainType* domain = type.domain;
  if (!domain) return value;
  if (value.is_null() && domain->not_null())
    throw SqlError(sqlstate::kNotNullViolation, fmt::format("domain {} does not allow null values", domain->name()));
  for (const DomainType::Check& check : domain->checks()) {
    EvalContext ctx;
    ctx.variables = std::span<const Datum>(&value, 1);  // VALUE
    const Datum holds = Eval(*check.expr, ctx);
    if (!holds.is_null() && !holds.as_bool())
      throw SqlError("23514",
                     fmt::format("value for domain {} violates check constraint \"{}\"", domain->name(), check.name));
  }
  return value;
}

}  // namespace caracal::planner
