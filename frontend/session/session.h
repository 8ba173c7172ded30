// Session: one embedded, in-memory database and the statements run against it. It owns
// the engine Database, the epoch Engine running on it and the SQL Catalog, and turns SQL
// text into results or PostgreSQL-style errors. A bad statement never takes the session
// down: every failure comes back as an ErrorReport.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/storage/database.h"
#include "engine/execution/engine.h"
#include "engine/execution/engine_options.h"
#include "engine/durability/durable_store.h"
#include "planner/parser/parse_tree.h"
#include "codegen/procedures/compiled_procedure_cache.h"
#include "planner/plan/call_plan.h"
#include "planner/catalog/catalog.h"
#include "planner/binder/query_block.h"
#include "planner/exec/copy.h"
#include "planner/exec/prepared_statement.h"
#include "planner/exec/setting_call.h"
#include "planner/exec/sequence_value_call.h"
#include "planner/types/result_set.h"
#include "planner/types/sql_error.h"
#include "frontend/session/settings.h"
#include "frontend/session/transaction_block.h"

struct PgQuery__Node;
struct PgQuery__TransactionStmt;
struct PgQuery__InsertStmt;
struct PgQuery__SelectStmt;
struct PgQuery__IntoClause;

namespace caracal::frontend {

struct ErrorReport {
  std::string severity = "ERROR";
  std::string sqlstate;
  std::string message;
  std::string detail, hint, context;
  int position = 0;   // 1-based character position in `query`, 0 if unknown
  std::string query;  // the text `position` refers to
};

struct StatementResult {
  std::string tag;                        // command tag: "SELECT 3", "CREATE TABLE", "COPY 10"
  std::optional<planner::ResultSet> rows;  // set for statements that return rows
  std::optional<std::string> copy_out;     // COPY ... TO STDOUT: the data, for the client
  std::vector<std::string> notices;       // NOTICE messages, in order
  std::optional<ErrorReport> error;       // set if the statement failed (then it is the last)
};

// The result of a statement that may still be running: a call submitted to the engine
// completes when its epoch commits. Everything else is complete at once.
class PendingResult {
 public:
  explicit PendingResult(StatementResult done);
  // A call in flight: `finish` turns the transaction's result into the statement's.
  PendingResult(std::shared_future<engine::TxnResult> txn, std::function<StatementResult(engine::TxnResult&&)> finish);
  // A statement that runs when its result is asked for (Get), in the asking thread.
  explicit PendingResult(std::function<StatementResult()> deferred);
  // Waits for the statement and returns its result (once).
  StatementResult Get();
  // Whether Get() would return at once, after waiting at most `timeout` (the shell
  // polls so that Ctrl-C can stop the wait).
  bool WaitFor(std::chrono::milliseconds timeout) const;

 private:
  std::optional<StatementResult> done_;
  std::shared_future<engine::TxnResult> txn_;
  std::function<StatementResult(engine::TxnResult&&)> finish_;
  std::function<StatementResult()> deferred_;
};

struct SessionOptions {
  engine::EngineOptions engine;
  // Set: a durable database in this data directory (created if missing), recovered by
  // the constructor (engine/durability/durable_store.h). Unset: in memory.
  std::optional<engine::DurabilityOptions> durability;
  // Native procedures that transactions may run besides SQL ones (test drivers):
  // recovery finds them by their log_identity(). They must outlive the session.
  std::vector<const engine::Procedure*> native_procedures;
};

class Session {
 public:
  // Throws (std::runtime_error) if a data directory cannot be opened or recovered.
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // SQL text parsed once (ParseText), so a caller can look at its statements before it
  // runs them with the Execute / Submit overloads below. A text that is not valid UTF-8
  // or does not parse holds no tree but the error, which running it reports.
  struct ParsedText {
    std::string text;
    std::optional<planner::ParseTree> tree;
    std::optional<StatementResult> error;
    size_t statement_count() const { return tree ? tree->statements().size() : 0; }
  };
  static ParsedText ParseText(std::string_view sql);
  std::vector<StatementResult> Execute(const ParsedText& parsed);
  std::vector<PendingResult> Submit(const ParsedText& parsed);

