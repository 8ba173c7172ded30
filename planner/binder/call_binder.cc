#include "planner/binder/call_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "planner/binder/coerce.h"
#include "planner/binder/expr_binder.h"
#include "planner/binder/json_operators.h"
#include "planner/binder/routine_resolution.h"
#include "planner/binder/type_name.h"
#include "planner/expr/expr_eval.h"
#include "planner/expr/functions.h"
#include "planner/parser/pg_nodes.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

bool IsStar(const PgQuery__Node* n) {
  if (n == nullptr || n->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return false;
  const PgQuery__Node* v = n->res_target->val;
  return v && v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && v->column_ref->n_fields == 1 &&
         v->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

// The column a target of `SELECT ... FROM f(...) [AS alias]` names (`col` or `q.col`,
// q the alias or the function), or "" if it is no plain column reference.
std::string TargetColumn(const PgQuery__Node* n, const std::string& qualifier) {
  if (n == nullptr || n->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return {};
  const PgQuery__Node* v = n->res_target->val;
  if (!v || v->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return {};
  const PgQuery__ColumnRef* ref = v->column_ref;
  for (size_t i = 0; i < ref->n_fields; ++i)
    if (ref->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING) return {};
  if (ref->n_fields == 1) return StringValue(ref->fields[0]);
  if (ref->n_fields == 2 && StringValue(ref->fields[0]) == qualifier) return StringValue(ref->fields[1]);
  return {};
}

// The function call of `SELECT * | columns FROM f(...) [AS alias]`, or null; `qualifier`:
// the name its columns may be qualified with.
const PgQuery__FuncCall* FromFunction(const PgQuery__SelectStmt* s, std::string& qualifier,
                                      std::span<PgQuery__Node* const>& column_definitions) {
  if (s->n_from_clause != 1 || s->n_target_list == 0) return nullptr;
  const PgQuery__Node* from = s->from_clause[0];
  if (from->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION) return nullptr;
  const PgQuery__RangeFunction* rf = from->range_function;
  if (rf->alias && rf->alias->n_colnames > 0) return nullptr;  // column aliases: the query planner's error
  qualifier = rf->alias && rf->alias->aliasname ? rf->alias->aliasname : "";
  if (rf->n_functions != 1 || rf->functions[0]->node_case != PG_QUERY__NODE__NODE_LIST) return nullptr;
  const PgQuery__List* pair = rf->functions[0]->list;
  if (pair->n_items < 1 || pair->items[0]->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return nullptr;
  const PgQuery__FuncCall* call = pair->items[0]->func_call;
  // AS [alias] (name type, ...): on the RangeFunction, or (ROWS FROM) beside the call.
  column_definitions = {};
  if (rf->n_coldeflist > 0) {
    column_definitions = {rf->coldeflist, rf->n_coldeflist};
  } else if (pair->n_items > 1 && pair->items[1] != nullptr && pair->items[1]->node_case == PG_QUERY__NODE__NODE_LIST) {
    const PgQuery__List* list = pair->items[1]->list;
    column_definitions = {list->items, list->n_items};
  }
  if (qualifier.empty() && call->n_funcname > 0) qualifier = StringValue(call->funcname[call->n_funcname - 1]);
  // `*` alone, or plain column references (anything else is an ordinary query's).
  if (s->n_target_list == 1 && IsStar(s->target_list[0])) return call;
  for (size_t i = 0; i < s->n_target_list; ++i)
    if (TargetColumn(s->target_list[i], qualifier).empty()) return nullptr;
  return call;
}

bool HasOtherClauses(const PgQuery__SelectStmt* s) {
  return s->where_clause || s->n_group_clause || s->having_clause || s->n_sort_clause || s->limit_count ||
         s->limit_offset || s->n_distinct_clause || s->op != PG_QUERY__SET_OPERATION__SETOP_NONE;
}

// SELECT a, b AS x FROM f(...): the result columns named, in order, as plan.projection.
void Project(CallPlan& plan, const PgQuery__SelectStmt& select, const std::string& qualifier) {
  std::vector<ResultColumn> all = std::move(plan.columns);
  plan.columns.clear();
  for (size_t i = 0; i < select.n_target_list; ++i) {
    const PgQuery__ResTarget* target = select.target_list[i]->res_target;
    const std::string name = TargetColumn(select.target_list[i], qualifier);
    auto it = std::ranges::find_if(all, [&](const ResultColumn& c) { return c.name == name; });
    if (it == all.end())
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", name), target->location);
    plan.projection.push_back(static_cast<int>(it - all.begin()));
    plan.columns.push_back(ResultColumn{target->name && *target->name ? target->name : it->name, it->type});
  }
}

// The error of a column definition list that does not match the rows of `ir`, as the
// first RETURN NEXT / RETURN QUERY would raise it in PostgreSQL (with its CONTEXT).
SqlError RecordMismatch(const ProcedureIr& ir, std::string detail) {
  const Stmt* first = nullptr;
  ForEachStmt(ir.body, [&](const Stmt& s) {
    if (!first && (s.kind == StmtKind::kReturnNext || s.kind == StmtKind::kReturnQuery)) first = &s;
  });
  const bool query = first && first->kind == StmtKind::kReturnQuery;
  SqlError e(sqlstate::kDatatypeMismatch,
             query ? "structure of query does not match function result type" : "wrong record type supplied in RETURN NEXT");
  e.WithDetail(std::move(detail));
  if (first) {
    std::string context = query ? fmt::format("SQL statement \"{}\"\n", first->sql_text) : "";
    e.WithContext(context + fmt::format("PL/pgSQL function {} line {} {}", ir.ContextSignature(), first->line, first->plpgsql_what));
  }
  return e;
}

// The columns of SELECT ... FROM f(...) AS [alias] (name type, ...) for a function
// returning SETOF record: as the list names them, which must be the types its rows have.
// PostgreSQL finds a mismatch when the function returns its first row; the shape is known
// here, so it is an error before the call (also when the call would return no row).
std::vector<ResultColumn> DefinedColumns(const ProcedureIr& ir, std::span<PgQuery__Node* const> definitions, int location,
                                        const Catalog& catalog) {
  if (!ir.returns_record) {
    const PgQuery__Node* d = definitions.empty() ? nullptr : definitions[0];
    throw SqlError(sqlstate::kSyntaxError, "a column definition list is only allowed for functions returning \"record\"",
                   d && d->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ? d->column_def->location : location);
  }
  if (definitions.empty())
    throw SqlError(sqlstate::kSyntaxError, "a column definition list is required for functions returning \"record\"", location);
  std::vector<ResultColumn> columns;
  for (const PgQuery__Node* d : definitions) {
    if (d->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF) throw NotSupported("this column definition", location);
    columns.push_back(ResultColumn{d->column_def->colname, ResolveTypeName(d->column_def->type_name, &catalog)});
  }
  if (ir.result_columns.empty()) return columns;  // it returns no row
  if (columns.size() != ir.result_columns.size())
    throw RecordMismatch(ir, fmt::format("Number of returned columns ({}) does not match expected column count ({}).",
                                         ir.result_columns.size(), columns.size()));
  for (size_t c = 0; c < columns.size(); ++c) {
    const SqlType& got = ir.result_columns[c].type;
    const SqlType& want = columns[c].type;
    // A modifier in the list must be the row's; none takes any (numeric for numeric(6,2)).
    const bool modifiers_differ = want.Name() != want.Base().Name() && !(got == want);
    if (!SameRowColumnType(got, want) || modifiers_differ)
      throw RecordMismatch(ir, fmt::format("Returned type {} does not match expected type {} in column {}.", got.Name(),
                                           want.Name(), c + 1));
  }
  return columns;
}

}  // namespace

std::optional<CallPlan> PlanCall(const PgQuery__Node* stmt, const Catalog& catalog, bool any_kind) {
  CallPlan plan;
  const PgQuery__FuncCall* call = nullptr;
  std::string column_name;
  std::string qualifier;                       // kSelectFrom: its columns' qualifier
  const PgQuery__SelectStmt* select = nullptr;  // kSelectFrom: the statement
  std::span<PgQuery__Node* const> column_definitions;  // kSelectFrom: AS (name type, ...)
  if (stmt->node_case == PG_QUERY__NODE__NODE_CALL_STMT) {
    plan.form = CallPlan::Form::kCall;
    call = stmt->call_stmt->funccall;
  } else if (stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
    const PgQuery__SelectStmt* s = stmt->select_stmt;
    if (HasOtherClauses(s)) return std::nullopt;
    if ((call = FromFunction(s, qualifier, column_definitions))) {
      plan.form = CallPlan::Form::kSelectFrom;
      select = s;
    } else if (s->n_from_clause == 0 && s->n_target_list == 1 &&
               s->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET &&
               s->target_list[0]->res_target->val &&
               s->target_list[0]->res_target->val->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
      plan.form = CallPlan::Form::kSelectValue;
      call = s->target_list[0]->res_target->val->func_call;
      if (s->target_list[0]->res_target->name && *s->target_list[0]->res_target->name)
        column_name = s->target_list[0]->res_target->name;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (call == nullptr || call->n_funcname == 0) return std::nullopt;
  std::string name = StringValue(call->funcname[call->n_funcname - 1]);
  std::vector<std::shared_ptr<const ProcedureIr>> candidates = catalog.FindProcedures(name);
  // A function created before what it uses existed fails as its body did.
  if (candidates.empty())
    if (const PendingRoutine* pending = catalog.FindPendingRoutine(name)) throw pending->error;
  // A SELECT of a builtin function (SELECT abs(-1), SELECT * FROM generate_series(1, 3)) is
  // an ordinary query.
  if (candidates.empty() && (plan.form == CallPlan::Form::kSelectValue || name == "generate_series" || name == "unnest" ||
                             IsJsonSetFunction(name)))
    return std::nullopt;

  ExprBinder binder(nullptr, &catalog);
  RoutineArgs args = BindRoutineArgs(call, binder);
  // An argument that calls a user function is an ordinary query's (which runs it).
  for (const ExprPtr& a : args.exprs)
    if (a->Contains(ExprKind::kRoutineCall)) return std::nullopt;
  if (candidates.empty() && plan.form == CallPlan::Form::kSelectFrom) {
    // SELECT * FROM f(...) of a builtin: the query planner says functions in FROM are not
    // supported; of no function at all, the error below, as PostgreSQL's.
    std::vector<SqlType> types;
    for (const auto& a : args.exprs) types.push_back(a->type);
    if (ResolveFunction(name, types)) return std::nullopt;
  }
  plan.ir = ChooseRoutine(name, candidates, args, plan.form == CallPlan::Form::kCall, any_kind, call->location);
  const ProcedureIr& ir = *plan.ir;
  const std::vector<int> slots = ArgumentSlots(ir, plan.form == CallPlan::Form::kCall);
  const std::vector<int> arranged = *Arrange(ir, slots, args);
  std::vector<ExprPtr> values = ParameterValues(ir, slots, arranged, args);
  for (int i = 0; i < ir.parameter_count; ++i)
    plan.args.push_back(DatumToValue(Eval(*values[static_cast<size_t>(i)], EvalContext{}), ir.variables[i].type));
  // OUT placeholders are converted as PostgreSQL converts them (an error is raised),
  // then dropped.
  for (size_t at = 0; at < arranged.size(); ++at) {
    const Variable& p = ir.variables[static_cast<size_t>(slots[at])];
    const int arg = arranged[at];
    if (arg < 0 || !args.exprs[static_cast<size_t>(arg)] || p.kind != VariableKind::kOutParameter) continue;
    (void)Eval(*Coerce(std::move(args.exprs[static_cast<size_t>(arg)]), p.type, CastContext::kAssignment, p.name),
               EvalContext{});
  }

  switch (plan.form) {
    case CallPlan::Form::kCall:
    case CallPlan::Form::kSelectFrom:
      if (plan.form == CallPlan::Form::kSelectFrom && (ir.returns_record || !column_definitions.empty()))
        plan.columns = DefinedColumns(ir, column_definitions, call->location, catalog);
      else
        for (const OutputColumn& c : ir.result_columns) plan.columns.push_back(ResultColumn{c.name, c.type});
      if (plan.form == CallPlan::Form::kSelectFrom && ir.returns == ProcedureIr::Returns::kScalar &&
          ir.out_variables.empty())
        plan.columns.at(0).name = qualifier;  // the function's name, or its alias
      if (plan.form == CallPlan::Form::kSelectFrom && ir.returns == ProcedureIr::Returns::kVoid)
        plan.columns = {ResultColumn{name, SqlType::Of(TypeId::kText)}};
      if (plan.form == CallPlan::Form::kSelectFrom && !(select->n_target_list == 1 && IsStar(select->target_list[0])))
        Project(plan, *select, qualifier);
      break;
    case CallPlan::Form::kSelectValue: {
      SqlType type = ir.result_columns.size() == 1 ? ir.result_columns[0].type : SqlType::Of(TypeId::kText);
      plan.columns = {ResultColumn{column_name.empty() ? name : column_name, type}};
      break;
    }
    case CallPlan::Form::kDml: break;  // ad-hoc DML is planned by ad_hoc_dml.cc
  }
  return plan;
}


}  // namespace caracal::planner
