// The constraints of a domain (types/domain_type.h) on a value becoming one of it: what
// Func::kDomainCheck evaluates, and what bulk loads (COPY, INSERT ... SELECT between
// epochs) run on every value of a domain column.
#pragma once

#include "planner/types/datum.h"
#include "planner/types/sql_type.h"

namespace caracal::planner {

// `value` (of the base type of `type`'s domain) if it satisfies the domain: 23502
// "domain d does not allow null values", 23514 "value for domain d violates check
// constraint "c"" (a CHECK that is NULL passes). `type` without a domain: `value`.
Datum CheckDomain(const SqlType& type, Datum value);

}  // namespace caracal::planner
