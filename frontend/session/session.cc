#include "frontend/session/session.h"

extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "engine/types/errors.h"
#include "frontend/session/encoding.h"
#include "planner/expr/datetime_builtins.h"
#include "planner/binder/call_binder.h"
#include "planner/binder/select_binder.h"
#include "planner/binder/table_statement_binder.h"
#include "planner/parser/parse_tree.h"
#include "frontend/session/session_replay.h"
#include "frontend/session/statement_names.h"
#include "frontend/session/statement_results.h"
#include "codegen/interpreter/explain_call.h"
#include "codegen/interpreter/interpreted_procedure.h"
#include "planner/plan/call_plan.h"
#include "planner/analysis/explain_procedure.h"
#include "planner/exec/explain_select.h"
#include "planner/exec/copy.h"
#include "planner/exec/ad_hoc_dml.h"
#include "planner/exec/ddl.h"
#include "planner/exec/sequence_setval.h"
#include "planner/exec/setting_call.h"
#include "planner/exec/sequence_value_call.h"
#include "planner/exec/select_exec.h"
#include "planner/exec/insert_select.h"
#include "planner/exec/create_table_as.h"
#include "planner/parser/pg_nodes.h"
#include "planner/parser/synthetic_nodes.h"
#include "planner/exec/query_exec.h"
#include "planner/exec/snapshot_source.h"
#include "planner/binder/query_binder.h"
#include "planner/plan/select_plan.h"
#include "planner/types/sql_error.h"
#include "planner/catalog/system_views.h"
#include "planner/exec/system_view_scan.h"

