// CallPlan: a statement that calls a user procedure - `CALL p(...)`, `SELECT f(...)`,
// `SELECT * | columns FROM f(...)` - resolved against the catalog, with its arguments evaluated
// and coerced to the parameter types. The session submits it as one transaction.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/types/value.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

struct CallPlan {
  enum class Form : uint8_t {
    kCall,         // CALL p(...): tag CALL, a row only for OUT/INOUT parameters
    kSelectValue,  // SELECT f(...): one column named f; a TABLE row prints as a record
    kSelectFrom,   // SELECT * FROM f(...): the result columns
    kDml,          // an ad-hoc INSERT / UPDATE / DELETE (ir->command_tag); rows: RETURNING
  };
  Form form = Form::kCall;
  std::shared_ptr<const ProcedureIr> ir;
  std::vector<engine::Value> args;
  std::vector<ResultColumn> columns;  // the statement's output columns
  // kSelectFrom: the result columns the statement selects, in order (SELECT a, b AS x
  // FROM f(...)); empty: all of them (SELECT *).
  std::vector<int> projection;
};

// PostgreSQL's text of one result row as a record: (1,abc,"a b",) for SELECT f(...) of
// a function returning several columns.
std::string RecordText(const std::vector<std::optional<std::string>>& fields);

}  // namespace caracal::planner
