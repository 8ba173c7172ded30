#include "planner/exec/procedure_ddl.h"

#include "planner/exec/trigger_ddl.h"

#include <algorithm>

#include <fmt/format.h>

#include "planner/parser/pg_nodes.h"
#include "planner/parser/fragment_parser.h"
#include "planner/binder/procedure_binder.h"
#include "planner/types/sql_error.h"
#include "planner/binder/type_name.h"
#include "planner/analysis/routine_calls.h"
#include "planner/analysis/write_set_analysis.h"

namespace caracal::planner {

namespace {

const char* KindName(ProcedureIr::Kind kind) { return kind == ProcedureIr::Kind::kProcedure ? "procedure" : "function"; }

bool SameParameterTypes(const ProcedureIr& a, const ProcedureIr& b) {
  if (a.parameter_count != b.parameter_count) return false;
  for (int i = 0; i < a.parameter_count; ++i)
    if (!(a.variables[i].type == b.variables[i].type)) return false;
  return true;
}

bool SameResult(const ProcedureIr& a, const ProcedureIr& b) {
  if (a.returns != b.returns || a.result_columns.size() != b.result_columns.size()) return false;
  for (size_t i = 0; i < a.result_columns.size(); ++i)
    if (!(a.result_columns[i].type == b.result_columns[i].type)) return false;
  return true;
}

std::string TypeList(const std::vector<SqlType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i].Name();
  return out;
}

// Errors that say something the body names does not exist (yet).
bool NamesMissingObject(const std::string& sqlstate) {
  return sqlstate == sqlstate::kUndefinedTable || sqlstate == sqlstate::kUndefinedColumn ||
         sqlstate == sqlstate::kUndefinedFunction || sqlstate == "3F000";
}

std::string Language(const PgQuery__CreateFunctionStmt* stmt) {
  for (size_t i = 0; i < stmt->n_options; ++i) {
    const PgQuery__DefElem* d = stmt->options[i]->def_elem;
    if (std::string_view(d->defname) == "language" && d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING)
      return d->arg->string->sval;
  }
  return "sql";
}

// The routine `stmt` creates, to be bound later; nullopt if even its parameter types do
// not resolve yet.
std::optional<PendingRoutine> PendingRoutineFor(const PgQuery__CreateFunctionStmt* stmt, std::string_view text,
                                                const SqlError& error, const Catalog& catalog) {
  PendingRoutine p;
  const std::vector<std::string> names = NameList(stmt->funcname, stmt->n_funcname);
  if (names.empty() || (names.size() == 2 && names[0] != "public") || names.size() > 2) return std::nullopt;
  p.name = names.back();
  try {
    for (size_t i = 0; i < stmt->n_parameters; ++i) {
      const PgQuery__FunctionParameter* param = stmt->parameters[i]->function_parameter;
      if (param->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_OUT ||
          param->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_TABLE)
        continue;
      p.parameter_types.push_back(SignatureType(ResolveTypeName(param->arg_type, &catalog)));
    }
  } catch (const SqlError&) {
    return std::nullopt;
  }
  p.source = std::string(text);
  p.is_procedure = stmt->is_procedure;
  p.error = error;
  p.error.ShiftLocation(-1);  // a place in the CREATE, not in the call that will fail
  return p;
}

bool SameTypes(const ProcedureIr& ir, const std::vector<SqlType>& types) {
  if (ir.parameter_count != static_cast<int>(types.size())) return false;
  for (size_t i = 0; i < types.size(); ++i)
    if (!(ir.variables[i].type == types[i])) return false;
  return true;
}

}  // namespace

