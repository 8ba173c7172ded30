#include "planner/plan/procedure_ir.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace caracal::planner {

namespace {

// `slot`, or a new hidden variable of `kind` made into it on first use.
int HiddenVariable(std::vector<Variable>& variables, int& slot, const char* name, TypeId type, VariableKind kind) {
  if (slot < 0) {
    Variable v;
    v.name = name;
    v.type = SqlType::Of(type);
    v.kind = kind;
    slot = static_cast<int>(variables.size());
    variables.push_back(std::move(v));
  }
  return slot;
}

}  // namespace

int ProcedureIr::NowVariable() {
  return HiddenVariable(variables, now_variable, "$now", TypeId::kTimestampTz, VariableKind::kNow);
}

int ProcedureIr::RandomSeedVariable() {
  return HiddenVariable(variables, random_seed_variable, "$random_seed", TypeId::kInt8, VariableKind::kRandomSeed);
}

std::string ProcedureIr::Signature() const { return name + "(" + ArgumentTypes() + ")"; }

const SequenceCall* ProcedureIr::SequenceCallOf(int slot) const {
  for (const auto* calls : {&sequence_calls, &live_sequence_calls})
    for (const SequenceCall& c : *calls)
      if (c.variable == slot) return &c;
  return nullptr;
}

namespace {

// format_type_be's name: no typmod ("numeric", "character varying", "integer[]").
std::string UnmodifiedTypeName(const SqlType& t) {
  if (t.is_array()) return UnmodifiedTypeName(t.Element()) + "[]";
  if (t.domain) return t.Name();  // a domain's name (its base type's modifiers are its own)
  return t.Base().Name();
}

}  // namespace

std::string ProcedureIr::ContextSignature() const {
  if (is_do_block()) return name;  // PostgreSQL: "PL/pgSQL function inline_code_block line 2 ..."
  if (trigger_table != nullptr) return name + "()";
  std::string text = name + "(";
  for (int i = 0; i < parameter_count; ++i) {
    if (i > 0) text += ',';
    text += UnmodifiedTypeName(variables[static_cast<size_t>(i)].type);
  }
  return text + ")";
}

std::string ProcedureIr::ArgumentTypes() const {
  std::string text;
  for (int i = 0; i < parameter_count; ++i) text += (i ? ", " : "") + variables[i].type.Name();
  return text;
}

StoredRoutine StoredRoutineFor(std::shared_ptr<const ProcedureIr> ir) {
  StoredRoutine r;
  r.name = ir->name;
  r.signature = ir->Signature();
  for (int i = 0; i < ir->parameter_count; ++i) r.parameter_types.push_back(ir->variables[i].type);
  r.is_procedure = ir->kind == ProcedureIr::Kind::kProcedure;
  // With the tables of the trigger functions its writes fire, which it holds bound too.
  std::function<void(const ProcedureIr&)> add = [&](const ProcedureIr& p) {
    for (const Stmt* s : p.table_statements)
      if (s->table && std::ranges::find(r.tables, s->table) == r.tables.end()) r.tables.push_back(s->table);
    for (const Stmt* s : p.table_statements)
      if (s->query)
        for (const TableInfo* t : TablesRead(*s->query))
          if (std::ranges::find(r.tables, t) == r.tables.end()) r.tables.push_back(t);
    for (const auto& routine : p.trigger_routines) add(*routine);
  };
  add(*ir);
  r.ir = std::move(ir);
  return r;
}

}  // namespace caracal::planner