  // Runs every statement of `sql` in order and returns one result per statement run.
  // Like a PostgreSQL simple-query message, it stops at the first failing statement,
  // whose result carries the error (positions refer to the whole of `sql`).
  std::vector<StatementResult> Execute(std::string_view sql);
  // Runs the statements of `sql` without waiting for calls: procedure calls and DML are
  // submitted to the engine so consecutive ones share epochs (psql's pipeline mode);
  // any other statement first waits for everything submitted before it. Every statement
  // runs, whatever the others' outcome; results come back in submission order.
  std::vector<PendingResult> Submit(std::string_view sql);
  // Starts one statement of a parse of `text` (error positions refer to `text`): a call
  // or DML is submitted without waiting, anything else first waits for everything
  // submitted before it and runs to completion. Never throws: failures are results.
  // The wire server (server/) runs each client's statements through this, one at a time.
  // `defer_queries`: an ad-hoc SELECT of tables is planned now (after the calls submitted
  // before it are done) and runs in the result's Get(), on the last committed state then,
  // so that a caller who holds a lock around StartStatement (the server's shared session)
  // does not hold it while the query runs; a statement that changes the catalog waits for
  // the queries running then, and a query whose catalog changed between its start and its
  // run fails (40001) instead of reading tables that may be gone.
  // `block`: the client's transaction block (a wire connection's; null: the session's
  // own, which Execute and Submit use). Inside a block, a statement that reads or writes
  // tables runs as a try of the block (transaction_block.h) and a failure fails the block.
  PendingResult StartStatement(const planner::ParsedStatement& stmt, const std::string& text, bool defer_queries = false,
                               TransactionBlock* block = nullptr);
  // The columns `stmt` would return, without running it (a call's or a SELECT's plan;
  // SHOW and EXPLAIN run, as they change nothing); nullopt for a statement without rows.
  // Throws planner::SqlError when the statement does not plan.
  std::optional<std::vector<planner::ResultColumn>> DescribeStatement(const planner::ParsedStatement& stmt);

  // A simple-query message of several statements is one transaction in PostgreSQL (an
  // implicit block): BeginImplicitBlock makes it one here too when every statement is one
  // a block can hold (queries of tables, INSERT / UPDATE / DELETE, calls) and `block` is
  // idle, and says whether it did. The message is known whole before anything of it is
  // shown, so its statements are not tried: each is only bound, and its PendingResult
  // completes when the whole message has run as one transaction, its answers those of
  // that run (no validation, hence never 40001). The caller starts every statement
  // first, stopping at one that is complete and failed (look with WaitFor(0)), then
  // calls EndImplicitBlock, then takes the results in order up to the first error.
  // EndImplicitBlock submits the block: with `failed`, as a run that writes nothing
  // (the statements before the failed one still show what they did, as in PostgreSQL,
  // and nullopt is returned); otherwise as its COMMIT, whose result (to wait for without
  // the caller's locks) carries an error if the block failed. Execute does all this.
  bool BeginImplicitBlock(const planner::ParseTree& tree, TransactionBlock& block);
  std::optional<PendingResult> EndImplicitBlock(TransactionBlock& block, bool failed);

  // The transaction block of Execute and Submit (the shell's prompt shows its status).
  const TransactionBlock& own_block() const { return own_block_; }

  planner::Catalog& catalog() { return *catalog_; }
  // The runnable procedure (function) named `name`, or nullptr; the first overload when
  // there are several.
  const engine::Procedure* FindProcedure(std::string_view name);
  engine::Database& database() { return *db_; }
  // The compiled procedures (tiered: see codegen/procedures/compiled_procedure_cache.h).
  codegen::CompiledProcedureCache& procedure_cache() { return *procedures_; }
  engine::Engine& engine() { return *engine_; }
  // The data directory's log and checkpoints; null for an in-memory session.
  engine::DurableStore* durable() { return durable_.get(); }
  // SET / SHOW / RESET parameters (settings.h); a changed engine setting takes effect
  // through Reconfigure before the next statement runs.
  const Settings& settings() const { return settings_; }
  // Receives COPY FROM's progress (rows read so far); it may throw to cancel the COPY.
  void set_copy_progress(planner::CopyProgress progress) { copy_progress_ = std::move(progress); }
  // Where COPY ... FROM STDIN gets its data from (the shell: the lines after the
  // statement; the server: the client's CopyData). Without one it is refused.
  void set_copy_input(planner::CopyInput input) { copy_input_ = std::move(input); }

