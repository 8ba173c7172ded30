#include "planner/exec/trigger_ddl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "planner/binder/expr_binder.h"
#include "planner/exec/procedure_ddl.h"
#include "planner/parser/fragment_parser.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/plpgsql_parser.h"
#include "planner/parser/sql_tokens.h"
#include "planner/plan/procedure_ir.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

// PostgreSQL's trigger type bits in CreateTrigStmt (catalog/pg_trigger.h).
constexpr int kTimingBefore = 1 << 1;
constexpr int kTimingInstead = 1 << 6;
constexpr int kEventInsert = 1 << 2;
constexpr int kEventDelete = 1 << 3;
constexpr int kEventUpdate = 1 << 4;
constexpr int kEventTruncate = 1 << 5;

std::string Name(const std::vector<std::string>& parts, const char* what) {
  if (parts.size() > 2 || (parts.size() == 2 && parts[0] != "public"))
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", parts[parts.size() - 2]));
  if (parts.empty()) throw SqlError(sqlstate::kSyntaxError, fmt::format("{} name missing", what));
  return parts.back();
}

// The text of the parenthesised condition after WHEN in the CREATE TRIGGER text, and
// where it starts there.
std::pair<std::string, int> WhenText(std::string_view statement_text) {
  const std::string text(statement_text);
  const std::vector<SqlToken> tokens = ScanSql(text);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != PG_QUERY__TOKEN__WHEN || tokens[i + 1].kind != PG_QUERY__TOKEN__ASCII_40) continue;
    int depth = 0;
    for (size_t j = i + 1; j < tokens.size(); ++j) {
      if (tokens[j].kind == PG_QUERY__TOKEN__ASCII_40) ++depth;
      if (tokens[j].kind == PG_QUERY__TOKEN__ASCII_41 && --depth == 0)
        return {text.substr(static_cast<size_t>(tokens[i + 1].start + 1),
                            static_cast<size_t>(tokens[j].start - tokens[i + 1].start - 1)),
                tokens[i + 1].start + 1};
    }
  }
  throw SqlError(sqlstate::kSyntaxError, "syntax error at or near \"WHEN\"");
}

// The names a WHEN condition sees: NEW and OLD as the trigger may read them (a row
// trigger's NEW but in a DELETE trigger, OLD but in an INSERT trigger, neither in a
// statement trigger), refusing the others with PostgreSQL's messages. Its slots are
// never evaluated (the condition is only checked here).
class WhenScope final : public NameScope {
 public:
  WhenScope(const TriggerInfo& t, const TableInfo& table) : t_(t), table_(table) {}
  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override {
    if (names.size() != 2 || (names[0] != "new" && names[0] != "old")) return std::nullopt;
    const bool is_new = names[0] == "new";
    if (!t_.row)
      throw SqlError(sqlstate::kFeatureNotSupported, "statement trigger's WHEN condition cannot reference column values",
                     location);
    if (is_new && (t_.events & TriggerInfo::kDelete))
      throw SqlError(sqlstate::kInvalidObjectDefinition, "DELETE trigger's WHEN condition cannot reference NEW values", location);
    if (!is_new && (t_.events & TriggerInfo::kInsert))
      throw SqlError(sqlstate::kInvalidObjectDefinition, "INSERT trigger's WHEN condition cannot reference OLD values", location);
    const int c = table_.ColumnIndex(names[1]);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column {}.{} does not exist", names[0], names[1]), location);
    return NameBinding{Slot{SlotSpace::kVariable, c}, table_.columns[static_cast<size_t>(c)].type.WithoutDomain()};
  }

 private:
  const TriggerInfo& t_;
  const TableInfo& table_;
};

// Checks `when` (found at byte `offset` of the statement) as PostgreSQL's CreateTrigger
// does: it reads only what WhenScope lets it, and it is boolean.
void CheckWhen(const std::string& when, int offset, const TriggerInfo& t, const TableInfo& table, const Catalog& catalog) {
  WhenScope scope(t, table);
  PgParse parse = PgParse::Parse("SELECT " + when);
  const PgQuery__Node* condition = parse.statement(0)->select_stmt->target_list[0]->res_target->val;
  ExprBinder binder(&scope, &catalog);
  try {
    binder.BindCondition(condition, "WHEN");
  } catch (SqlError& e) {
    e.ShiftLocation(offset - 7);  // bound as "SELECT <when>"
    throw;
  }
}