namespace caracal::frontend {

int CharacterPosition(std::string_view text, int offset) {
  int chars = 0;
  for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  return chars + 1;
}

Session::Session(SessionOptions options)
    : settings_(options.engine),
      db_(std::make_unique<engine::Database>()),
      engine_(std::make_unique<engine::Engine>(*db_, options.engine)),
      catalog_(std::make_unique<planner::Catalog>(*db_)),
      procedures_(std::make_unique<codegen::CompiledProcedureCache>(*catalog_)) {
  if (options.durability) {
    replayer_ = std::make_unique<Replayer>(*this, std::move(options.native_procedures));
    const engine::DurabilityOptions& d = *options.durability;
    settings_.SetInitial("caracal.data_directory", d.data_dir.string());
    settings_.SetInitial("caracal.synchronous_commit", d.synchronous_commit ? "on" : "off");
    settings_.SetInitial("caracal.checkpoint_interval_s", std::to_string(std::llround(d.checkpoint_interval_s)));
    settings_.SetInitial("caracal.checkpoint_log_mb", std::to_string(d.checkpoint_log_bytes >> 20));
    durable_ = std::make_unique<engine::DurableStore>(std::move(*options.durability), *engine_, *replayer_);
    catalog_->set_durability_status([store = durable_.get()] { return store->Stats(); });
  }
}

Session::~Session() {
  // Everything in flight is released (after its log record is durable) before the log
  // closes; the engine's threads stop before the database and procedures go away.
  engine_->Drain();
  durable_.reset();
  engine_.reset();
}

const engine::Procedure* Session::FindProcedure(std::string_view name) {
  std::vector<std::shared_ptr<const planner::ProcedureIr>> found = catalog_->FindProcedures(name);
  return found.empty() ? nullptr : &procedures_->Get(found.front());
}

planner::TableRowEstimator Session::TableEstimator() {
  return [db = db_.get()](const planner::TableInfo& table) { return db->table(table.id).ApproximateRows(); };
}

StatementResult Session::RunStatement(const planner::ParsedStatement& parsed, bool compile_now) {
  const PgQuery__Node* stmt = parsed.node;
  StatementResult result;
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT: {
      if (planner::IsSetvalSelect(stmt)) {
        // Between epochs and, with a data directory, logged as DDL is (replay runs it again).
        std::unique_lock<std::mutex> changes;
        if (durable_) changes = durable_->LockChanges();
        result.rows = planner::RunSetval(stmt->select_stmt, *catalog_, *engine_,
                                         [this](const PgQuery__SelectStmt* q) { return RunQueryNow(q); });
        if (durable_) durable_->LogDdl(parsed.text);
        result.tag = fmt::format("SELECT {}", result.rows->rows.size());
        return result;
      }
      if (stmt->select_stmt->into_clause) {
        // SELECT ... INTO name: CREATE TABLE name AS the same SELECT.
        PgQuery__SelectStmt query = *stmt->select_stmt;
        query.into_clause = nullptr;
        return RunCreateTableAs(&query, stmt->select_stmt->into_clause, false);
      }
      result.rows = RunQueryNow(stmt->select_stmt);
      result.tag = fmt::format("SELECT {}", result.rows->rows.size());
      return result;
    }
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT: {
      planner::CheckExplainOptions(stmt->explain_stmt);
      const PgQuery__Node* query = stmt->explain_stmt->query;
      if (query->node_case == PG_QUERY__NODE__NODE_INSERT_STMT && planner::IsInsertSelect(query->insert_stmt, *catalog_)) {
        result.rows = planner::ExplainInsertSelect(query->insert_stmt, *catalog_, TableEstimator());
      } else if (query->node_case == PG_QUERY__NODE__NODE_INSERT_STMT || query->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
          query->node_case == PG_QUERY__NODE__NODE_DELETE_STMT) {
        // An ad-hoc write runs as a one-statement procedure: what its call would declare.
        result.rows = codegen::ExplainCall(planner::BindAdHocDml(query, parsed.text, *catalog_), *catalog_, *db_, {});
      } else {
        result.rows = planner::ExplainQuery(query, *catalog_, TableEstimator());
      }
      result.tag = "EXPLAIN";
      return result;
    }
    case PG_QUERY__NODE__NODE_COPY_STMT: {
      if (!stmt->copy_stmt->is_from) {
        planner::CopyOutput out = planner::CopyTo(stmt->copy_stmt, *catalog_, *db_, TableEstimator());
        if (out.to_client) result.copy_out = std::move(out.data);
        result.tag = fmt::format("COPY {}", out.rows);
        return result;
      }
      if (!durable_) {
        result.tag = fmt::format("COPY {}", planner::CopyFrom(stmt->copy_stmt, *catalog_, *engine_, copy_progress_, copy_input_));
        return result;
      }
      // The rows are logged as they are loaded, and the load closed as one unit.
      std::unique_lock changes = durable_->LockChanges();
      durable_->BeginLoad();
      int64_t n = 0;
      try {
        n = planner::CopyFrom(stmt->copy_stmt, *catalog_, *engine_, copy_progress_, copy_input_);
      } catch (...) {
        durable_->EndLoad();  // logs whatever was loaded (nothing, for a COPY that failed its checks)
        throw;
      }
      durable_->EndLoad();
      result.tag = fmt::format("COPY {}", n);
      return result;
    }
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      // INSERT ... SELECT (StartStatement sends the others to the engine).
      result.tag = fmt::format("INSERT 0 {}", LoadInsertSelect(stmt->insert_stmt));
      return result;
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT: {
      const PgQuery__CreateTableAsStmt* c = stmt->create_table_as_stmt;
      if (c->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) throw planner::NotSupported("CREATE MATERIALIZED VIEW");
      if (c->query == nullptr || c->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        throw planner::NotSupported("CREATE TABLE AS EXECUTE");
      return RunCreateTableAs(c->query->select_stmt, c->into, c->if_not_exists);
    }
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:  // StartStatement runs them, with the client's block
      throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: transaction control outside StartStatement");
    case PG_QUERY__NODE__NODE_LOCK_STMT:  // inside a block it is accepted (session_blocks.cc)
      throw planner::SqlError(planner::sqlstate::kNoActiveSqlTransaction, "LOCK TABLE can only be used in transaction blocks");
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      if (durable_)
        durable_->Checkpoint();
      else
        result.notices.push_back("the database is in memory (no data directory): there is nothing to checkpoint");
      result.tag = "CHECKPOINT";
      return result;
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: return RunSetting(stmt);
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT: {
      // PL/pgSQL is built in, as it is installed in every PostgreSQL database (pg_dump
      // scripts and migrations create it IF NOT EXISTS). The functions of uuid-ossp and
      // pgcrypto that this database has are always there, so creating those succeeds.
      const PgQuery__CreateExtensionStmt* x = stmt->create_extension_stmt;
      const std::string name = x->extname ? x->extname : "";
      if (name == "uuid-ossp" || name == "pgcrypto") {
        result.tag = "CREATE EXTENSION";
        return result;
      }
      if (name != "plpgsql")
        throw planner::SqlError(planner::sqlstate::kFeatureNotSupported, fmt::format("extension \"{}\" is not available", name))
            .WithHint("plpgsql is built in; the functions of uuid-ossp and pgcrypto that exist here need no extension.");
      if (!x->if_not_exists)
        throw planner::SqlError("42710", fmt::format("extension \"{}\" already exists", name));
      result.notices.push_back(fmt::format("extension \"{}\" already exists, skipping", name));
      result.tag = "CREATE EXTENSION";
      return result;
    }
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT: {
      // Every table lives in schema public, which always exists (schema scripts create it
      // IF NOT EXISTS); other schemas are not supported yet.
      const PgQuery__CreateSchemaStmt* x = stmt->create_schema_stmt;
      const std::string name = x->schemaname ? x->schemaname : "";
      if (name != "public" && name != "pg_catalog")
        throw planner::SqlError(planner::sqlstate::kFeatureNotSupported, "CREATE SCHEMA is not supported yet")
            .WithHint("Tables live in schema public here.");
      if (!x->if_not_exists || x->n_schema_elts > 0)
        throw planner::SqlError("42P06", fmt::format("schema \"{}\" already exists", name));
      result.notices.push_back(fmt::format("schema \"{}\" already exists, skipping", name));
      result.tag = "CREATE SCHEMA";
      return result;
    }
    case PG_QUERY__NODE__NODE_VACUUM_STMT: {
      // Nothing to reclaim or measure by hand: garbage collection runs with the epochs,
      // and plans use the tables' live sizes. The tables named must exist.
      const PgQuery__VacuumStmt* v = stmt->vacuum_stmt;
      for (size_t i = 0; i < v->n_rels; ++i) {
        const PgQuery__RangeVar* rv = v->rels[i]->vacuum_relation->relation;
        if (!catalog_->FindTable(rv->relname))
          throw planner::SqlError(planner::sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", rv->relname));
      }
      result.tag = v->is_vacuumcmd ? "VACUUM" : "ANALYZE";
      return result;
    }
    default: break;
  }
  if (planner::IsDdl(stmt)) {
    // The background compiler reads the catalog entries (tables, indexes) of the
    // procedures it recompiles: let it finish before DDL changes or frees any.
    if (stmt->node_case != PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT) procedures_->WaitForReoptimization();
    // Run and logged under one lock, so a checkpoint sees both or neither.
    std::unique_lock<std::mutex> changes;
    if (durable_) changes = durable_->LockChanges();
    // Replay (compile_now false) repeats only what succeeded, whatever the setting was.
    const planner::DdlOptions options{compile_now && settings_.GetBool("check_function_bodies")};
    planner::DdlOutcome outcome = planner::ExecuteDdl(stmt, *catalog_, *engine_, parsed.text, parsed.location, options);
    if (durable_) durable_->LogDdl(parsed.text);
    // Compile a new procedure now, not on its first call.
    if (outcome.procedure && compile_now) procedures_->Get(outcome.procedure);
    result.tag = outcome.tag;
    result.notices = std::move(outcome.notices);
    return result;
  }
  throw planner::SqlError(planner::sqlstate::kFeatureNotSupported,
                          fmt::format("{} is not supported yet", StatementName(stmt)));
}

int64_t Session::LoadInsertSelect(const PgQuery__InsertStmt* insert) {
  // Read and loaded between epochs; with a data directory its rows are logged as one
  // load, as COPY's.
  auto run = [&] { return planner::InsertSelect(insert, *catalog_, *engine_, TableEstimator()); };
  if (!durable_) return run();
  std::unique_lock changes = durable_->LockChanges();
  durable_->BeginLoad();
  int64_t n = 0;
  try {
    n = run();
  } catch (...) {
    durable_->EndLoad();
    throw;
  }
  durable_->EndLoad();
  return n;
}

StatementResult Session::RunCreateTableAs(const PgQuery__SelectStmt* query, const PgQuery__IntoClause* into,
                                          bool if_not_exists) {
  StatementResult result;
  const std::string name = into->rel->relname;
  if (if_not_exists && catalog_->RelationExists(name)) {
    result.notices.push_back(fmt::format("relation \"{}\" already exists, skipping", name));
    result.tag = "CREATE TABLE AS";
    return result;
  }
  // The table, as the CREATE TABLE it amounts to (so the log and checkpoints keep that).
  planner::ParseTree definition = planner::ParseTree::Parse(planner::CreateTableAsDefinition(query, into, *catalog_, TableEstimator()));
  try {
    RunStatement(definition.statements().at(0));
  } catch (planner::SqlError& e) {
    e.ShiftLocation(-1);  // a place in the CREATE TABLE made here, not in the user's text
    if (e.sqlstate() == planner::sqlstate::kFeatureNotSupported && e.hint().empty())
      e.WithHint("Cast the query's column to a type a table can hold.");
    throw;
  }
  if (into->skip_data) {
    result.tag = "CREATE TABLE AS";
    return result;
  }
  planner::SyntheticNodes nodes;
  PgQuery__InsertStmt* insert = nodes.NewInsert();
  insert->relation = into->rel;
  insert->select_stmt = nodes.SelectNode(nodes.Copy(*query));
  int64_t n = 0;
  try {
    n = LoadInsertSelect(insert);
  } catch (...) {
    // All or nothing, as PostgreSQL's: a query that fails while it runs leaves no table.
    planner::ParseTree drop = planner::ParseTree::Parse("DROP TABLE " + planner::QuotedIdentifier(name));
    RunStatement(drop.statements().at(0));
    throw;
  }
  result.tag = fmt::format("SELECT {}", n);
  return result;
}

StatementResult Session::RunSetting(const PgQuery__Node* stmt, bool in_block) {
  StatementResult result;
  if (stmt->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
    result.rows = ExecuteShow(stmt->variable_show_stmt, settings_);
    result.tag = "SHOW";
    return result;
  }
  const SettingsSnapshot before = TakeSettingsSnapshot();
  SetOutcome outcome = ExecuteSet(stmt->variable_set_stmt, settings_, in_block);
  result.tag = outcome.tag;
  for (std::string& w : outcome.warnings) result.notices.push_back("WARNING:" + w);
  ApplySettings(before);
  return result;
}

Session::SettingsSnapshot Session::TakeSettingsSnapshot() const {
  return {settings_.Get("caracal.synchronous_commit"), settings_.Get("caracal.checkpoint_interval_s"),
          settings_.Get("caracal.checkpoint_log_mb")};
}

void Session::ApplySettings(const SettingsSnapshot& before) {
  // Durability settings act at once on the data directory (only those that changed: the
  // session may have opened it with a finer interval than whole seconds).
  if (durable_) {
    if (settings_.Get("caracal.synchronous_commit") != before.synchronous_commit)
      durable_->set_synchronous_commit(settings_.GetBool("caracal.synchronous_commit"));
    if (settings_.Get("caracal.checkpoint_interval_s") != before.checkpoint_interval_s)
      durable_->set_checkpoint_interval_s(std::stod(settings_.Get("caracal.checkpoint_interval_s")));
    if (settings_.Get("caracal.checkpoint_log_mb") != before.checkpoint_log_mb)
      durable_->set_checkpoint_log_bytes(std::stoull(settings_.Get("caracal.checkpoint_log_mb")) << 20);
  }
  procedures_->set_jit(settings_.Get("caracal.jit") == "on");
  const engine::EngineOptions& want = settings_.engine_options();
  const engine::EngineOptions& have = engine_->options();
  if (want != have) Reconfigure(want);
}

void Session::Reconfigure(const engine::EngineOptions& options) {
  // The old engine drains in its destructor; the new one continues from the database's
  // committed epoch, so serial ids keep increasing. The input log moves with it.
  engine::EngineOptions previous = engine_->options();
  engine_->Drain();
  if (durable_) durable_->DetachEngine();
  engine_.reset();
  try {
    engine_ = std::make_unique<engine::Engine>(*db_, options);
  } catch (...) {
    engine_ = std::make_unique<engine::Engine>(*db_, previous);
    if (durable_) durable_->AttachEngine(*engine_);
    throw;
  }
  if (durable_) durable_->AttachEngine(*engine_);
}

StatementResult Session::RunExtension(const planner::ParsedStatement& parsed) {
  StatementResult result;
  if (parsed.extension == planner::Extension::kExplainProcedure) {
    result.rows = planner::ExplainProcedure(*catalog_, parsed.name);
    if (settings_.Get("caracal.dump_ir") == "on")
      for (const auto& ir : catalog_->FindProcedures(parsed.name))
        result.notices.push_back("INFO:" + procedures_->DescribeCode(ir));
  } else {
    std::optional<planner::CallPlan> call = planner::PlanCall(parsed.node, *catalog_, true);
    if (!call)
      throw planner::SqlError(planner::sqlstate::kSyntaxError, "EXPLAIN CALL needs a call of a procedure", parsed.location);
    result.rows = codegen::ExplainCall(call->ir, *catalog_, *db_, std::move(call->args));
  }
  result.tag = "EXPLAIN";
  return result;
}

PendingResult::PendingResult(StatementResult done) : done_(std::move(done)) {}

PendingResult::PendingResult(std::shared_future<engine::TxnResult> txn, std::function<StatementResult(engine::TxnResult&&)> finish)
    : txn_(std::move(txn)), finish_(std::move(finish)) {}

PendingResult::PendingResult(std::function<StatementResult()> deferred) : deferred_(std::move(deferred)) {}

StatementResult PendingResult::Get() {
  if (!done_ && deferred_) done_ = std::exchange(deferred_, nullptr)();
  if (!done_) {
    engine::TxnResult r = txn_.get();
    done_ = finish_(std::move(r));
  }
  return std::move(*done_);
}

bool PendingResult::WaitFor(std::chrono::milliseconds timeout) const {
  return done_.has_value() || deferred_ || txn_.wait_for(timeout) == std::future_status::ready;
}

namespace {

// Whether a statement may change the catalog (what deferred queries have planned against).
bool MayChangeCatalog(const PgQuery__Node* stmt) {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT: return stmt->select_stmt->into_clause != nullptr;  // SELECT ... INTO t
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT: return false;
    default: return true;
  }
}

}  // namespace

std::optional<PendingResult> Session::StartQuery(const planner::ParsedStatement& parsed, const std::string& text) {
  const PgQuery__SelectStmt* select = parsed.node->select_stmt;
  std::function<planner::ResultSet(planner::RowSource&)> run;
  if (planner::NeedsQueryPlanner(select, *catalog_)) {
    auto plan = std::make_shared<planner::QueryPlan>(planner::PlanQuery(select, *catalog_, TableEstimator()));
    run = [plan](planner::RowSource& source) { return planner::ExecuteQuery(*plan, source); };
  } else {
    auto plan = std::make_shared<planner::SelectPlan>(planner::PlanSelect(select, *catalog_));
    if (plan->table && planner::IsSystemView(*plan->table)) return std::nullopt;
    run = [plan](planner::RowSource& source) { return planner::ExecuteSelect(*plan, source); };
  }
  // At least the state after every call submitted before the query, as when it runs at
  // once. The snapshot is taken when it runs (holding one from here would make a DROP
  // TABLE of another connection wait for it while this one waits for the DROP).
  engine_->Drain();
  const uint64_t generation = catalog_generation_;
  return PendingResult([this, run = std::move(run), generation, text]() -> StatementResult {
    std::shared_lock users(catalog_users_);
    try {
      if (catalog_generation_ != generation)
        throw planner::SqlError("40001", "could not run the query: the catalog changed after it was planned")
            .WithHint("Run the query again.");
      planner::SnapshotSource source(*db_);
      StatementResult result;
      result.rows = run(source);
      result.tag = fmt::format("SELECT {}", result.rows->rows.size());
      return result;
    } catch (...) {
      return FailedResult(std::current_exception(), text);
    }
  });
}

bool Session::CallsUserFunction(const PgQuery__Node* stmt) const {
  // Such a query runs as a transaction: the function's body reads at a serial position.
  return planner::CallsFunction(stmt, [&](std::string_view name) { return !catalog_->FindProcedures(name).empty(); });
}

PendingResult Session::StartStatement(const planner::ParsedStatement& parsed, const std::string& text, bool defer_queries,
                                      TransactionBlock* block) {
  TransactionBlock& client_block = block != nullptr ? *block : own_block_;
  struct StartingFor {
    TransactionBlock*& slot;
    TransactionBlock* before;
    ~StartingFor() { slot = before; }
  } starting{starting_for_, std::exchange(starting_for_, &client_block)};
  // One now() for the whole statement; inside a block, the block's.
  const planner::StatementClock clock(client_block.status() != TransactionBlock::Status::kIdle
                                          ? std::optional<int64_t>(client_block.timestamp_)
                                          : std::nullopt);
  try {
    if (std::optional<planner::SettingCall> call = planner::AsSettingCall(parsed.node))
      return PendingResult(RunSettingCall(*call, client_block));
    if (std::optional<std::vector<planner::SequenceValueCall>> calls = planner::AsSequenceValueCalls(parsed.node))
      return PendingResult(RunSequenceValueCalls(*calls, client_block));
    if (client_block.status() != TransactionBlock::Status::kIdle ||
        (parsed.node != nullptr && parsed.node->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT))
      return StartInBlock(parsed, text, client_block);
    if (parsed.extension != planner::Extension::kNone) {
      engine_->Drain();
      return PendingResult(RunExtension(parsed));
    }
    const PgQuery__Node* stmt = parsed.node;
    if (stmt->node_case == PG_QUERY__NODE__NODE_PREPARE_STMT || stmt->node_case == PG_QUERY__NODE__NODE_EXECUTE_STMT ||
        stmt->node_case == PG_QUERY__NODE__NODE_DEALLOCATE_STMT)
      return RunPreparedStatementCommand(parsed, defer_queries, &client_block);
    if (std::optional<planner::CallPlan> call = planner::PlanCall(stmt, *catalog_)) return SubmitCall(std::move(*call), text);
    // An INSERT ... SELECT that calls a user function runs as a transaction, not a load:
    // the function's body reads at a serial position.
    const bool insert_select = stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT &&
                               planner::IsInsertSelect(stmt->insert_stmt, *catalog_) && !CallsUserFunction(stmt);
    // A SELECT after WITH queries that write is a transaction like any write.
    // So is one that draws sequence values.
    const bool select_writes =
        stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT && !stmt->select_stmt->into_clause &&
        (planner::HasDataModifyingCte(stmt->select_stmt->with_clause) || planner::CallsFunction(stmt, "nextval") ||
         CallsUserFunction(stmt));
    if ((stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT && !insert_select) || stmt->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
        stmt->node_case == PG_QUERY__NODE__NODE_DELETE_STMT || stmt->node_case == PG_QUERY__NODE__NODE_DO_STMT ||
        stmt->node_case == PG_QUERY__NODE__NODE_TRUNCATE_STMT || select_writes)
      return SubmitDml(parsed, text);
    if (defer_queries && stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT && !stmt->select_stmt->into_clause &&
        !planner::IsSetvalSelect(stmt))
      if (std::optional<PendingResult> query = StartQuery(parsed, text)) return std::move(*query);
    // Anything else sees (or changes) the state after every call submitted before it.
    engine_->Drain();
    if (MayChangeCatalog(stmt)) {
      std::unique_lock users(catalog_users_);
      ++catalog_generation_;
      return PendingResult(RunStatement(parsed));
    }
    return PendingResult(RunStatement(parsed));
  } catch (...) {
    return PendingResult(FailedResult(std::current_exception(), text));
  }
}

PendingResult Session::RunPreparedStatementCommand(const planner::ParsedStatement& parsed, bool defer_queries,
                                                   TransactionBlock* block) {
  const PgQuery__Node* stmt = parsed.node;
  StatementResult done;
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_PREPARE_STMT: {
      planner::PreparedStatement p = planner::Prepare(stmt->prepare_stmt, parsed.text, catalog_.get());
      if (prepared_.contains(p.name)) throw planner::PreparedStatementExists(p.name);
      const std::string name = p.name;
      prepared_.emplace(name, std::move(p));
      done.tag = "PREPARE";
      return PendingResult(std::move(done));
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: {
      const char* name = stmt->deallocate_stmt->name;
      if (name == nullptr || *name == '\0') {
        prepared_.clear();
        done.tag = "DEALLOCATE ALL";
      } else if (prepared_.erase(name) == 0) {
        throw planner::PreparedStatementMissing(name);
      } else {
        done.tag = "DEALLOCATE";
      }
      return PendingResult(std::move(done));
    }
    default: {
      const char* name = stmt->execute_stmt->name ? stmt->execute_stmt->name : "";
      auto it = prepared_.find(name);
      if (it == prepared_.end()) throw planner::PreparedStatementMissing(name);
      const std::string text = planner::ExecuteText(it->second, stmt->execute_stmt);
      const planner::ParseTree tree = planner::ParseExecuteText(text);
      // Planned here, from the statement's text with the arguments in it (the result may
      // run later, but holds no reference to the tree).
      return StartStatement(tree.statements()[0], text, defer_queries, block);
    }
  }
}

planner::ResultSet Session::RunQueryNow(const PgQuery__SelectStmt* select) {
  if (planner::NeedsQueryPlanner(select, *catalog_)) {
    planner::QueryPlan plan = planner::PlanQuery(select, *catalog_, TableEstimator());
    return planner::ExecuteQuery(plan, *db_);
  }
  planner::SelectPlan plan = planner::PlanSelect(select, *catalog_);
  return plan.table && planner::IsSystemView(*plan.table) ? planner::ExecuteSystemViewSelect(plan, *catalog_)
                                                          : planner::ExecuteSelect(plan, *db_);
}

StatementResult Session::RunSequenceValueCalls(const std::vector<planner::SequenceValueCall>& calls,
                                               TransactionBlock& block) {
  std::vector<const planner::SequenceInfo*> sequences;
  for (const planner::SequenceValueCall& call : calls)
    sequences.push_back(call.last ? nullptr : planner::SequenceOfCall(call, *catalog_));
  // What the client's own transactions still in flight draw comes first.
  if (block.in_flight_->load(std::memory_order_acquire) > 0) engine_->Drain();
  std::vector<std::optional<int64_t>> values;
  std::lock_guard lock(block.drawn_->mutex);
  for (size_t i = 0; i < calls.size(); ++i) {
    const planner::SequenceValueCall& call = calls[i];
    std::optional<int64_t> value;
    if (call.last) {
      // lastval of a sequence dropped since: PostgreSQL's message is the undefined one.
      if (block.drawn_->last && engine_->database().sequences().Exists(block.drawn_->last->sequence))
        value = block.drawn_->last->value;
      if (!value) throw planner::SqlError("55000", "lastval is not yet defined in this session");
    } else if (sequences[i] != nullptr) {  // null: currval(NULL), the column owns no sequence
      auto it = block.drawn_->by_sequence.find(sequences[i]->engine_name);
      if (it == block.drawn_->by_sequence.end())
        throw planner::SqlError("55000", fmt::format("currval of sequence \"{}\" is not yet defined in this session",
                                                     sequences[i]->name));
      value = it->second.value;
    }
    values.push_back(value);
  }
  StatementResult result;
  result.rows = planner::SequenceValueResult(calls, values);
  result.tag = "SELECT 1";
  return result;
}

StatementResult Session::RunSettingCall(const planner::SettingCall& call, TransactionBlock& block) {
  StatementResult result;
  if (call.kind == planner::SettingCall::Kind::kSetConfig && call.is_local &&
      block.status() == TransactionBlock::Status::kIdle) {
    // For the statement's own transaction, which ends with it: nothing stays set (a
    // placeholder comes to exist, empty), and no warning, unlike SET LOCAL.
    if (settings_.IsPlaceholder(call.name))
      settings_.DeclarePlaceholder(call.name);
    else
      settings_.Get(call.name);  // must exist
    result.rows = planner::SettingCallResult(call, call.value);
    result.tag = "SELECT 1";
    return result;
  }
  if (call.kind == planner::SettingCall::Kind::kSetConfig) {
    // As the SET it amounts to, so that a block keeps or undoes it by SET's rules.
    const std::string text = planner::SetStatementText(call);
    const planner::ParseTree tree = planner::ParseTree::Parse(text);
    StatementResult set = StartStatement(tree.statements().at(0), text, false, &block).Get();
    if (set.error) return set;
    result.notices = std::move(set.notices);
  }
  std::optional<std::string> value;
  try {
    value = settings_.Get(call.name);
  } catch (const planner::SqlError&) {
    if (!call.missing_ok) throw;
  }
  result.rows = planner::SettingCallResult(call, value);
  result.tag = "SELECT 1";
  return result;
}

std::optional<std::vector<planner::ResultColumn>> Session::DescribeStatement(const planner::ParsedStatement& parsed) {
  const PgQuery__Node* stmt = parsed.node;
  if (std::optional<planner::SettingCall> call = planner::AsSettingCall(stmt))
    return planner::SettingCallResult(*call, std::nullopt).columns;
  if (std::optional<std::vector<planner::SequenceValueCall>> calls = planner::AsSequenceValueCalls(stmt))
    return planner::SequenceValueResult(*calls, {}).columns;
  auto run = [&]() -> std::optional<std::vector<planner::ResultColumn>> {
    StatementResult r = parsed.extension != planner::Extension::kNone ? RunExtension(parsed) : RunStatement(parsed);
    if (!r.rows) return std::nullopt;
    return std::move(r.rows->columns);
  };
  if (parsed.extension != planner::Extension::kNone) return run();
  if (std::optional<planner::CallPlan> call = planner::PlanCall(stmt, *catalog_)) {
    if (call->form == planner::CallPlan::Form::kCall && call->columns.empty()) return std::nullopt;
    return std::move(call->columns);
  }
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT: {
      if (planner::IsSetvalSelect(stmt)) return planner::SetvalColumns(stmt->select_stmt);
      std::vector<planner::ResultColumn> columns;
      if (planner::NeedsQueryPlanner(stmt->select_stmt, *catalog_)) {
        planner::QueryPlan plan = planner::PlanQuery(stmt->select_stmt, *catalog_, TableEstimator());
        for (const planner::OutputColumn& c : plan.columns) columns.push_back({c.name, c.type});
        return columns;
      }
      planner::SelectPlan plan = planner::PlanSelect(stmt->select_stmt, *catalog_);
      for (const planner::OutputColumn& c : plan.columns) columns.push_back({c.name, c.type});
      return columns;
    }
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: return run();
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      engine_->Drain();  // EXPLAIN of a write reads the committed state between epochs
      return run();
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT: {
      if (stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT && planner::IsInsertSelect(stmt->insert_stmt, *catalog_)) return std::nullopt;
      std::shared_ptr<const planner::ProcedureIr> ir = planner::BindAdHocDml(stmt, parsed.text, *catalog_);
      if (ir->result_columns.empty()) return std::nullopt;
      std::vector<planner::ResultColumn> columns;
      for (const planner::OutputColumn& c : ir->result_columns) columns.push_back({c.name, c.type});
      return columns;
    }
    default: return std::nullopt;
  }
}