DdlOutcome CreateProcedure(const PgQuery__CreateFunctionStmt* stmt, std::string_view statement_text,
                           int statement_location, Catalog& catalog, engine::Engine& engine,
                           bool check_function_bodies) {
  std::shared_ptr<ProcedureIr> ir;
  try {
    ir = BindProcedure(stmt, statement_text, catalog);
    AnalyzeProcedure(*ir, catalog);
  } catch (SqlError& e) {
    e.ShiftLocation(statement_location);
    // PostgreSQL checks a PL/pgSQL body's statements only as they run (and no body with
    // check_function_bodies off): a table it names may come later, as in pg_dump's
    // scripts. Such a routine waits, unbound, until what it names exists.
    const bool defer = NamesMissingObject(e.sqlstate()) && (Language(stmt) == "plpgsql" || !check_function_bodies);
    std::optional<PendingRoutine> pending = defer ? PendingRoutineFor(stmt, statement_text, e, catalog) : std::nullopt;
    if (!pending) throw;
    for (const auto& existing : catalog.FindProcedures(pending->name))
      if (SameTypes(*existing, pending->parameter_types)) {
        if (!stmt->replace)
          throw SqlError(sqlstate::kDuplicateFunction,
                         fmt::format("{} \"{}\" already exists with same argument types",
                                     stmt->is_procedure ? "procedure" : "function", pending->name));
        throw;  // a bound routine is replaced only by one that binds
      }
    if (!stmt->replace)
      for (const PendingRoutine& other : catalog.PendingRoutines())
        if (other.name == pending->name && other.parameter_types == pending->parameter_types)
          throw SqlError(sqlstate::kDuplicateFunction,
                         fmt::format("{} \"{}\" already exists with same argument types",
                                     stmt->is_procedure ? "procedure" : "function", pending->name));
    engine.RunExclusive([&] { catalog.StorePendingRoutine(std::move(*pending)); });
    return {stmt->is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION", {}, nullptr};
  }
  std::vector<SqlType> types;
  for (int i = 0; i < ir->parameter_count; ++i) types.push_back(ir->variables[i].type);
  for (const PendingRoutine& other : catalog.PendingRoutines())
    if (other.name == ir->name && other.parameter_types == types && !stmt->replace)
      throw SqlError(sqlstate::kDuplicateFunction,
                     fmt::format("{} \"{}\" already exists with same argument types", KindName(ir->kind), ir->name));
  for (const auto& existing : catalog.FindProcedures(ir->name)) {
    if (!SameParameterTypes(*existing, *ir)) continue;
    if (!stmt->replace)
      throw SqlError(sqlstate::kDuplicateFunction,
                     fmt::format("{} \"{}\" already exists with same argument types", KindName(ir->kind), ir->name));
    if (existing->kind != ir->kind)
      throw SqlError("42809", fmt::format("cannot change routine kind"))
          .WithDetail(fmt::format("\"{}\" is a {}.", existing->name, KindName(existing->kind)));
    if (!SameResult(*existing, *ir))
      throw SqlError(sqlstate::kInvalidFunctionDefinition, "cannot change return type of existing function")
          .WithHint(fmt::format("Use DROP {} {} first.", ir->kind == ProcedureIr::Kind::kProcedure ? "PROCEDURE" : "FUNCTION",
                                existing->Signature()));
  }
  std::shared_ptr<const ProcedureIr> stored = ir;
  engine.RunExclusive([&] {
    catalog.RemovePendingRoutine(ir->name, types);
    catalog.StoreProcedure(StoredRoutineFor(stored), stmt->replace);
    if (stmt->replace) StoreRoutines({}, catalog);  // its callers bind the new version
  });
  DdlOutcome out{ir->kind == ProcedureIr::Kind::kProcedure ? "CREATE PROCEDURE" : "CREATE FUNCTION", {}, nullptr};
  out.procedure = stored;
  return out;
}

namespace {

std::shared_ptr<ProcedureIr> BindFromSource(const ProcedureIr& ir, const Catalog& catalog) {
  PgParse parse = PgParse::Parse(ir.source);
  if (parse.size() != 1 || parse.statement(0)->node_case != PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT)
    throw SqlError(sqlstate::kInternalError, fmt::format("internal error: the source of {} is not one CREATE", ir.Signature()));
  std::shared_ptr<ProcedureIr> fresh = BindProcedure(parse.statement(0)->create_function_stmt, parse.statement_text(0), catalog);
  AnalyzeProcedure(*fresh, catalog);
  return fresh;
}

// Whether `ir` calls a function that the catalog now holds another version of (a
// trigger function bound into it: whose text changed, or which calls such a function).
bool CallsReplacedRoutine(const ProcedureIr& ir, const Catalog& catalog) {
  bool stale = false;
  ForEachRoutineCall(ir, [&](const Expr& call) {
    if (stale) return;
    if (call.routine->trigger_table != nullptr) {
      const TriggerFunction* current = catalog.FindTriggerFunction(call.routine->name);
      stale = current == nullptr || current->source != call.routine->source || CallsReplacedRoutine(*call.routine, catalog);
      return;
    }
    stale = true;
    for (const auto& current : catalog.FindProcedures(call.routine->name))
      if (current.get() == call.routine.get()) stale = false;
  });
  return stale;
}

// Whether a statement of `ir`, or of a trigger function its writes fire, uses one of `tables`.
bool UsesTables(const ProcedureIr& ir, std::span<const TableInfo* const> tables) {
  auto uses = [&](const Stmt* s) {
    if (s->query)
      return std::ranges::any_of(TablesRead(*s->query), [&](const TableInfo* t) { return std::ranges::find(tables, t) != tables.end(); });
    return std::ranges::find(tables, s->table) != tables.end();
  };
  if (std::ranges::any_of(ir.table_statements, uses)) return true;
  return std::ranges::any_of(ir.trigger_routines, [&](const auto& routine) { return UsesTables(*routine, tables); });
}

}  // namespace

void BindPendingRoutines(Catalog& catalog, engine::Engine& engine) {
  // One pass per level of calls between them: a caller binds once its callee has.
  for (bool progress = true; progress && !catalog.PendingRoutines().empty();) {
    progress = false;
    const std::vector<PendingRoutine> pending = catalog.PendingRoutines();
    for (const PendingRoutine& p : pending) {
      std::shared_ptr<ProcedureIr> ir;
      try {
        PgParse parse = PgParse::Parse(p.source);
        ir = BindProcedure(parse.statement(0)->create_function_stmt, parse.statement_text(0), catalog);
        AnalyzeProcedure(*ir, catalog);
      } catch (const SqlError& e) {
        // Still waiting, now for this (a call reports the latest reason).
        PendingRoutine again = p;
        again.error = e;
        again.error.ShiftLocation(-1);
        engine.RunExclusive([&] { catalog.StorePendingRoutine(std::move(again)); });
        continue;
      }
      std::shared_ptr<const ProcedureIr> stored = ir;
      engine.RunExclusive([&] {
        catalog.RemovePendingRoutine(p.name, p.parameter_types);
        catalog.StoreProcedure(StoredRoutineFor(stored), true);
      });
      progress = true;
    }
  }
}

void StoreRoutines(std::vector<std::shared_ptr<const ProcedureIr>> routines, Catalog& catalog) {
  for (std::shared_ptr<const ProcedureIr>& ir : routines) catalog.StoreProcedure(StoredRoutineFor(std::move(ir)), true);
  // Up the calls, one level per pass: a caller is bound again once every function it
  // calls is current (calls cannot form a cycle: a function binds the ones that exist).
  for (bool changed = true; changed;) {
    changed = false;
    for (const std::shared_ptr<const ProcedureIr>& ir : catalog.Procedures()) {
      if (!CallsReplacedRoutine(*ir, catalog)) continue;
      std::shared_ptr<ProcedureIr> fresh;
      try {
        fresh = BindFromSource(*ir, catalog);
      } catch (const SqlError& e) {
        throw SqlError(sqlstate::kInternalError,
                       fmt::format("internal error: {}, which calls a replaced function, cannot be compiled again: {}",
                                   ir->Signature(), e.what()));
      }
      catalog.StoreProcedure(StoredRoutineFor(std::move(fresh)), true);
      changed = true;
    }
  }
}

std::vector<std::shared_ptr<const ProcedureIr>> ReanalyzedProceduresUsing(std::span<const TableInfo* const> tables,
                                                                           const Catalog& catalog, bool skip_failing) {
  std::vector<std::shared_ptr<const ProcedureIr>> again;
  for (const std::shared_ptr<const ProcedureIr>& ir : catalog.Procedures()) {
    if (!UsesTables(*ir, tables)) continue;
    try {
      again.push_back(BindFromSource(*ir, catalog));
    } catch (const SqlError& e) {
      if (skip_failing) continue;
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("{} {} cannot be compiled again: {}", KindName(ir->kind), ir->Signature(), e.what()));
    }
  }
  return again;
}

