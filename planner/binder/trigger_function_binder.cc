// Trigger functions (CREATE FUNCTION ... RETURNS trigger), bound for one table's rows.
//
// PostgreSQL compiles a trigger function once per table it fires on: NEW and OLD take
// that table's row type. Here the function becomes a procedure whose parameters are
// NEW's columns (in and out: the row the trigger leaves), OLD's columns and the TG_
// variables (TriggerArgument order), with one more out value that says the function
// returned NULL. RETURN NEW / OLD / NULL are lowered into assignments of those values;
// binder/row_triggers.h calls the procedure around each row a statement writes.
#include <fmt/format.h>

#include "planner/binder/coerce.h"
#include "planner/binder/plpgsql_binder.h"
#include "planner/binder/procedure_binder.h"
#include "planner/parser/fragment_parser.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

using namespace plpgsql_json;

namespace {

// PostgreSQL's limit is the stack (max_stack_depth); here a trigger function binds the
// triggers its own writes fire when it is bound, so a trigger that fires itself, through
// a write to its own table or others, would bind forever.
constexpr int kMaxTriggerDepth = 16;

ExprPtr TextEquals(int slot, const char* value) {
  auto eq = MakeExpr(ExprKind::kCompare, SqlType::Of(TypeId::kBool));
  eq->op = Op::kEq;
  eq->args.push_back(MakeSlot(Slot{SlotSpace::kVariable, slot}, SqlType::Of(TypeId::kText)));
  eq->args.push_back(MakeConst(Datum::String(value), SqlType::Of(TypeId::kText)));
  return eq;
}

std::string LowerTrimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  std::string out(b == std::string_view::npos ? std::string_view() : s.substr(b, e - b + 1));
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void ProcedureBinder::BindTriggerSignature(const PgQuery__CreateFunctionStmt* stmt, const TableInfo& table) {
  std::vector<std::string> names = NameList(stmt->funcname, stmt->n_funcname);
  ir_->name = names.back();
  ir_->kind = ProcedureIr::Kind::kProcedure;
  ir_->returns = ProcedureIr::Returns::kVoid;
  ir_->source = text_;
  ir_->trigger_table = &table;
  if (BindOptions(stmt) != "plpgsql")
    throw SqlError(sqlstate::kInvalidFunctionDefinition, "SQL functions cannot return type trigger");
  if (stmt->n_parameters > 0)
    throw SqlError(sqlstate::kInvalidFunctionDefinition, "trigger functions cannot have declared arguments")
        .WithHint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.");

  std::vector<std::pair<std::string, int>> new_fields, old_fields;
  for (const CatalogColumn& c : table.columns) {
    new_fields.emplace_back(c.name, AddVariable("new." + c.name, c.type.WithoutDomain(), VariableKind::kParameter));
  }
  for (const CatalogColumn& c : table.columns)
    old_fields.emplace_back(c.name, AddVariable("old." + c.name, c.type.WithoutDomain(), VariableKind::kParameter));
  static constexpr const char* kNames[kTriggerArgumentCount] = {"tg_op",           "tg_name",    "tg_when",
                                                                "tg_level",        "tg_table_name", "tg_table_schema",
                                                                "tg_relname",      "tg_nargs",   "tg_argv"};
  std::vector<int> tg;
  for (int a = 0; a < kTriggerArgumentCount; ++a) {
    const SqlType type = a == kTgNargs   ? SqlType::Of(TypeId::kInt4)
                         : a == kTgArgv ? SqlType::ArrayOf(SqlType::Of(TypeId::kText))
                                        : SqlType::Of(TypeId::kText);
    tg.push_back(AddVariable(kNames[a], type, VariableKind::kParameter));
  }
  ir_->parameter_count = static_cast<int>(ir_->variables.size());
  trigger_skip_ = AddVariable("$tg_skip", SqlType::Of(TypeId::kBool), VariableKind::kOutParameter);
  for (const auto& [name, slot] : new_fields) {
    ir_->out_variables.push_back(slot);
    ir_->result_columns.push_back({name, ir_->variables[static_cast<size_t>(slot)].type});
  }
  ir_->out_variables.push_back(trigger_skip_);
  ir_->result_columns.push_back({"$tg_skip", SqlType::Of(TypeId::kBool)});
  for (int i = 0; i < ir_->parameter_count; ++i) ir_->call_slots.push_back(i);
  ir_->call_slots.push_back(trigger_skip_);

  scope_.PushBlock(ir_->name);
  for (int a = 0; a < kTriggerArgumentCount; ++a) scope_.Declare(kNames[a], tg[static_cast<size_t>(a)]);
  scope_.SetLowerBound(tg[kTgArgv], 0);  // TG_ARGV[0] is the first argument
  scope_.SetRecordFields("new", std::move(new_fields));
  scope_.SetRecordFields("old", std::move(old_fields));
  // NEW is NULL in a DELETE trigger, OLD in an INSERT trigger (and both in a statement
  // trigger): to_json(NEW) is then NULL, not an object of NULLs.
  for (const auto& [record, op] : {std::pair{"new", "DELETE"}, std::pair{"old", "INSERT"}}) {
    const int flag = AddVariable(fmt::format("${}_is_null", record), SqlType::Of(TypeId::kBool), VariableKind::kLocal);
    auto is_null = MakeExpr(ExprKind::kOr, SqlType::Of(TypeId::kBool));
    is_null->args.push_back(TextEquals(tg[kTgOp], op));
    is_null->args.push_back(TextEquals(tg[kTgLevel], "STATEMENT"));
    ir_->variables[static_cast<size_t>(flag)].default_value = std::move(is_null);
    scope_.SetRecordNullFlag(record, flag);
  }
  ir_->found_variable = AddVariable("found", SqlType::Of(TypeId::kBool), VariableKind::kFound);
  scope_.Declare("found", ir_->found_variable);
  // PL/pgSQL's datums for a trigger function start with FOUND, NEW and OLD (BindBody
  // checks the numbers the JSON gives NEW and OLD).
  datum_info_.clear();
  datum_info_.push_back(DatumInfo{.slot = ir_->found_variable});
  for (const char* record : {"new", "old"}) {
    DatumInfo d{.record = record};
    for (const auto& [name, slot] : *scope_.RecordFields(record)) d.row_fields.push_back(slot);
    datum_info_.push_back(std::move(d));
  }
}

void ProcedureBinder::BindTriggerReturn(const json& st, Block& out) {
  if (!st.contains("expr")) throw SqlError(sqlstate::kSyntaxError, "missing expression at or near \";\"");
  const std::string value = LowerTrimmed(QueryOf(Get(st, "expr")));
  const int tg_op = kTgOp + 2 * static_cast<int>(trigger_table_->columns.size());
  auto assign = [&](int target, ExprPtr e) {
    auto s = NewStmt(StmtKind::kAssign, line_);
    s->target = target;
    s->value = std::move(e);
    out.push_back(std::move(s));
  };
  const std::vector<std::pair<std::string, int>>* fields = nullptr;
  if (value == "new") {
    // NEW is NULL in a DELETE trigger: returning it skips the row.
    assign(trigger_skip_, TextEquals(tg_op, "DELETE"));
  } else if (value == "old") {
    fields = scope_.RecordFields("old");
    assign(trigger_skip_, TextEquals(tg_op, "INSERT"));
  } else if (value == "null") {
    assign(trigger_skip_, MakeConst(Datum::Bool(true), SqlType::Of(TypeId::kBool)));
  } else if (const auto* record = scope_.RecordFields(value);
             record != nullptr && record->size() == trigger_table_->columns.size()) {
    fields = record;
    assign(trigger_skip_, MakeConst(Datum::Bool(false), SqlType::Of(TypeId::kBool)));
  } else {
    Unsupported("RETURN of this value in a trigger function", line_,
                "Return NEW, OLD, NULL or a record of the table's row type.");
  }
  if (fields != nullptr)
    for (size_t c = 0; c < fields->size(); ++c) {
      const SqlType& type = ir_->variables[c].type;
      const int from = (*fields)[c].second;
      assign(static_cast<int>(c), Coerce(MakeSlot(Slot{SlotSpace::kVariable, from}, ir_->variables[static_cast<size_t>(from)].type),
                                         type, CastContext::kAssignment, ir_->variables[c].name));
    }
  out.push_back(NewStmt(StmtKind::kReturn, line_));
}

std::shared_ptr<ProcedureIr> ProcedureBinder::BindTrigger(const PgQuery__CreateFunctionStmt* stmt, const TableInfo& table,
                                                          int depth) {
  trigger_table_ = &table;
  trigger_depth_ = depth;
  BindTriggerSignature(stmt, table);
  BindBody();
  return ir_;
}

std::shared_ptr<ProcedureIr> BindTriggerFunction(const TriggerFunction& function, const TableInfo& table,
                                                 const Catalog& catalog, int depth) {
  if (depth > kMaxTriggerDepth)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("triggers that fire one another more than {} deep are not supported", kMaxTriggerDepth))
        .WithDetail(fmt::format("Trigger function {}() writes a table whose triggers lead back to it.", function.name))
        .WithHint("A trigger may not fire itself, directly or through the triggers of the tables it writes.");
  PgParse parse = PgParse::Parse(function.source);
  if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT)
    throw SqlError(sqlstate::kInternalError, fmt::format("internal error: the source of {}() is not one CREATE", function.name));
  ProcedureBinder binder(catalog, parse.statement_text(0));
  try {
    return binder.BindTrigger(parse.statement(0)->create_function_stmt, table, depth);
  } catch (const nlohmann::json::exception& e) {
    throw SqlError(sqlstate::kInternalError, fmt::format("internal error: unexpected PL/pgSQL parse tree ({})", e.what()));
  }
}

}  // namespace caracal::planner
