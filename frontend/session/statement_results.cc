#include "frontend/session/statement_results.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/types/errors.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::frontend {

StatementResult FailedResult(std::exception_ptr error, const std::string& text) {
  ErrorReport r;
  r.query = text;
  try {
    std::rethrow_exception(error);
  } catch (const planner::SqlError& e) {
    r = ErrorReport{"ERROR", e.sqlstate(), e.what(), e.detail(), e.hint(), e.context(), 0, text};
    if (e.location() >= 0) r.position = CharacterPosition(text, e.location());
  } catch (const engine::EngineError& e) {
    r = ErrorReport{"ERROR", e.sqlstate(), e.what(), "", "", "", 0, text};
  } catch (const std::exception& e) {
    r = ErrorReport{"ERROR", "XX000", fmt::format("internal error: {}", e.what()), "", "", "", 0, text};
  }
  StatementResult result;
  result.error = std::move(r);
  return result;
}

StatementResult CallResult(const planner::CallPlan& call, engine::TxnResult&& txn) {
  StatementResult result;
  result.notices = std::move(txn.notices);
  if (txn.status == engine::TxnResult::Status::kAborted) {
    engine::ErrorFields& f = txn.error_fields;
    result.error = ErrorReport{"ERROR", txn.sqlstate, txn.message, std::move(f.detail), std::move(f.hint),
                               std::move(f.context), 0, ""};
    return result;
  }
  const planner::ProcedureIr& ir = *call.ir;
  if (ir.is_do_block()) {
    result.tag = "DO";
  } else if (!ir.command_tag.empty()) {
    int64_t n = std::max<int64_t>(txn.row_count, 0);
    result.tag = ir.command_tag == "INSERT"           ? fmt::format("INSERT 0 {}", n)
                 : ir.command_tag == "TRUNCATE TABLE" ? ir.command_tag
                                                      : fmt::format("{} {}", ir.command_tag, n);
  }
  auto text_of = [&](const engine::Value& v, const planner::SqlType& type) -> std::optional<std::string> {
    if (v.is_null()) return std::nullopt;
    return planner::DatumToText(planner::DatumFromValue(v, type), type);
  };
  planner::ResultSet rows;
  rows.columns = call.columns;
  for (const std::vector<engine::Value>& row : txn.rows) {
    std::vector<std::optional<std::string>> fields;
    for (size_t c = 0; c < row.size() && c < ir.result_columns.size(); ++c)
      fields.push_back(text_of(row[c], ir.result_columns[c].type));
    if (call.form == planner::CallPlan::Form::kSelectValue && fields.size() > 1)
      fields = {planner::RecordText(fields)};
    if (!call.projection.empty()) {
      std::vector<std::optional<std::string>> selected;
      for (int c : call.projection) selected.push_back(static_cast<size_t>(c) < fields.size() ? fields[c] : std::nullopt);
      fields = std::move(selected);
    }
    rows.rows.push_back(std::move(fields));
  }
  // A function that returns no value (void, or a scalar function that ended without
  // RETURN is an error already) still yields one row to SELECT: an empty one. (Ad-hoc
  // DML is void too, but yields its RETURNING rows only.)
  const bool select = call.form == planner::CallPlan::Form::kSelectValue || call.form == planner::CallPlan::Form::kSelectFrom;
  if (select && ir.returns == planner::ProcedureIr::Returns::kVoid && rows.rows.empty())
    rows.rows.push_back({std::optional<std::string>("")});
  if (call.form == planner::CallPlan::Form::kDml) {
    if (!call.columns.empty()) result.rows = std::move(rows);
    return result;
  }
  if (call.form == planner::CallPlan::Form::kCall) {
    result.tag = "CALL";
    if (!rows.rows.empty()) result.rows = std::move(rows);
    return result;
  }
  result.tag = fmt::format("SELECT {}", rows.rows.size());
  result.rows = std::move(rows);
  return result;
}

}  // namespace caracal::frontend