std::string Quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// `changed` (the table with other triggers) in place of `table`, and the procedures whose
// writes reach the table bound again; if one no longer binds, the table is put back.
void ReplaceTriggers(const TableInfo& table, TableInfo changed, Catalog& catalog, engine::Engine& engine) {
  const TableInfo before = table;
  const std::string name = table.name;
  engine.RunExclusive([&] { catalog.ReplaceTableDescription(std::move(changed)); });
  try {
    ReanalyzeProceduresUsing(*catalog.FindTable(name), catalog, engine);
  } catch (const SqlError&) {
    engine.RunExclusive([&] { catalog.ReplaceTableDescription(before); });
    throw;
  }
}

}  // namespace

bool ReturnsTrigger(const PgQuery__CreateFunctionStmt* stmt) {
  const PgQuery__TypeName* rt = stmt->return_type;
  if (rt == nullptr || rt->n_names == 0 || rt->setof) return false;
  const PgQuery__Node* last = rt->names[rt->n_names - 1];
  return last->node_case == PG_QUERY__NODE__NODE_STRING && std::string_view(last->string->sval) == "trigger";
}

DdlOutcome CreateTriggerFunction(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text, Catalog& catalog,
                                 engine::Engine& engine) {
  const std::string name = Name(NameList(stmt->funcname, stmt->n_funcname), "function");
  if (stmt->is_procedure) throw SqlError(sqlstate::kInvalidFunctionDefinition, "procedures cannot have a return type");
  if (stmt->n_parameters > 0)
    throw SqlError(sqlstate::kInvalidFunctionDefinition, "trigger functions cannot have declared arguments")
        .WithHint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.")
        .WithContext(fmt::format("compilation of PL/pgSQL function \"{}\" near line 1", name));
  std::string language;
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    if (std::string_view(d->defname) == "language" && d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING)
      language = d->arg->string->sval;
  }
  if (language == "sql") throw SqlError(sqlstate::kInvalidFunctionDefinition, "SQL functions cannot return type trigger");
  if (language.empty()) throw SqlError(sqlstate::kInvalidFunctionDefinition, "no language specified");
  if (language != "plpgsql") throw SqlError(sqlstate::kUndefinedObject, fmt::format("language \"{}\" does not exist", language));
  // PL/pgSQL's syntax errors, as at PostgreSQL's CREATE.
  ParsePlpgsql(statement_text, false, std::nullopt, [&](const std::string& type) {
    return catalog.FindTable(type) != nullptr || catalog.FindComposite(type) != nullptr;
  });
  for (const auto& existing : catalog.FindProcedures(name))
    if (existing->parameter_count == 0) {
      if (!stmt->replace)
        throw SqlError(sqlstate::kDuplicateFunction, fmt::format("function \"{}\" already exists with same argument types", name));
      throw SqlError(sqlstate::kInvalidFunctionDefinition, "cannot change return type of existing function")
          .WithHint(fmt::format("Use DROP FUNCTION {}() first.", name));
    }
  const bool exists = catalog.FindTriggerFunction(name) != nullptr;
  if (exists && !stmt->replace)
    throw SqlError(sqlstate::kDuplicateFunction, fmt::format("function \"{}\" already exists with same argument types", name));
  engine.RunExclusive([&] {
    catalog.StoreTriggerFunction(TriggerFunction{name, std::string(statement_text)});
    // The procedures whose writes fire it call the old version: bind them again.
    if (exists) StoreRoutines({}, catalog);
  });
  return {"CREATE FUNCTION", {}, nullptr};
}

bool DropTriggerFunction(const std::string& name, Catalog& catalog, engine::Engine& engine) {
  if (catalog.FindTriggerFunction(name) == nullptr) return false;
  std::vector<std::string> users = catalog.TriggersExecuting(name);
  if (!users.empty()) {
    std::vector<std::string> lines;
    for (const std::string& u : users) lines.push_back(fmt::format("{} depends on function {}()", u, name));
    throw SqlError(sqlstate::kDependentObjectsStillExist,
                   fmt::format("cannot drop function {}() because other objects depend on it", name))
        .WithDetail(fmt::format("{}", fmt::join(lines, "\n")))
        .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
  }
  engine.RunExclusive([&] { catalog.RemoveTriggerFunction(name); });
  return true;
}

