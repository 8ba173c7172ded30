#include "planner/binder/row_triggers.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "planner/binder/coerce.h"
#include "planner/binder/hidden_scope.h"
#include "planner/binder/procedure_binder.h"
#include "planner/binder/query_binder.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/plan/access_path.h"
#include "planner/parser/fragment_parser.h"
#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

namespace {

const SqlType kBool = SqlType::Of(TypeId::kBool);

ExprPtr Var(int slot, const SqlType& type) { return MakeSlot(Slot{SlotSpace::kVariable, slot}, type); }

StmtPtr Assign(int target, ExprPtr value) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::kAssign;
  s->target = target;
  s->value = std::move(value);
  return s;
}

ExprPtr Not(ExprPtr e) {
  auto n = MakeExpr(ExprKind::kNot, kBool);
  n->args.push_back(std::move(e));
  return n;
}

ExprPtr And(ExprPtr a, ExprPtr b) {
  if (!a) return b;
  auto n = MakeExpr(ExprKind::kAnd, kBool);
  n->args.push_back(std::move(a));
  n->args.push_back(std::move(b));
  return n;
}

StmtPtr If(ExprPtr cond, Block then, Block otherwise = {}) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::kIf;
  s->conds.push_back(std::move(cond));
  s->blocks.push_back(std::move(then));
  s->else_block = std::move(otherwise);
  return s;
}

const char* EventName(TriggerInfo::Event event) {
  switch (event) {
    case TriggerInfo::kInsert: return "INSERT";
    case TriggerInfo::kUpdate: return "UPDATE";
    case TriggerInfo::kDelete: return "DELETE";
    case TriggerInfo::kTruncate: return "TRUNCATE";
  }
  return "";
}

}  // namespace

std::vector<int> TriggerWeaver::RowVariables(const char* prefix) {
  std::vector<int> row;
  for (const CatalogColumn& c : table_.columns)
    row.push_back(host_.AddVariable(fmt::format("${}.{}", prefix, c.name), c.type.WithoutDomain(), VariableKind::kTemp));
  return row;
}

int TriggerWeaver::NewSkipVariable(Block& out) {
  const int skip = host_.AddVariable("$tg_skip", kBool, VariableKind::kTemp);
  out.push_back(Assign(skip, MakeConst(Datum::Bool(false), kBool)));
  return skip;
}

std::shared_ptr<const ProcedureIr> TriggerWeaver::Routine(const TriggerInfo& t) {
  auto it = routines_.find(t.function);
  if (it != routines_.end()) return it->second;
  const TriggerFunction* function = catalog_.FindTriggerFunction(t.function);
  if (function == nullptr)
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function {}() does not exist", t.function));
  std::shared_ptr<ProcedureIr> routine = BindTriggerFunction(*function, table_, catalog_, host_.TriggerDepth() + 1);
  host_.AddTriggerRoutine(routine);
  return routines_.emplace(t.function, std::move(routine)).first->second;
}

ExprPtr TriggerWeaver::When(const TriggerInfo& t, const std::vector<int>& new_row, const std::vector<int>& old_row) {
  if (t.when.empty()) return nullptr;
  HiddenScope scope(variables_);
  for (size_t c = 0; c < table_.columns.size(); ++c) {
    const SqlType type = table_.columns[c].type.WithoutDomain();
    if (!new_row.empty()) scope.Add("new", table_.columns[c].name, new_row[c], type);
    if (!old_row.empty()) scope.Add("old", table_.columns[c].name, old_row[c], type);
  }
  PgParse parse = PgParse::Parse("SELECT " + t.when);
  ExprBinder binder(&scope, &catalog_);
  return binder.BindCondition(parse.statement(0)->select_stmt->target_list[0]->res_target->val, "WHEN");
}