 private:
  // Whether the statement calls a user function anywhere (then a SELECT or an INSERT ...
  // SELECT runs as a transaction).
  bool CallsUserFunction(const PgQuery__Node* stmt) const;

  class Replayer;  // recovery's ReplayHost (session_replay.cc)

  // `compile_now`: compile a procedure CREATE FUNCTION stores at once (recovery, which
  // replays every CREATE OR REPLACE of a history, leaves it to the first call).
  StatementResult RunStatement(const planner::ParsedStatement& stmt, bool compile_now = true);
  // Table sizes for the query planner's join order (the engine's row counts).
  planner::TableRowEstimator TableEstimator();
  // Transaction blocks (session_blocks.cc). A step: a statement bound as the procedure
  // a try or COMMIT of a block runs, and how its outcome is shown.
  struct BoundStep {
    std::shared_ptr<const engine::Procedure> procedure;
    planner::CallPlan call;
  };
  BoundStep BindStep(const PgQuery__Node* stmt, const std::string& text);
  BoundStep BindStepText(const std::string& text);
  // The step's procedure, bound again if the catalog changed since it was bound.
  std::shared_ptr<const engine::Procedure> StepProcedure(TransactionBlock::Step& step);
  // A plain INSERT ... VALUES in a block past its first kTriedSteps statements and
  // outside savepoints: answered with the row count it must have, without a try of its
  // own (so that a long block of INSERTs costs a run of each, not n tries).
  static constexpr size_t kTriedSteps = 8;
  std::optional<int64_t> PredictedInsertRows(const PgQuery__Node* stmt, const TransactionBlock& block) const;
  // Whether `stmt` reads or writes tables, so that inside a block it runs as a step.
  bool IsBlockStep(const PgQuery__Node* stmt) const;
  // StartStatement inside a block (or for BEGIN / COMMIT / ROLLBACK / SAVEPOINT ...).
  PendingResult StartInBlock(const planner::ParsedStatement& stmt, const std::string& text, TransactionBlock& block);
  StatementResult RunTransactionStatement(const PgQuery__TransactionStmt* stmt, TransactionBlock& block,
                                          std::optional<PendingResult>& commit);
  PendingResult TryStep(const planner::ParsedStatement& stmt, const std::string& text, TransactionBlock& block);
  PendingResult CommitBlock(TransactionBlock& block);
  // The steps' procedures (bound again after DDL) and parts, in order.
  struct BlockParts {
    std::vector<std::shared_ptr<const engine::Procedure>> procedures;
    std::vector<engine::BlockPart> parts;
  };
  BlockParts PartsOf(std::vector<TransactionBlock::Step>& steps);
  // A run of `procedure` that writes nothing, on the last committed snapshot, when that
  // is allowed (caracal.snapshot_tries, nothing of the client's in flight) and possible
  // (engine/execution/snapshot_try.h); nullopt: submit it to the engine instead.
  std::optional<engine::TxnResult> TryOnSnapshot(const TransactionBlock& block, const engine::Procedure& procedure,
                                                 const engine::TxnInput& input);
  // EndImplicitBlock of a message known whole: its one run (BeginImplicitBlock).
  std::optional<PendingResult> RunWholeBlock(TransactionBlock& block, bool failed);
  // Waits for the block's pending try and records its outcome (once).
  void Settle(TransactionBlock& block);
  // Every transaction the session submits goes through here; `client` (if known) counts
  // it in flight until it completes.
  void SubmitToEngine(engine::TxnRequest request, TransactionBlock* client);
  StatementResult SettleTry(TransactionBlock& block, TransactionBlock::PendingTry& pending, const engine::TxnResult& txn);
  // What a logged transaction block names itself by, and its steps' texts again.
  static std::string BlockIdentity(const std::vector<TransactionBlock::Step>& steps);
  static std::optional<std::vector<std::string>> BlockTexts(std::string_view identity);
  // The result of a call of a STRICT function with a NULL argument, which runs nothing.
  static std::optional<StatementResult> StrictNullCall(const planner::CallPlan& call);
  // INSERT ... SELECT between epochs (logged as one load); the rows inserted.
  int64_t LoadInsertSelect(const PgQuery__InsertStmt* insert);
  // CREATE TABLE ... AS / SELECT ... INTO (planner/exec/create_table_as.h).
  StatementResult RunCreateTableAs(const PgQuery__SelectStmt* query, const PgQuery__IntoClause* into, bool if_not_exists);
  // EXPLAIN PROCEDURE name / EXPLAIN CALL p(...) (planner/parser/parse_tree.h's Extension).
  StatementResult RunExtension(const planner::ParsedStatement& stmt);
  // Starts the statements of `parsed`; with `stop_at_error`, each is finished before the
  // next starts and the first failure ends the list.
  std::vector<PendingResult> Start(const ParsedText& parsed, bool stop_at_error);
  // Submits a call as one transaction; its result arrives when its epoch commits.
  // `owned`: a procedure that lives only as long as this call (ad-hoc DML); otherwise
  // the compiled procedure of `call.ir` from the cache.
  PendingResult SubmitCall(planner::CallPlan call, const std::string& text,
                           std::shared_ptr<const engine::Procedure> owned = nullptr);
  // An ad-hoc INSERT / UPDATE / DELETE as a one-statement transaction (bound from the
  // statement's own text, which is what the input log records).
  PendingResult SubmitDml(const planner::ParsedStatement& stmt, const std::string& text);