DdlOutcome CreateTrigger(const PgQuery__CreateTrigStmt* stmt, std::string_view statement_text, int statement_location,
                         Catalog& catalog, engine::Engine& engine) {
  if (stmt->isconstraint) throw NotSupported("CREATE CONSTRAINT TRIGGER");
  if (stmt->n_transition_rels > 0) throw NotSupported("REFERENCING (transition tables) in a trigger");
  const PgQuery__RangeVar* rv = stmt->relation;
  if (rv->schemaname && *rv->schemaname && std::string_view(rv->schemaname) != "public")
    throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", rv->schemaname));
  const std::string table_name = rv->relname;
  const TableInfo* table = catalog.FindTable(table_name);
  if (table == nullptr) {
    if (catalog.FindView(table_name)) throw NotSupported(fmt::format("a trigger on view \"{}\"", table_name));
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
  }
  if (stmt->timing & kTimingInstead)
    throw SqlError("42809", fmt::format("\"{}\" is a table", table_name)).WithDetail("Tables cannot have INSTEAD OF triggers.");
  TriggerInfo t;
  t.name = stmt->trigname;
  t.before = (stmt->timing & kTimingBefore) != 0;
  t.row = stmt->row;
  if (stmt->events & kEventInsert) t.events |= TriggerInfo::kInsert;
  if (stmt->events & kEventUpdate) t.events |= TriggerInfo::kUpdate;
  if (stmt->events & kEventDelete) t.events |= TriggerInfo::kDelete;
  if (stmt->events & kEventTruncate) {
    if (t.row) throw SqlError(sqlstate::kFeatureNotSupported, "TRUNCATE FOR EACH ROW triggers are not supported");
    throw NotSupported("a TRUNCATE trigger");
  }
  for (size_t i = 0; i < stmt->n_columns; ++i) {
    const std::string column = stmt->columns[i]->string->sval;
    if (table->ColumnIndex(column) < 0)
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" of relation \"{}\" does not exist", column, table_name));
    t.update_columns.push_back(column);
  }
  for (size_t i = 0; i < stmt->n_args; ++i) {
    const PgQuery__Node* a = stmt->args[i];
    if (a->node_case == PG_QUERY__NODE__NODE_STRING) t.args.emplace_back(a->string->sval);
    else if (a->node_case == PG_QUERY__NODE__NODE_INTEGER) t.args.push_back(std::to_string(a->integer->ival));
    else if (a->node_case == PG_QUERY__NODE__NODE_FLOAT) t.args.emplace_back(a->float_->fval);
    else throw NotSupported("this trigger argument");
  }
  const std::string function = Name(NameList(stmt->funcname, stmt->n_funcname), "function");
  if (catalog.FindTriggerFunction(function) == nullptr) {
    for (const auto& f : catalog.FindProcedures(function))
      if (f->parameter_count == 0 && f->kind == ProcedureIr::Kind::kFunction)
        throw SqlError("42P17", fmt::format("function {} must return type trigger", function));
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}() does not exist", function));
  }
  t.function = function;
  if (stmt->when_clause) {
    auto [when, offset] = WhenText(statement_text);
    t.when = when;
    CheckWhen(t.when, offset + statement_location, t, *table, catalog);
  }
  if (t.row && (t.events & (TriggerInfo::kUpdate | TriggerInfo::kDelete)) && table->HasRowIdentity())
    throw NotSupported(fmt::format("a row trigger on UPDATE or DELETE of table \"{}\", which has no primary key,", table_name))
        .WithHint("Give the table a primary key.");
  auto acts = [](ForeignKey::Action a) { return a != ForeignKey::Action::kNoAction && a != ForeignKey::Action::kRestrict; };
  for (const ForeignKey& fk : table->foreign_keys)
    if ((t.events & (TriggerInfo::kUpdate | TriggerInfo::kDelete)) && (acts(fk.on_delete) || acts(fk.on_update)))
      throw NotSupported(fmt::format("an UPDATE or DELETE trigger on table \"{}\", whose rows foreign key \"{}\" deletes or changes,", table_name,
                                     fk.name))
          .WithHint("Its ON DELETE / ON UPDATE action would change rows without firing them.");
  TableInfo changed = *table;
  auto same = std::ranges::find_if(changed.triggers, [&](const TriggerInfo& x) { return x.name == t.name; });
  if (same != changed.triggers.end()) {
    if (!stmt->replace)
      throw SqlError(sqlstate::kDuplicateObject, fmt::format("trigger \"{}\" for relation \"{}\" already exists", t.name, table_name));
    *same = std::move(t);
  } else {
    changed.triggers.push_back(std::move(t));
  }
  std::ranges::sort(changed.triggers, {}, &TriggerInfo::name);
  ReplaceTriggers(*table, std::move(changed), catalog, engine);
  return {"CREATE TRIGGER", {}, nullptr};
}