int TriggerWeaver::Call(const TriggerInfo& t, TriggerInfo::Event event, const std::vector<int>& new_row,
                        const std::vector<int>& old_row, Block& out) {
  std::shared_ptr<const ProcedureIr> routine = Routine(t);
  const SqlType text = SqlType::Of(TypeId::kText);
  auto call = MakeExpr(ExprKind::kRoutineCall, SqlType::ArrayOf(text));
  for (const std::vector<int>* row : {&new_row, &old_row})
    for (size_t c = 0; c < table_.columns.size(); ++c) {
      const SqlType& type = routine->variables[c].type;
      call->args.push_back(row->empty() ? MakeConst(Datum::Null(), type) : Var((*row)[c], type));
    }
  auto constant = [&](std::string value) { call->args.push_back(MakeConst(Datum::String(std::move(value)), text)); };
  constant(EventName(event));
  constant(t.name);
  constant(t.before ? "BEFORE" : "AFTER");
  constant(t.row ? "ROW" : "STATEMENT");
  constant(table_.name);
  constant("public");
  constant(table_.name);
  call->args.push_back(MakeConst(Datum::Int(static_cast<int64_t>(t.args.size())), SqlType::Of(TypeId::kInt4)));
  std::vector<Datum> argv;
  for (const std::string& a : t.args) argv.push_back(Datum::String(a));
  call->args.push_back(MakeConst(Datum::Array(std::move(argv)), SqlType::ArrayOf(text)));
  call->routine_name = routine->name;
  call->routine = std::move(routine);
  const int result = host_.AddVariable(fmt::format("$tg_{}", t.name), SqlType::ArrayOf(text), VariableKind::kTemp);
  out.push_back(Assign(result, std::move(call)));
  return result;
}

void TriggerWeaver::BeforeRow(TriggerInfo::Event event, const std::vector<std::string>& set, const std::vector<int>& new_row,
                              const std::vector<int>& old_row, int skip, Block& out) {
  const size_t n = table_.columns.size();
  for (const TriggerInfo& t : table_.triggers) {
    if (!t.before || !t.row || !t.FiresOn(event, set)) continue;
    Block then;
    const int result = Call(t, event, new_row, old_row, then);
    const SqlType array = SqlType::ArrayOf(SqlType::Of(TypeId::kText));
    auto element = [&](size_t k, const SqlType& type) {
      auto e = MakeExpr(ExprKind::kSubscript, type);
      e->args.push_back(Var(result, array));
      e->args.push_back(MakeConst(Datum::Int(static_cast<int64_t>(k) + 1), SqlType::Of(TypeId::kInt4)));
      return e;
    };
    // A function that ends by RETURN NULL skips the row; it may return NULL as a value too.
    auto returned_null = MakeExpr(ExprKind::kCoalesce, kBool);
    returned_null->args.push_back(element(n, kBool));
    returned_null->args.push_back(MakeConst(Datum::Bool(false), kBool));
    then.push_back(Assign(skip, std::move(returned_null)));
    Block assign_row;
    if (!new_row.empty())
      for (size_t c = 0; c < n; ++c) {
        const SqlType type = table_.columns[c].type.WithoutDomain();
        assign_row.push_back(Assign(new_row[c], element(c, type)));
      }
    then.push_back(If(Not(Var(skip, kBool)), std::move(assign_row)));
    out.push_back(If(And(When(t, new_row, old_row), Not(Var(skip, kBool))), std::move(then)));
  }
}

void TriggerWeaver::AfterRow(TriggerInfo::Event event, const std::vector<std::string>& set, const std::vector<int>& new_row,
                             const std::vector<int>& old_row, Block& out) {
  for (const TriggerInfo& t : table_.triggers) {
    if (t.before || !t.row || !t.FiresOn(event, set)) continue;
    Block call;
    Call(t, event, new_row, old_row, call);
    if (ExprPtr when = When(t, new_row, old_row)) out.push_back(If(std::move(when), std::move(call)));
    else
      for (StmtPtr& s : call) out.push_back(std::move(s));
  }
}

void TriggerWeaver::Statement(bool before, TriggerInfo::Event event, const std::vector<std::string>& set, Block& out) {
  for (const TriggerInfo& t : table_.triggers) {
    if (t.before != before || t.row || !t.FiresOn(event, set)) continue;
    Block call;
    Call(t, event, {}, {}, call);
    if (ExprPtr when = When(t, {}, {})) out.push_back(If(std::move(when), std::move(call)));
    else
      for (StmtPtr& s : call) out.push_back(std::move(s));
  }
}

StmtPtr TriggerWeaver::UnlessSkipped(int skip, Block then) {
  Block skipped;
  // The write did not happen: ROW_COUNT (and FOUND) say so, as after a write of no row.
  if (const int row_count = host_.RowCountVariable(); row_count >= 0)
    skipped.push_back(Assign(row_count, MakeConst(Datum::Int(0), SqlType::Of(TypeId::kInt8))));
  if (const int found = host_.FoundVariable(); found >= 0) skipped.push_back(Assign(found, MakeConst(Datum::Bool(false), kBool)));
  return If(Not(Var(skip, kBool)), std::move(then), std::move(skipped));
}

