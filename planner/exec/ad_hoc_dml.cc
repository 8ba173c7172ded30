#include "planner/parser/synthetic_nodes.h"
#include "planner/exec/ad_hoc_dml.h"

#include <fmt/format.h>

#include "planner/exec/foreign_key_ddl.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include "planner/exec/do_block.h"

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/analysis/write_set_analysis.h"

namespace caracal::planner {

namespace {

// The hidden variables of an ad-hoc statement bound as a loop; it has no FOUND, ROW_COUNT
// only after data-modifying WITH queries (its command tag's count), and each RETURNING
// row is a result row.
class AdHocLoopHost final : public DmlLoopHost {
 public:
  explicit AdHocLoopHost(ProcedureIr& ir) : ir_(ir) {}
  int AddVariable(std::string name, SqlType type, VariableKind kind) override {
    Variable v;
    v.name = std::move(name);
    v.type = type;
    v.kind = kind;
    ir_.variables.push_back(std::move(v));
    return static_cast<int>(ir_.variables.size()) - 1;
  }
  int FoundVariable() override { return -1; }
  int RowCountVariable() override { return ir_.row_count_variable; }
  void KeepRowCount() override {
    if (ir_.row_count_variable < 0)
      ir_.row_count_variable = AddVariable("$row_count", SqlType::Of(TypeId::kInt8), VariableKind::kRowCount);
  }
  bool AllowsReturning() const override { return true; }
  void AddTriggerRoutine(std::shared_ptr<ProcedureIr> routine) override { ir_.trigger_routines.push_back(std::move(routine)); }

 private:
  ProcedureIr& ir_;
};

// An ad-hoc statement has no names of its own; its now() is its transaction's
// timestamp, drawn at sequencing as a procedure's (so that a replay writes the same).
class AdHocScope final : public NameScope {
 public:
  explicit AdHocScope(ProcedureIr& ir) : ir_(ir) {}
  std::optional<NameBinding> Lookup(std::span<const std::string>, int) const override { return std::nullopt; }
  std::optional<Slot> NowSlot() const override { return Slot{SlotSpace::kVariable, ir_.NowVariable()}; }

 private:
  ProcedureIr& ir_;
};

// Numbers the table statements of `block` (nested ones too) and marks RETURNING as result rows.
void NumberStatements(ProcedureIr& ir, Block& block) {
  for (StmtPtr& s : block) {
    s->line = 1;
    if (s->table != nullptr || s->query != nullptr) {
      s->emit_returning = !s->returning.empty() && !s->append_returning;
      ir.table_statements.push_back(s.get());
      s->id = static_cast<int>(ir.table_statements.size());
    }
    NumberStatements(ir, s->body);
    for (Block& b : s->blocks) NumberStatements(ir, b);  // a write with triggers around it
    NumberStatements(ir, s->else_block);
  }
}

}  // namespace

std::shared_ptr<ProcedureIr> BindAdHocDml(const PgQuery__Node* stmt, std::string_view text, const Catalog& catalog) {
  if (stmt->node_case == PG_QUERY__NODE__NODE_DO_STMT) return BindDoBlock(stmt->do_stmt, text, catalog);
  auto ir = std::make_shared<ProcedureIr>();
  ir->kind = ProcedureIr::Kind::kProcedure;
  ir->source = std::string(text);
  AdHocLoopHost loops(*ir);
  AdHocScope scope(*ir);
  TableStatementBinder binder(catalog, &scope, &loops);
  std::vector<StmtPtr> stmts;
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      ir->command_tag = "INSERT";
      stmts = binder.BindInsert(stmt->insert_stmt);
      break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      ir->command_tag = "UPDATE";
      stmts = binder.BindUpdate(stmt->update_stmt);
      break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      ir->command_tag = "DELETE";
      stmts = binder.BindDelete(stmt->delete_stmt);
      break;
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      ir->command_tag = "SELECT";
      stmts = binder.BindSelectWithWrites(stmt->select_stmt, StmtKind::kReturnQuery);
      break;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT: {
      // TRUNCATE: one transaction deleting every row of each table, in order, so that
      // it is sequenced among the calls like any write (and replayed from the log).
      const PgQuery__TruncateStmt* t = stmt->truncate_stmt;
      if (t->restart_seqs) throw NotSupported("TRUNCATE ... RESTART IDENTITY");
      if (t->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) throw NotSupported("TRUNCATE ... CASCADE");
      ir->command_tag = "TRUNCATE TABLE";
      SyntheticNodes nodes;
      binder.set_fire_triggers(false);  // TRUNCATE fires no DELETE trigger, as in PostgreSQL
      std::vector<std::string> truncated;
      for (size_t i = 0; i < t->n_relations; ++i) truncated.push_back(t->relations[i]->range_var->relname);
      for (size_t i = 0; i < t->n_relations; ++i) {
        // As PostgreSQL: no foreign key may reference a table that stays filled.
        if (const TableInfo* table = catalog.FindTable(truncated[i]))
          for (const ReferencingKey& r : ReferencesFromOutside(*table, truncated))
            throw SqlError(sqlstate::kFeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint")
                .WithDetail(fmt::format("Table \"{}\" references \"{}\".", r.table->name, table->name))
                .WithHint(fmt::format("Truncate table \"{}\" at the same time, or use TRUNCATE ... CASCADE.", r.table->name));
        PgQuery__DeleteStmt* all = nodes.NewDelete();
        all->relation = t->relations[i]->range_var;
        for (StmtPtr& s : binder.BindDelete(all)) {
          s->skips_foreign_keys = true;  // TRUNCATE fires no foreign-key action
          stmts.push_back(std::move(s));
        }
      }
      break;
    }
    default: throw SqlError(sqlstate::kInternalError, "internal error: not an INSERT, UPDATE, DELETE or TRUNCATE");
  }
  ir->name = "(" + ir->command_tag + ")";
  if (!binder.returning_columns().empty()) ir->result_columns = binder.returning_columns();
  for (StmtPtr& s : stmts) ir->body.push_back(std::move(s));
  NumberStatements(*ir, ir->body);
  AnalyzeProcedure(*ir, catalog);
  return ir;
}

}  // namespace caracal::planner