void ReanalyzeProceduresUsing(const TableInfo& table, Catalog& catalog, engine::Engine& engine) {
  const TableInfo* tables[] = {&table};
  std::vector<std::shared_ptr<const ProcedureIr>> again = ReanalyzedProceduresUsing(tables, catalog);
  if (again.empty()) return;
  engine.RunExclusive([&] { StoreRoutines(std::move(again), catalog); });
}

DdlOutcome DropProcedures(const PgQuery__DropStmt* stmt, Catalog& catalog, engine::Engine& engine) {
  std::optional<ProcedureIr::Kind> want;
  const char* tag = "DROP ROUTINE";
  if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION) {
    want = ProcedureIr::Kind::kFunction;
    tag = "DROP FUNCTION";
  } else if (stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE) {
    want = ProcedureIr::Kind::kProcedure;
    tag = "DROP PROCEDURE";
  }
  const char* kind = want ? KindName(*want) : "routine";
  DdlOutcome out{tag, {}, nullptr};
  std::vector<std::shared_ptr<const ProcedureIr>> victims;
  std::vector<std::pair<std::string, std::vector<SqlType>>> pending_victims;
  std::vector<std::string> trigger_victims;
  // Resolve every name first, so a failing DROP drops nothing.
  for (size_t i = 0; i < stmt->n_objects; ++i) {
    const PgQuery__ObjectWithArgs* obj = stmt->objects[i]->object_with_args;
    std::vector<std::string> parts = NameList(obj->objname, obj->n_objname);
    if (parts.size() > 1 && parts[0] != "public") throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", parts[0]));
    const std::string& name = parts.back();
    std::vector<std::shared_ptr<const ProcedureIr>> candidates = catalog.FindProcedures(name);
    std::shared_ptr<const ProcedureIr> found;
    std::string shown = name;
    if (obj->args_unspecified) {
      if (candidates.size() > 1)
        throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("{} name \"{}\" is not unique", kind, name))
            .WithHint(fmt::format("Specify the argument list to select the {} unambiguously.", kind));
      if (!candidates.empty()) found = candidates[0];
    } else {
      std::vector<SqlType> types;
      for (size_t a = 0; a < obj->n_objargs; ++a) types.push_back(SignatureType(ResolveTypeName(obj->objargs[a]->type_name, &catalog)));
      shown = fmt::format("{}({})", name, TypeList(types));
      for (const auto& c : candidates) {
        if (c->parameter_count != static_cast<int>(types.size())) continue;
        bool same = true;
        for (size_t a = 0; a < types.size(); ++a) same = same && c->variables[a].type == types[a];
        if (same) found = c;
      }
    }
    if (!found && (obj->args_unspecified || obj->n_objargs == 0) && catalog.FindTriggerFunction(name)) {
      trigger_victims.push_back(name);
      continue;
    }
    if (!found) {
      // A routine still waiting to be bound goes as a bound one would.
      const PendingRoutine* waiting = nullptr;
      for (const PendingRoutine& p : catalog.PendingRoutines()) {
        if (p.name != name) continue;
        if (obj->args_unspecified) {
          waiting = &p;
          break;
        }
        std::vector<SqlType> types;
        for (size_t a = 0; a < obj->n_objargs; ++a) types.push_back(SignatureType(ResolveTypeName(obj->objargs[a]->type_name, &catalog)));
        if (types == p.parameter_types) waiting = &p;
      }
      if (waiting != nullptr) {
        pending_victims.emplace_back(waiting->name, waiting->parameter_types);
        continue;
      }
      if (stmt->missing_ok) {
        out.notices.push_back(fmt::format("{} {} does not exist, skipping", kind, shown));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedFunction, fmt::format("{} {} does not exist", kind, shown));
    }
    if (want && found->kind != *want)
      throw SqlError("42809", fmt::format("{} is not a {}", found->Signature(), kind));
    victims.push_back(found);
  }
  // A function bound into another's body cannot go (PostgreSQL resolves calls as they run
  // and would let the caller fail then; here the caller holds the function it binds).
  for (const auto& victim : victims)
    for (const auto& other : catalog.Procedures()) {
      if (std::ranges::find(victims, other) != victims.end()) continue;
      bool calls = false;
      ForEachRoutineCall(*other, [&](const Expr& call) { calls = calls || call.routine->Signature() == victim->Signature(); });
      if (calls)
        throw SqlError(sqlstate::kDependentObjectsStillExist,
                       fmt::format("cannot drop {} {} because other objects depend on it", KindName(victim->kind), victim->Signature()))
            .WithDetail(fmt::format("{} {} calls it", KindName(other->kind), other->Signature()))
            .WithHint("Drop the functions that call it first, or change it with CREATE OR REPLACE.");
    }
  for (const std::string& name : trigger_victims)
    if (!catalog.TriggersExecuting(name).empty()) DropTriggerFunction(name, catalog, engine);  // says why not
  for (const std::string& name : trigger_victims) DropTriggerFunction(name, catalog, engine);
  engine.RunExclusive([&] {
    for (const auto& [name, types] : pending_victims) catalog.RemovePendingRoutine(name, types);
    for (const auto& ir : victims) catalog.RemoveProcedure(*ir);
  });
  return out;
}

}  // namespace caracal::planner