DdlOutcome DropTriggers(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  DdlOutcome out{"DROP TRIGGER", {}, nullptr};
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__Node* obj = stmt->objects[i];
    if (obj->node_case != PG_QUERY__NODE__NODE_LIST) throw NotSupported("this DROP TRIGGER");
    std::vector<std::string> parts = NameList(obj->list->items, obj->list->n_items);
    if (parts.size() < 2) throw SqlError(sqlstate::kSyntaxError, "DROP TRIGGER needs ON table");
    const std::string trigger = parts.back();
    parts.pop_back();
    const std::string table_name = Name(parts, "table");
    const TableInfo* table = catalog.FindTable(table_name);
    if (table == nullptr) {
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("relation \"{}\" does not exist, skipping", table_name));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", table_name));
    }
    TableInfo changed = *table;
    auto it = std::ranges::find_if(changed.triggers, [&](const TriggerInfo& x) { return x.name == trigger; });
    if (it == changed.triggers.end()) {
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("trigger \"{}\" for relation \"{}\" does not exist, skipping", trigger, table_name));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("trigger \"{}\" for table \"{}\" does not exist", trigger, table_name));
    }
    changed.triggers.erase(it);
    ReplaceTriggers(*table, std::move(changed), catalog, engine);
  }
  return out;
}

std::string RenameColumnInWhen(const std::string& when, const std::string& column, const std::string& new_name) {
  const std::vector<SqlToken> tokens = ScanSql(when);
  const bool plain = !new_name.empty() && !std::isdigit(static_cast<unsigned char>(new_name[0])) &&
                     std::ranges::all_of(new_name, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
  const std::string quoted = plain ? new_name : QuotedIdentifier(new_name);
  std::string out = when;
  for (size_t i = tokens.size(); i-- > 2;) {  // from the end: earlier positions stay valid
    const std::string record = TokenWord(when, tokens[i - 2]);
    if ((record == "new" || record == "old") && tokens[i - 1].kind == PG_QUERY__TOKEN__ASCII_46 &&
        TokenWord(when, tokens[i]) == column)
      out.replace(static_cast<size_t>(tokens[i].start), static_cast<size_t>(tokens[i].end - tokens[i].start), quoted);
  }
  return out;
}

std::string TriggerDefinition(const TriggerInfo& trigger, const TableInfo& table) {
  std::vector<std::string> events;
  if (trigger.events & TriggerInfo::kInsert) events.emplace_back("INSERT");
  if (trigger.events & TriggerInfo::kDelete) events.emplace_back("DELETE");
  if (trigger.events & TriggerInfo::kUpdate)
    events.push_back(trigger.update_columns.empty() ? std::string("UPDATE")
                                                    : fmt::format("UPDATE OF {}", fmt::join(trigger.update_columns, ", ")));
  std::vector<std::string> args;
  for (const std::string& a : trigger.args) args.push_back(Quoted(a));
  std::string text = fmt::format("{} {} {} ON {} FOR EACH {}", trigger.name, trigger.before ? "BEFORE" : "AFTER",
                                 fmt::join(events, " OR "), table.name, trigger.row ? "ROW" : "STATEMENT");
  if (!trigger.when.empty()) text += fmt::format(" WHEN ({})", trigger.when);
  return text + fmt::format(" EXECUTE FUNCTION {}({})", trigger.function, fmt::join(args, ", "));
}

}  // namespace caracal::planner