PendingResult Session::SubmitDml(const planner::ParsedStatement& parsed, const std::string& text) {
  std::shared_ptr<const planner::ProcedureIr> ir = planner::BindAdHocDml(parsed.node, parsed.text, *catalog_);
  planner::CallPlan call;
  call.form = planner::CallPlan::Form::kDml;
  call.ir = ir;
  for (const planner::OutputColumn& c : ir->result_columns) call.columns.push_back({c.name, c.type});
  // One statement, run once: interpreted (compiling would cost more than it saves) and
  // owned by its transaction rather than cached.
  auto procedure = std::make_shared<codegen::InterpretedProcedure>(ir, *catalog_);
  return SubmitCall(std::move(call), text, procedure);
}

PendingResult Session::SubmitCall(planner::CallPlan call, const std::string& text,
                                  std::shared_ptr<const engine::Procedure> owned) {
  if (std::optional<StatementResult> none = StrictNullCall(call)) return PendingResult(std::move(*none));
  auto promise = std::make_shared<std::promise<engine::TxnResult>>();
  std::shared_future<engine::TxnResult> future = promise->get_future().share();
  engine::TxnRequest request;
  request.procedure = owned ? owned.get() : &procedures_->Get(call.ir);
  request.input.args = std::move(call.args);
  request.on_done = [promise, owned](engine::TxnResult&& r) { promise->set_value(std::move(r)); };
  SubmitToEngine(std::move(request), starting_for_);
  auto finish = [call = std::move(call), text](engine::TxnResult&& r) {
    StatementResult result = CallResult(call, std::move(r));
    if (result.error) result.error->query = text;
    return result;
  };
  return PendingResult(std::move(future), std::move(finish));
}

