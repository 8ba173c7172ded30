// libFuzzer target over the compiler's front half: every statement of the input is parsed
// (libpg_query), and CREATE FUNCTION / PROCEDURE is bound and analysed, ad-hoc
// INSERT / UPDATE / DELETE bound, SELECT planned (joins, subqueries, CTEs... by the query
// planner) - against a fixed schema. A user error
// is a SqlError; anything else (a crash, a sanitizer report, another exception) is a bug.
//
// Built with clang by tools/fuzz.sh (CMake option CARACAL_FUZZ), which runs it for a
// bounded time from the seed corpus in tests/planner/corpus and sql/.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "planner/binder/query_binder.h"
#include "planner/binder/select_binder.h"
#include "planner/catalog/catalog.h"
#include "planner/exec/ddl.h"
#include "planner/exec/ad_hoc_dml.h"
#include "planner/parser/fragment_parser.h"
#include "planner/binder/procedure_binder.h"
#include "planner/plan/select_plan.h"
#include "planner/types/sql_error.h"
#include "planner/analysis/write_set_analysis.h"

namespace {

using namespace caracal;

constexpr const char* kSchema = R"(
  CREATE TABLE kv (k integer PRIMARY KEY, v bigint NOT NULL, note text);
  CREATE TABLE ev (grp integer, ts integer, val numeric(10,2), tag varchar(8), PRIMARY KEY (grp, ts));
  CREATE INDEX ev_tag ON ev (tag);
  CREATE TABLE person (id integer PRIMARY KEY, email text NOT NULL, born timestamp, ok boolean DEFAULT true);
  CREATE SEQUENCE s;
)";

// The database every input is bound against (created once; inputs never change it).
struct FuzzRuntime {
  FuzzRuntime() : engine(db, Options()), catalog(db) {
    planner::PgParse schema = planner::PgParse::Parse(kSchema);
    for (size_t i = 0; i < schema.size(); ++i) planner::ExecuteDdl(schema.statement(i), catalog, engine);
  }
  static engine::EngineOptions Options() {
    engine::EngineOptions o;
    o.workers = 1;
    return o;
  }
  engine::Database db;
  engine::Engine engine;
  planner::Catalog catalog;
};

void BindStatement(const PgQuery__Node* stmt, std::string_view text, const planner::Catalog& catalog) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT: {
      std::shared_ptr<planner::ProcedureIr> ir = planner::BindProcedure(stmt->create_function_stmt, text, catalog);
      planner::AnalyzeProcedure(*ir, catalog);
      return;
    }
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT: planner::BindAdHocDml(stmt, text, catalog); return;
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      if (planner::NeedsQueryPlanner(stmt->select_stmt, catalog)) planner::PlanQuery(stmt->select_stmt, catalog);
      else planner::PlanSelect(stmt->select_stmt, catalog);
      return;
    default: return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static FuzzRuntime runtime;
  std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find('\0') != std::string::npos) return 0;  // not SQL text
  try {
    planner::PgParse parse = planner::PgParse::Parse(text);
    for (size_t i = 0; i < parse.size(); ++i) {
      try {
        BindStatement(parse.statement(i), parse.statement_text(i), runtime.catalog);
      } catch (const planner::SqlError&) {
      }
    }
  } catch (const planner::SqlError&) {
  }
  return 0;
}