namespace {

// One weaver per table, so that a trigger function is bound once for all the rows of a
// statement (a multi-row VALUES list is one kInsert per row).
using Weavers = std::map<const TableInfo*, std::unique_ptr<TriggerWeaver>>;

void WeaveInserts(Block& block, const Catalog& catalog, DmlLoopHost& host, const NameScope* variables, Weavers& weavers) {
  for (size_t i = 0; i < block.size(); ++i) {
    Stmt& s = *block[i];
    WeaveInserts(s.body, catalog, host, variables, weavers);
    for (Block& b : s.blocks) WeaveInserts(b, catalog, host, variables, weavers);
    WeaveInserts(s.else_block, catalog, host, variables, weavers);
    if (s.kind != StmtKind::kInsert || s.table == nullptr) continue;
    const TableInfo& table = *s.table;
    const bool row_triggers = std::ranges::any_of(table.triggers, [](const TriggerInfo& t) {
      return t.row && t.FiresOn(TriggerInfo::kInsert);
    });
    if (!row_triggers) continue;
    if (s.on_conflict != OnConflict::kNone)
      throw NotSupported(fmt::format("INSERT ... ON CONFLICT into table \"{}\", which has triggers,", table.name))
          .WithHint("Check for the row first, then INSERT or UPDATE it.");
    std::unique_ptr<TriggerWeaver>& slot = weavers[&table];
    if (!slot) slot = std::make_unique<TriggerWeaver>(catalog, table, host, variables);
    TriggerWeaver& weaver = *slot;
    Block out;
    const std::vector<int> new_row = weaver.RowVariables("new");
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const SqlType type = table.columns[c].type.WithoutDomain();
      out.push_back(Assign(new_row[c], std::move(s.row_values[c])));
      s.row_values[c] = Coerce(Var(new_row[c], type), table.columns[c].type, CastContext::kAssignment, table.columns[c].name);
    }
    const int skip = weaver.NewSkipVariable(out);
    weaver.BeforeRow(TriggerInfo::kInsert, {}, new_row, {}, skip, out);
    Block write;
    write.push_back(std::move(block[i]));
    weaver.AfterRow(TriggerInfo::kInsert, {}, new_row, {}, write);
    out.push_back(weaver.UnlessSkipped(skip, std::move(write)));
    const size_t woven = out.size();
    block.erase(block.begin() + static_cast<std::ptrdiff_t>(i));
    block.insert(block.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(out.begin()),
                 std::make_move_iterator(out.end()));
    i += woven - 1;
  }
}

}  // namespace

void WeaveInsertTriggers(Block& block, const Catalog& catalog, DmlLoopHost& host, const NameScope* variables) {
  Weavers weavers;
  WeaveInserts(block, catalog, host, variables, weavers);
}

std::vector<StmtPtr> WithStatementTriggers(std::vector<StmtPtr> statements, TriggerInfo::Event event,
                                           const std::vector<std::string>& set, const TableInfo& table,
                                           const Catalog& catalog, DmlLoopHost* host, const NameScope* variables) {
  const bool any = std::ranges::any_of(table.triggers, [&](const TriggerInfo& t) { return !t.row && t.FiresOn(event, set); });
  if (!any) return statements;
  if (host == nullptr) throw NotSupported(fmt::format("a write of table \"{}\", which has triggers, here", table.name));
  TriggerWeaver weaver(catalog, table, *host, variables);
  std::vector<StmtPtr> out;
  weaver.Statement(true, event, set, out);
  for (StmtPtr& s : statements) out.push_back(std::move(s));
  weaver.Statement(false, event, set, out);
  return out;
}