void Session::SubmitToEngine(engine::TxnRequest request, TransactionBlock* client) {
  if (client != nullptr) {
    std::shared_ptr<std::atomic<int>> in_flight = client->in_flight_;
    in_flight->fetch_add(1, std::memory_order_relaxed);
    // Counted out before the client can see the result: the epoch has committed, so a
    // snapshot the client's next statement takes holds this transaction.
    request.on_done = [in_flight, drawn = client->drawn_, done = std::move(request.on_done)](engine::TxnResult&& r) {
      if (!r.drawn.empty()) {
        // Completions may come out of draw order (a transaction that retried): the latest
        // draw wins, as in a serial run of the client's statements.
        std::lock_guard lock(drawn->mutex);
        for (const engine::TxnResult::Draw& d : r.drawn) {
          auto [it, fresh] = drawn->by_sequence.try_emplace(d.sequence, d);
          if (!fresh && it->second.order < d.order) it->second = d;
          if (!drawn->last || drawn->last->order < d.order) drawn->last = d;
        }
      }
      in_flight->fetch_sub(1, std::memory_order_release);
      if (done) done(std::move(r));
    };
  }
  engine_->Submit(std::move(request));
}

std::optional<StatementResult> Session::StrictNullCall(const planner::CallPlan& call) {
  const planner::ProcedureIr& ir = *call.ir;
  if (!ir.strict || std::ranges::none_of(call.args, [](const engine::Value& v) { return v.is_null(); })) return std::nullopt;
  // PostgreSQL does not call a STRICT function with a NULL argument: the result is
  // NULL (a NULL row for OUT parameters, no rows for a set-returning function).
  engine::TxnResult none;
  if (ir.returns == planner::ProcedureIr::Returns::kScalar)
    none.rows.emplace_back(ir.result_columns.size(), engine::Value::Null());
  StatementResult result = CallResult(call, std::move(none));
  if (call.form == planner::CallPlan::Form::kSelectValue && result.rows && !result.rows->rows.empty())
    result.rows->rows.front() = {std::nullopt};  // the NULL record, not (,)
  return result;
}

