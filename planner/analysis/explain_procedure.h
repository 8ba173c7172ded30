// EXPLAIN PROCEDURE name: what the write-set analysis found, one row per statement that
// touches a table (plus the nextval() calls drawn at sequencing and the publish point),
// for every overload of `name`. The caracal_write_sets view (system_views.h) shows the
// write-set rows of every procedure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/result_set.h"

namespace caracal::planner {

// One analysed statement, as EXPLAIN PROCEDURE and caracal_write_sets print it.
struct WriteSetRow {
  std::optional<int> statement;  // table statement id (null for nextval / publish rows)
  int line = 0;
  std::string table;
  std::string access;     // read, read_prefetch, insert, upsert, update, delete,
                          // range_update, range_delete; nextval; publish
  std::string key_class;  // static, loop, range, dependent ("" for publish)
  std::string key_expr;
  bool apply_row_update = false;
  int weight = 0;
  std::string note;
};

std::vector<WriteSetRow> AnalysisRows(const ProcedureIr& ir);
// The access names caracal_write_sets uses (AccessInfo::Access order).
std::string AccessText(AccessInfo::Access access);
std::string KeyClassText(AccessInfo::KeyClass key_class);

// Throws SqlError 42883 if no procedure or function is called `name`.
ResultSet ExplainProcedure(const Catalog& catalog, std::string_view name);

}  // namespace caracal::planner
