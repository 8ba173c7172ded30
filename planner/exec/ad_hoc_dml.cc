#include "planner/exec/ad_hoc_dml.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include "planner/exec/do_block.h"

#include "planner/parser/pg_nodes.h"
#include "planner/types/sql_error.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/analysis/write_set_analysis.h"

namespace caracal::planner {

std::shared_ptr<ProcedureIr> BindAdHocDml(const PgQuery__Node* stmt, std::string_view text, const Catalog& catalog) {
  if (stmt->node_case == PG_QUERY__NODE__NODE_DO_STMT) return BindDoBlock(stmt->do_stmt, text, catalog);
  auto ir = std::make_shared<ProcedureIr>();
  ir->kind = ProcedureIr::Kind::kProcedure;
  ir->source = std::string(text);
  TableStatementBinder binder(catalog, nullptr);
  std::vector<StmtPtr> stmts;
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      ir->command_tag = "INSERT";
      stmts = binder.BindInsert(stmt->insert_stmt);
      break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      ir->command_tag = "UPDATE";
      stmts.push_back(binder.BindUpdate(stmt->update_stmt));
      break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      ir->command_tag = "DELETE";
      stmts.push_back(binder.BindDelete(stmt->delete_stmt));
      break;
    default: throw SqlError(sqlstate::kInternalError, "internal error: not an INSERT, UPDATE or DELETE");
  }
  ir->name = "(" + ir->command_tag + ")";
  if (!binder.returning_columns().empty()) ir->result_columns = binder.returning_columns();
  for (StmtPtr& s : stmts) {
    s->line = 1;
    s->emit_returning = !s->returning.empty();
    ir->table_statements.push_back(s.get());
    s->id = static_cast<int>(ir->table_statements.size());
    ir->body.push_back(std::move(s));
  }
  AnalyzeProcedure(*ir, catalog);
  return ir;
}

}  // namespace caracal::planner