  // SET / SHOW / RESET (VariableSetStmt / VariableShowStmt).
  StatementResult RunSetting(const ::PgQuery__Node* stmt, bool in_block = false);
  // SELECT set_config(...) / current_setting(...) alone (planner/exec/setting_call.h).
  StatementResult RunSettingCall(const planner::SettingCall& call, TransactionBlock& block);
  // An ad-hoc query on the committed state, at once (the caller has drained the engine).
  planner::ResultSet RunQueryNow(const ::PgQuery__SelectStmt* select);
  // SELECT currval(...) / lastval() alone (planner/exec/sequence_value_call.h).
  StatementResult RunSequenceValueCalls(const std::vector<planner::SequenceValueCall>& calls, TransactionBlock& block);
  // The settings whose change acts on the data directory, as they were before a change;
  // ApplySettings makes a change of settings_ take effect (data directory, JIT, engine).
  struct SettingsSnapshot {
    std::string synchronous_commit, checkpoint_interval_s, checkpoint_log_mb;
  };
  SettingsSnapshot TakeSettingsSnapshot() const;
  void ApplySettings(const SettingsSnapshot& before);
  // SET / RESET inside a block, and what the block's end restores (PostgreSQL's rules).
  StatementResult SetInBlock(const ::PgQuery__Node* stmt, TransactionBlock& block);
  void EndBlockSettings(TransactionBlock& block, bool committed);
  // StartStatement's deferred SELECT; nullopt for one that runs at once (a system view's).
  std::optional<PendingResult> StartQuery(const planner::ParsedStatement& stmt, const std::string& text);
  // Drains the engine and starts a new one over the same database with `options`
  // (committed epochs, sequences and tables stay).
  void Reconfigure(const engine::EngineOptions& options);

  Settings settings_;
  TransactionBlock own_block_;
  // The client whose statement is starting (StartStatement): SubmitToEngine counts its
  // transactions in flight.
  TransactionBlock* starting_for_ = nullptr;
  // SQL PREPARE's statements (the shell's; a wire connection keeps its own and answers
  // PREPARE / EXECUTE / DEALLOCATE itself).
  std::map<std::string, planner::PreparedStatement> prepared_;
  // PREPARE, EXECUTE and DEALLOCATE on prepared_.
  PendingResult RunPreparedStatementCommand(const planner::ParsedStatement& parsed, bool defer_queries, TransactionBlock* block);
  planner::CopyProgress copy_progress_;
  planner::CopyInput copy_input_;
  // Deferred queries run holding this shared; statements that change the catalog hold it
  // exclusively and count catalog_generation_ up.
  std::shared_mutex catalog_users_;
  std::atomic<uint64_t> catalog_generation_{0};
  std::unique_ptr<engine::Database> db_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<planner::Catalog> catalog_;
  std::unique_ptr<codegen::CompiledProcedureCache> procedures_;
  std::unique_ptr<Replayer> replayer_;
  // Null while recovery runs (so what it replays is not logged again) and in memory.
  std::unique_ptr<engine::DurableStore> durable_;
};

// The 1-based character (UTF-8 code point) position of byte `offset` in `text`.
int CharacterPosition(std::string_view text, int offset);


}  // namespace caracal::frontend