std::vector<StmtPtr> TableStatementBinder::BindTriggeredUpsert(const PgQuery__InsertStmt* stmt) {
  const TableInfo& table = ResolveTable(stmt->relation);
  if (loops_ == nullptr) throw NotSupported(fmt::format("an INSERT into table \"{}\", which has triggers, here", table.name));
  auto refuse = [&](const char* what) {
    return NotSupported(fmt::format("INSERT ... ON CONFLICT {} into table \"{}\", which has row triggers,", what, table.name))
        .WithHint("Check for the row first, then INSERT or UPDATE it.");
  };
  if (IsDmlLoop(stmt)) refuse("from a query");
  if (table.HasRowIdentity()) refuse("without a primary key");
  std::vector<std::string> set;
  if (const PgQuery__OnConflictClause* c = stmt->on_conflict_clause)
    for (size_t i = 0; i < c->n_target_list; ++i) set.emplace_back(c->target_list[i]->res_target->name);
  const size_t n = table.columns.size();
  std::vector<StmtPtr> out;
  TriggerWeaver weaver(catalog_, table, *loops_, variables_);
  for (StmtPtr& insert : BindValuesInsert(stmt)) {
    // Only the primary key decides the conflict here: with another UNIQUE index as the
    // arbiter (or DO NOTHING on any), the row would have to be looked up by it too.
    if (!insert->conflict_index.empty() || (insert->conflict_any_index && !table.unique_indexes.empty()))
      throw refuse("on a UNIQUE index other than the primary key");
    Block row;
    const std::vector<int> new_row = weaver.RowVariables("new");
    for (size_t c = 0; c < n; ++c) row.push_back(Assign(new_row[c], std::move(insert->row_values[c])));
    const int skip = weaver.NewSkipVariable(row);
    weaver.BeforeRow(TriggerInfo::kInsert, {}, new_row, {}, skip, row);

    // The row its key names, if any: SELECT every column FROM t WHERE key = NEW's key,
    // collected (at most one row) into arrays.
    SyntheticNodes nodes;
    HiddenScope keys(variables_);
    std::vector<PgQuery__Node*> targets, equal;
    for (const CatalogColumn& c : table.columns) targets.push_back(nodes.Target(nodes.ColumnRef("", c.name)));
    for (int k : table.primary_key) {
      const CatalogColumn& c = table.columns[static_cast<size_t>(k)];
      const std::string name = fmt::format("$new.{}", c.name);
      keys.Add("", name, new_row[static_cast<size_t>(k)], c.type.WithoutDomain());
      equal.push_back(nodes.Equals(nodes.ColumnRef(table.name, c.name), nodes.ColumnRef("", name)));
    }
    PgQuery__SelectStmt* query = nodes.NewSelect();
    query->target_list = nodes.Array(targets, query->n_target_list);
    std::vector<PgQuery__Node*> from{nodes.FromItem(stmt->relation)};
    query->from_clause = nodes.Array(from, query->n_from_clause);
    query->where_clause = nodes.And(equal);
    auto read = std::make_unique<Stmt>();
    read->kind = StmtKind::kSelectInto;
    read->collect = true;
    read->query = TransactionQuery(PlanQuery(query, catalog_, {}, &keys), "in a data-changing statement");
    std::vector<int> arrays;
    for (size_t c = 0; c < n; ++c) {
      if (table.columns[c].type.is_array()) throw refuse("of a row with an array column");
      arrays.push_back(loops_->AddVariable(fmt::format("$conflict_{}", c), SqlType::ArrayOf(table.columns[c].type.WithoutDomain()),
                                           VariableKind::kTemp));
      read->into.push_back(arrays.back());
    }
    const int rows = loops_->AddVariable("$conflict_rows", SqlType::Of(TypeId::kInt4), VariableKind::kTemp);
    read->into.push_back(rows);

    Block written;
    written.push_back(std::move(read));
    // No such row: the INSERT, then its AFTER triggers.
    Block fresh;
    std::vector<ExprPtr> returning;
    for (const ExprPtr& r : insert->returning) returning.push_back(r->Clone());
    const OnConflict action = insert->on_conflict;
    std::vector<std::pair<int, ExprPtr>> assignments = std::move(insert->assignments);
    ExprPtr conflict_filter = std::move(insert->conflict_filter);
    insert->on_conflict = OnConflict::kNone;
    insert->conflict_any_index = false;
    for (size_t c = 0; c < n; ++c)
      insert->row_values[c] = Coerce(Var(new_row[c], table.columns[c].type.WithoutDomain()), table.columns[c].type,
                                     CastContext::kAssignment, table.columns[c].name);
    fresh.push_back(std::move(insert));
    weaver.AfterRow(TriggerInfo::kInsert, {}, new_row, {}, fresh);

    // A conflict: nothing, or the DO UPDATE with the UPDATE triggers around it.
    Block conflict;
    if (action == OnConflict::kDoNothing) {
      if (const int row_count = loops_->RowCountVariable(); row_count >= 0)
        conflict.push_back(Assign(row_count, MakeConst(Datum::Int(0), SqlType::Of(TypeId::kInt8))));
      if (const int found = loops_->FoundVariable(); found >= 0) conflict.push_back(Assign(found, MakeConst(Datum::Bool(false), kBool)));
    } else {
      const std::vector<int> old_row = weaver.RowVariables("old");
      for (size_t c = 0; c < n; ++c) {
        const SqlType type = table.columns[c].type.WithoutDomain();
        auto element = MakeExpr(ExprKind::kSubscript, type);
        element->args.push_back(Var(arrays[c], SqlType::ArrayOf(type)));
        element->args.push_back(MakeConst(Datum::Int(1), SqlType::Of(TypeId::kInt4)));
        conflict.push_back(Assign(old_row[c], std::move(element)));
      }
      // The SET values and the WHERE read the existing row and `excluded`: the variables.
      auto over_rows = [&](Expr& e) {
        ForEachSlot(e, [&](Slot& slot) {
          if (slot.space == SlotSpace::kColumn) slot = Slot{SlotSpace::kVariable, old_row[static_cast<size_t>(slot.index)]};
          else if (slot.space == SlotSpace::kExcluded) slot = Slot{SlotSpace::kVariable, new_row[static_cast<size_t>(slot.index)]};
        });
      };
      const std::vector<int> updated = weaver.RowVariables("upd");
      Block update;
      for (size_t c = 0; c < n; ++c)
        update.push_back(Assign(updated[c], Var(old_row[c], table.columns[c].type.WithoutDomain())));
      std::vector<int> set_columns;
      for (auto& [c, value] : assignments) {
        over_rows(*value);
        update.push_back(Assign(updated[static_cast<size_t>(c)], std::move(value)));
        set_columns.push_back(c);
      }
      const int skip_update = weaver.NewSkipVariable(update);
      Block before;
      weaver.BeforeRow(TriggerInfo::kUpdate, set, updated, old_row, skip_update, before);
      const bool changes_row = !before.empty();
      for (StmtPtr& b : before) update.push_back(std::move(b));
      auto write = std::make_unique<Stmt>();
      write->kind = StmtKind::kUpdate;
      write->table = &table;
      for (size_t c = 0; c < n; ++c) {
        const CatalogColumn& column = table.columns[c];
        const bool in_set = std::ranges::find(set_columns, static_cast<int>(c)) != set_columns.end();
        const bool key = std::ranges::find(table.primary_key, static_cast<int>(c)) != table.primary_key.end();
        if (!in_set && (!changes_row || key || column.generated)) continue;
        if (key) continue;  // ON CONFLICT DO UPDATE of a key column is refused when bound
        write->assignments.emplace_back(static_cast<int>(c), Coerce(Var(updated[c], column.type.WithoutDomain()), column.type,
                                                                   CastContext::kAssignment, column.name));
      }
      auto all = MakeExpr(ExprKind::kAnd, kBool);
      for (int k : table.primary_key) {
        const SqlType type = table.columns[static_cast<size_t>(k)].type;
        auto eq = MakeExpr(ExprKind::kCompare, kBool);
        eq->op = Op::kEq;
        eq->args.push_back(MakeSlot(Slot{SlotSpace::kColumn, k}, type));
        eq->args.push_back(Var(new_row[static_cast<size_t>(k)], type.WithoutDomain()));
        all->args.push_back(std::move(eq));
      }
      write->filter = all->args.size() == 1 ? std::move(all->args[0]) : std::move(all);
      write->where_key = KeyAccessOf(ChooseAccessPath(write->filter.get(), table));
      write->returning = std::move(returning);
      write->into = fresh.front()->kind == StmtKind::kInsert ? fresh.front()->into : std::vector<int>{};
      Block update_write;
      update_write.push_back(std::move(write));
      weaver.AfterRow(TriggerInfo::kUpdate, set, updated, old_row, update_write);
      update.push_back(weaver.UnlessSkipped(skip_update, std::move(update_write)));
      if (conflict_filter) {
        over_rows(*conflict_filter);
        conflict.push_back(If(std::move(conflict_filter), std::move(update)));
      } else {
        for (StmtPtr& u : update) conflict.push_back(std::move(u));
      }
    }
    auto none = MakeExpr(ExprKind::kCompare, kBool);
    none->op = Op::kEq;
    none->args.push_back(Var(rows, SqlType::Of(TypeId::kInt4)));
    none->args.push_back(MakeConst(Datum::Int(0), SqlType::Of(TypeId::kInt4)));
    written.push_back(If(std::move(none), std::move(fresh), std::move(conflict)));
    row.push_back(weaver.UnlessSkipped(skip, std::move(written)));
    for (StmtPtr& s : row) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace caracal::planner