Session::ParsedText Session::ParseText(std::string_view sql) {
  ParsedText parsed;
  parsed.text = std::string(sql);
  if (std::optional<std::string> bad = InvalidUtf8(parsed.text)) {
    StatementResult r;
    r.error = ErrorReport{"ERROR", "22021", *bad, "", "", "", 0, parsed.text};
    parsed.error = std::move(r);
    return parsed;
  }
  try {
    parsed.tree.emplace(planner::ParseTree::Parse(parsed.text));
  } catch (const planner::SyntaxError& e) {
    StatementResult r;
    r.error = ErrorReport{"ERROR", "42601", e.what(), "", e.hint(), "", e.position(), parsed.text};
    parsed.error = std::move(r);
  }
  return parsed;
}

std::vector<PendingResult> Session::Start(const ParsedText& parsed, bool stop_at_error) {
  std::vector<PendingResult> results;
  if (parsed.error) {
    results.emplace_back(StatementResult(*parsed.error));
    return results;
  }
  const bool implicit = stop_at_error && BeginImplicitBlock(*parsed.tree, own_block_);
  bool failed = false;
  for (const planner::ParsedStatement& s : parsed.tree->statements()) {
    results.push_back(StartStatement(s, parsed.text));
    if (!stop_at_error) continue;
    // A statement of an implicit block completes when the whole message has run.
    if (implicit && !results.back().WaitFor(std::chrono::milliseconds(0))) continue;
    // One at a time: the next statement starts only after this one succeeded.
    StatementResult done = results.back().Get();
    failed = done.error.has_value();
    results.back() = PendingResult(std::move(done));
    if (failed) break;
  }
  if (!implicit) return results;
  std::optional<PendingResult> commit = EndImplicitBlock(own_block_, failed);
  // The results in order, up to the first error (the block's, if it failed, is that
  // of the statement that failed it).
  for (size_t i = 0; i < results.size(); ++i) {
    StatementResult done = results[i].Get();
    const bool error = done.error.has_value();
    results[i] = PendingResult(std::move(done));
    if (error) {
      results.erase(results.begin() + static_cast<std::ptrdiff_t>(i) + 1, results.end());
      if (commit) commit->Get();
      return results;
    }
  }
  if (commit)
    if (StatementResult done = commit->Get(); done.error) results.emplace_back(std::move(done));
  return results;
}

std::vector<StatementResult> Session::Execute(const ParsedText& parsed) {
  std::vector<StatementResult> results;
  for (PendingResult& r : Start(parsed, true)) results.push_back(r.Get());
  return results;
}

std::vector<PendingResult> Session::Submit(const ParsedText& parsed) { return Start(parsed, false); }

std::vector<StatementResult> Session::Execute(std::string_view sql) { return Execute(ParseText(sql)); }

std::vector<PendingResult> Session::Submit(std::string_view sql) { return Submit(ParseText(sql)); }

}  // namespace caracal::frontend
