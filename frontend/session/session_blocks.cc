// Transaction blocks: BEGIN / COMMIT / ROLLBACK / SAVEPOINT and the statements between
// them (transaction_block.h; the argument for serializability is engine/README.md's
// "Transaction blocks").
extern "C" {
#include <pg_query/pg_query.pb-c.h>
}

#include <fmt/format.h>

#include "codegen/interpreter/interpreted_procedure.h"
#include "engine/execution/snapshot_try.h"
#include "frontend/session/session.h"
#include "frontend/session/statement_names.h"
#include "frontend/session/statement_results.h"
#include "planner/binder/call_binder.h"
#include "planner/catalog/row_identity.h"
#include "planner/catalog/system_views.h"
#include "planner/exec/ad_hoc_dml.h"
#include "planner/expr/datetime_builtins.h"
#include "planner/exec/copy.h"
#include "planner/exec/sequence_setval.h"
#include "planner/parser/parse_tree.h"
#include "planner/types/sql_error.h"

namespace caracal::frontend {

struct TransactionBlock::PendingTry {
  std::shared_future<engine::TxnResult> txn;
  std::shared_ptr<const engine::BlockProcedure> procedure;
  planner::CallPlan call;  // how the new step's outcome is shown
  std::string text;        // the new step's own text
  std::shared_ptr<const engine::Procedure> step_procedure;
  uint64_t generation = 0;
  std::string query;       // what error positions refer to
  std::optional<StatementResult> result;  // once settled
};

struct TransactionBlock::WholeRun {
  std::shared_ptr<std::promise<engine::TxnResult>> promise = std::make_shared<std::promise<engine::TxnResult>>();
  std::shared_future<engine::TxnResult> txn = promise->get_future().share();
  // The run, once made (before the promise is kept); null: the block ended unrun.
  std::shared_ptr<const engine::BlockProcedure> procedure;
};

void TransactionBlock::Reset() {
  status_ = Status::kIdle;
  steps_.clear();
  savepoints_.clear();
  pending_.reset();
  settings_at_start_.reset();
  local_restore_.clear();
  if (whole_ && !whole_->procedure) {
    // Never run (the message ended early): its statements' results say so.
    engine::TxnResult none;
    none.status = engine::TxnResult::Status::kAborted;
    none.sqlstate = "57014";
    none.message = "the statement was not run: the transaction ended before it";
    whole_->promise->set_value(std::move(none));
  }
  whole_.reset();
}

namespace {

constexpr std::string_view kBlockPrefix = "block:";

std::shared_ptr<const engine::Procedure> Unowned(const engine::Procedure* p) {
  return std::shared_ptr<const engine::Procedure>(p, [](const engine::Procedure*) {});
}

planner::SqlError AbortedBlock() {
  return planner::SqlError("25P02", "current transaction is aborted, commands ignored until end of transaction block");
}

planner::SqlError NotInBlock(std::string_view what) {
  return planner::SqlError(planner::sqlstate::kFeatureNotSupported,
                           fmt::format("{} inside a transaction block is not supported yet", what))
      .WithDetail("A transaction block holds queries, INSERT, UPDATE, DELETE, TRUNCATE, calls and DO blocks.")
      .WithHint("Run it outside the block (it commits on its own).");
}

StatementResult Tagged(std::string tag) {
  StatementResult r;
  r.tag = std::move(tag);
  return r;
}

// A COMMIT's result from its transaction's.
StatementResult CommitOutcome(engine::TxnResult&& r) {
  if (r.status == engine::TxnResult::Status::kCommitted) return Tagged("COMMIT");
  StatementResult failed;
  engine::ErrorFields& f = r.error_fields;
  failed.error = ErrorReport{"ERROR", r.sqlstate, r.message, std::move(f.detail), std::move(f.hint), std::move(f.context), 0, ""};
  return failed;
}

// What part `part` of an implicit block's one run gave: its outcome, or the run's own
// error when the part did not finish (it threw, or the run stopped before it).
StatementResult WholeStepResult(const engine::BlockProcedure* run, size_t part, const planner::CallPlan& call,
                                const std::string& query, const engine::TxnResult& txn) {
  static const std::vector<engine::BlockPartOutcome> kNone;
  const std::vector<engine::BlockPartOutcome>& outcomes = run != nullptr ? run->outcomes() : kNone;
  const bool threw = run != nullptr && static_cast<int>(part) == run->stopped_at() && part < outcomes.size() &&
                     !outcomes[part].aborted && txn.sqlstate != engine::kBlockTryEnd;
  engine::TxnResult shown;
  if (part < outcomes.size() && !threw) {
    const engine::BlockPartOutcome& o = outcomes[part];
    shown.rows = o.rows;
    shown.row_count = o.row_count;
    shown.notices = o.notices;
    if (o.aborted) {
      shown.status = engine::TxnResult::Status::kAborted;
      shown.sqlstate = o.sqlstate;
      shown.message = o.message;
      shown.error_fields = o.error_fields;
    }
  } else {
    shown = txn;
    if (shown.status != engine::TxnResult::Status::kAborted || shown.sqlstate == engine::kBlockTryEnd) {
      shown.status = engine::TxnResult::Status::kAborted;
      shown.sqlstate = planner::sqlstate::kInternalError;
      shown.message = "internal error: a statement of the message has no outcome";
    }
  }
  StatementResult result = CallResult(call, std::move(shown));
  if (result.error) result.error->query = query;
  return result;
}

StatementResult Warned(std::string tag, std::string warning) {
  StatementResult r = Tagged(std::move(tag));
  r.notices.push_back("WARNING:" + std::move(warning));
  return r;
}

const char* TransactionStatementName(PgQuery__TransactionStmtKind kind) {
  switch (kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT: return "SAVEPOINT";
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE: return "RELEASE SAVEPOINT";
    default: return "ROLLBACK TO SAVEPOINT";
  }
}

}  // namespace

Session::BoundStep Session::BindStep(const PgQuery__Node* stmt, const std::string& text) {
  BoundStep step;
  if (std::optional<planner::CallPlan> call = planner::PlanCall(stmt, *catalog_)) {
    step.procedure = Unowned(&procedures_->Get(call->ir));
    step.call = std::move(*call);
    return step;
  }
  std::shared_ptr<const planner::ProcedureIr> ir = planner::BindAdHocDml(stmt, text, *catalog_);
  step.call.form = planner::CallPlan::Form::kDml;
  step.call.ir = ir;
  for (const planner::OutputColumn& c : ir->result_columns) step.call.columns.push_back({c.name, c.type});
  step.procedure = std::make_shared<codegen::InterpretedProcedure>(ir, *catalog_);
  return step;
}

Session::BoundStep Session::BindStepText(const std::string& text) {
  planner::ParseTree tree = planner::ParseTree::Parse(text);
  if (tree.statements().size() != 1 || tree.statements()[0].node == nullptr)
    throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: a transaction block's step is not one statement");
  return BindStep(tree.statements()[0].node, text);
}

std::shared_ptr<const engine::Procedure> Session::StepProcedure(TransactionBlock::Step& step) {
  // Bound once; again only if DDL ran since (it may have replaced what the step calls).
  if (!step.procedure || step.generation != catalog_generation_) {
    step.procedure = BindStepText(step.text).procedure;
    step.generation = catalog_generation_;
  }
  return step.procedure;
}

std::optional<int64_t> Session::PredictedInsertRows(const PgQuery__Node* stmt, const TransactionBlock& block) const {
  // Only in long blocks (a short one gives every error where PostgreSQL does) and never
  // under a savepoint (ROLLBACK TO after an INSERT's error is how clients handle one).
  if (block.steps_.size() < kTriedSteps || !block.savepoints_.empty()) return std::nullopt;
  if (stmt->node_case != PG_QUERY__NODE__NODE_INSERT_STMT) return std::nullopt;
  const PgQuery__InsertStmt* insert = stmt->insert_stmt;
  if (insert->n_returning_list > 0 || insert->on_conflict_clause != nullptr || insert->with_clause != nullptr ||
      insert->select_stmt == nullptr || insert->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    return std::nullopt;
  const PgQuery__SelectStmt* values = insert->select_stmt->select_stmt;
  if (values->n_values_lists == 0 || CallsUserFunction(stmt)) return std::nullopt;
  // A subquery in VALUES reads: its outcome is not known in advance either.
  const bool reads = planner::NamesRelation(stmt, [&](const PgQuery__RangeVar& rv) {
    return &rv != insert->relation;
  });
  if (reads) return std::nullopt;
  return static_cast<int64_t>(values->n_values_lists);
}

bool Session::IsBlockStep(const PgQuery__Node* stmt) const {
  switch (stmt->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
    case PG_QUERY__NODE__NODE_DO_STMT:
    case PG_QUERY__NODE__NODE_CALL_STMT: return true;
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      // setval is never rolled back (as in PostgreSQL): it runs at once, between epochs.
      if (planner::IsSetvalSelect(stmt)) return false;
      break;
    default: return false;
  }
  // A query of the tables (or views of them), or one that calls user functions or
  // draws sequence values, reads at the block's position; one of constants or of the
  // system views reads nothing the block could change.
  const auto user_relation = [&](const PgQuery__RangeVar& rv) {
    const std::string schema = rv.schemaname ? rv.schemaname : "";
    if (schema == "pg_catalog" || schema == "information_schema" || rv.relname == nullptr) return false;
    if (catalog_->FindView(rv.relname)) return true;
    const planner::TableInfo* table = catalog_->FindTable(rv.relname);
    return table != nullptr && !planner::IsSystemView(*table);
  };
  return planner::NamesRelation(stmt, user_relation) || planner::CallsFunction(stmt, "nextval") ||
         planner::CallsFunction(stmt, "setval") || CallsUserFunction(stmt);
}

PendingResult Session::StartInBlock(const planner::ParsedStatement& parsed, const std::string& text, TransactionBlock& block) {
  const PgQuery__Node* stmt = parsed.node;
  if (stmt != nullptr && stmt->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT) {
    std::optional<PendingResult> commit;
    StatementResult done = RunTransactionStatement(stmt->transaction_stmt, block, commit);
    if (commit) return std::move(*commit);
    return PendingResult(std::move(done));
  }
  Settle(block);
  if (block.status_ == TransactionBlock::Status::kFailed) throw AbortedBlock();
  try {
    if (stmt != nullptr && stmt->node_case == PG_QUERY__NODE__NODE_EXECUTE_STMT)
      return RunPreparedStatementCommand(parsed, false, &block);
    if (stmt != nullptr && stmt->node_case == PG_QUERY__NODE__NODE_COPY_STMT && stmt->copy_stmt->is_from) {
      // The rows as one INSERT of the block, tried like any statement.
      planner::CopyAsInsert insert = planner::CopyFromAsInsert(stmt->copy_stmt, *catalog_, copy_input_);
      planner::ParseTree tree = planner::ParseTree::Parse(insert.sql);
      auto inner = std::make_shared<PendingResult>(TryStep(tree.statements().at(0), insert.sql, block));
      return PendingResult([inner, rows = insert.rows, text]() {
        StatementResult r = inner->Get();
        if (r.error) r.error->query = text;
        else r.tag = fmt::format("COPY {}", rows);
        return r;
      });
    }
    if (stmt != nullptr && IsBlockStep(stmt)) {
      if (stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT && stmt->select_stmt->into_clause)
        throw NotInBlock("SELECT ... INTO a new table");
      return TryStep(parsed, text, block);
    }
    if (stmt != nullptr) {
      switch (stmt->node_case) {
        case PG_QUERY__NODE__NODE_SELECT_STMT:
          if (stmt->select_stmt->into_clause) throw NotInBlock("SELECT ... INTO a new table");
          break;
        case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
          if (stmt->variable_set_stmt->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI)
            return PendingResult(SetInBlock(stmt, block));
          break;
        case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
        case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
        case PG_QUERY__NODE__NODE_PREPARE_STMT:
        case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: break;
        case PG_QUERY__NODE__NODE_VACUUM_STMT:
          throw planner::SqlError("25001", fmt::format("{} cannot run inside a transaction block",
                                                       stmt->vacuum_stmt->is_vacuumcmd ? "VACUUM" : "ANALYZE"));
        case PG_QUERY__NODE__NODE_CHECK_POINT_STMT: break;
        case PG_QUERY__NODE__NODE_LOCK_STMT: {
          // Nothing to lock: COMMIT's check already keeps the block serializable against
          // every other writer. The tables must exist.
          const PgQuery__LockStmt* lock = stmt->lock_stmt;
          for (size_t i = 0; i < lock->n_relations; ++i) {
            const PgQuery__RangeVar* rv = lock->relations[i]->range_var;
            if (rv == nullptr || rv->relname == nullptr || !catalog_->FindTable(rv->relname))
              throw planner::SqlError(planner::sqlstate::kUndefinedTable,
                                      fmt::format("relation \"{}\" does not exist", rv && rv->relname ? rv->relname : ""));
          }
          return PendingResult(Tagged("LOCK TABLE"));
        }
        case PG_QUERY__NODE__NODE_COPY_STMT: throw NotInBlock("COPY ... TO");  // reads the snapshot, not the block
        default: throw NotInBlock(StatementName(stmt));
      }
    }
    // Reads nothing the block wrote (constants, settings, the catalog): as outside a
    // block, run to completion here so that a failure fails the block.
    TransactionBlock idle;
    StatementResult done = StartStatement(parsed, text, false, &idle).Get();
    if (done.error) block.status_ = TransactionBlock::Status::kFailed;
    return PendingResult(std::move(done));
  } catch (...) {
    block.status_ = TransactionBlock::Status::kFailed;
    throw;
  }
}

StatementResult Session::RunTransactionStatement(const PgQuery__TransactionStmt* stmt, TransactionBlock& block,
                                                 std::optional<PendingResult>& commit) {
  using Status = TransactionBlock::Status;
  Settle(block);
  switch (stmt->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: {
      const std::string tag = stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN ? "BEGIN" : "START TRANSACTION";
      if (block.status_ == Status::kFailed) throw AbortedBlock();
      if (block.status_ == Status::kInBlock) return Warned(tag, "there is already a transaction in progress");
      CheckTransactionModes(stmt->options, stmt->n_options);
      block.Reset();
      block.status_ = Status::kInBlock;
      block.timestamp_ = planner::WallClockTimestamp();
      return Tagged(tag);
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: {
      if (stmt->chain) throw planner::NotSupported("COMMIT AND CHAIN");
      if (block.status_ == Status::kIdle) return Warned("COMMIT", "there is no transaction in progress");
      if (block.status_ == Status::kFailed) {
        EndBlockSettings(block, false);
        block.Reset();
        return Tagged("ROLLBACK");
      }
      // SET LOCAL ends here whatever becomes of the COMMIT (a COMMIT that then fails
      // with 40001 keeps the block's plain SETs: not PostgreSQL's behaviour).
      EndBlockSettings(block, true);
      commit = CommitBlock(block);
      return {};
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: {
      if (stmt->chain) throw planner::NotSupported("ROLLBACK AND CHAIN");
      if (block.status_ == Status::kIdle) return Warned("ROLLBACK", "there is no transaction in progress");
      EndBlockSettings(block, false);
      block.Reset();  // nothing was written: every try aborted
      return Tagged("ROLLBACK");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: {
      const char* what = TransactionStatementName(stmt->kind);
      if (block.status_ == Status::kIdle)
        throw planner::SqlError(planner::sqlstate::kNoActiveSqlTransaction,
                                fmt::format("{} can only be used in transaction blocks", what));
      const std::string name = stmt->savepoint_name ? stmt->savepoint_name : "";
      if (stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT) {
        if (block.status_ == Status::kFailed) throw AbortedBlock();
        block.savepoints_.push_back({name, block.steps_.size()});
        return Tagged("SAVEPOINT");
      }
      // The innermost savepoint of that name.
      auto it = std::find_if(block.savepoints_.rbegin(), block.savepoints_.rend(),
                             [&](const TransactionBlock::Savepoint& s) { return s.name == name; });
      if (it == block.savepoints_.rend()) {
        if (block.status_ == Status::kFailed && stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE)
          throw AbortedBlock();
        block.status_ = Status::kFailed;
        throw planner::SqlError("3B001", fmt::format("savepoint \"{}\" does not exist", name));
      }
      const size_t at = static_cast<size_t>(block.savepoints_.rend() - it) - 1;  // its index
      if (stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE) {
        if (block.status_ == Status::kFailed) throw AbortedBlock();
        block.savepoints_.resize(at);  // it and every savepoint set after it
        return Tagged("RELEASE");
      }
      // ROLLBACK TO: the steps after it are forgotten (no try wrote them), the savepoint
      // stays, and a failed block works again.
      block.steps_.resize(block.savepoints_[at].steps);
      block.savepoints_.resize(at + 1);
      block.status_ = Status::kInBlock;
      return Tagged("ROLLBACK");
    }
    default:
      throw planner::SqlError(planner::sqlstate::kFeatureNotSupported, "prepared transactions are not supported");
  }
}

PendingResult Session::TryStep(const planner::ParsedStatement& parsed, const std::string& text, TransactionBlock& block) {
  if (block.steps_.size() >= planner::kMaxBlockPart)
    throw planner::SqlError("54000", fmt::format("a transaction block holds at most {} statements that read or write tables",
                                                 planner::kMaxBlockPart));
  BoundStep step = BindStep(parsed.node, std::string(parsed.text));
  if (std::optional<StatementResult> none = StrictNullCall(step.call)) return PendingResult(std::move(*none));
  if (block.whole_) {
    // Not tried: it runs, with the rest of the message, when the block ends.
    TransactionBlock::Step whole;
    whole.text = std::string(parsed.text);
    whole.part.input.args = step.call.args;
    whole.procedure = step.procedure;
    whole.generation = catalog_generation_;
    block.steps_.push_back(std::move(whole));
    return PendingResult(block.whole_->txn, [run = block.whole_, part = block.steps_.size() - 1, call = std::move(step.call),
                                             query = text](engine::TxnResult&& r) {
      return WholeStepResult(run->procedure.get(), part, call, query, r);
    });
  }
  if (std::optional<int64_t> rows = PredictedInsertRows(parsed.node, block)) {
    // Answered without a try: the row count it must have if it succeeds. Its first run
    // is the next try's or COMMIT's, which fail with its error if it has one.
    TransactionBlock::Step predicted;
    predicted.text = std::string(parsed.text);
    predicted.part.input.args = step.call.args;
    engine::BlockPartOutcome outcome;
    outcome.row_count = *rows;
    predicted.part.expected = outcome.Digest();
    predicted.part.predicted = true;
    predicted.procedure = step.procedure;
    predicted.generation = catalog_generation_;
    block.steps_.push_back(std::move(predicted));
    engine::TxnResult shown;
    shown.row_count = *rows;
    return PendingResult(CallResult(step.call, std::move(shown)));
  }
  auto [procedures, parts] = PartsOf(block.steps_);
  procedures.push_back(step.procedure);
  engine::BlockPart fresh;
  fresh.input.args = step.call.args;
  parts.push_back(std::move(fresh));

  auto procedure = std::make_shared<engine::BlockProcedure>(std::move(procedures), engine::BlockMode::kTry,
                                                            std::string(engine::kBlockTryLogIdentity));
  auto promise = std::make_shared<std::promise<engine::TxnResult>>();
  auto pending = std::make_shared<TransactionBlock::PendingTry>();
  pending->txn = promise->get_future().share();
  pending->procedure = procedure;
  pending->call = std::move(step.call);
  pending->text = std::string(parsed.text);
  pending->step_procedure = step.procedure;
  pending->generation = catalog_generation_;
  pending->query = text;
  engine::TxnRequest request;
  request.procedure = procedure.get();
  request.input = engine::BlockProcedure::EncodeInput(parts, block.timestamp_);
  // Shown from the last committed state at once; COMMIT validates what was shown.
  if (std::optional<engine::TxnResult> r = TryOnSnapshot(block, *procedure, request.input))
    return PendingResult(SettleTry(block, *pending, *r));
  request.on_done = [promise, procedure](engine::TxnResult&& r) { promise->set_value(std::move(r)); };
  SubmitToEngine(std::move(request), &block);
  block.pending_ = pending;
  return PendingResult(pending->txn, [this, &block, pending](engine::TxnResult&& r) { return SettleTry(block, *pending, r); });
}

void Session::Settle(TransactionBlock& block) {
  if (!block.pending_) return;
  std::shared_ptr<TransactionBlock::PendingTry> pending = block.pending_;
  SettleTry(block, *pending, pending->txn.get());
}

StatementResult Session::SettleTry(TransactionBlock& block, TransactionBlock::PendingTry& pending, const engine::TxnResult& txn) {
  if (pending.result) return *pending.result;
  if (block.pending_.get() == &pending) block.pending_.reset();
  const engine::BlockProcedure& procedure = *pending.procedure;
  const std::vector<engine::BlockPartOutcome>& outcomes = procedure.outcomes();
  const size_t last = block.steps_.size();  // the new step's index among the parts
  engine::TxnResult shown;
  if (txn.sqlstate == engine::kBlockTryEnd && outcomes.size() == last + 1 && procedure.sequenced_inputs().size() == last + 1) {
    const engine::BlockPartOutcome& outcome = outcomes.back();
    // What the earlier steps drew as they ran this time (nothing new, unless a step took
    // another path than before): the values later runs give them.
    for (size_t p = 0; p < last; ++p) {
      engine::BlockPart& part = block.steps_[p].part;
      part.execution_draws = outcomes[p].draws;
      if (!part.sequenced) {  // a predicted step, run for the first time
        part.input = procedure.sequenced_inputs()[p];
        part.sequenced = true;
      }
    }
    TransactionBlock::Step step;
    step.text = pending.text;
    step.part.input = procedure.sequenced_inputs().back();
    step.part.sequenced = true;
    step.part.execution_draws = outcome.draws;
    step.part.expected = outcome.Digest();
    step.procedure = pending.step_procedure;
    step.generation = pending.generation;
    block.steps_.push_back(std::move(step));
    shown.rows = outcome.rows;
    shown.row_count = outcome.row_count;
    shown.notices = outcome.notices;
  } else {
    // The statement failed, or an earlier one now gives another result (40001): the
    // block fails either way, and what its tries ran was never written.
    block.status_ = TransactionBlock::Status::kFailed;
    shown = txn;
    if (txn.sqlstate == engine::kBlockTryEnd) {
      shown.sqlstate = planner::sqlstate::kInternalError;
      shown.message = "internal error: a transaction block's try ended without its statement's outcome";
    }
    if (procedure.stopped_at() == static_cast<int>(last) && outcomes.size() == last + 1)
      shown.notices = outcomes.back().notices;
  }
  StatementResult result = CallResult(pending.call, std::move(shown));
  if (result.error) result.error->query = pending.query;
  pending.result = result;
  return result;
}

PendingResult Session::CommitBlock(TransactionBlock& block) {
  std::vector<TransactionBlock::Step> steps = std::move(block.steps_);
  const int64_t timestamp = block.timestamp_;
  block.Reset();
  if (steps.empty()) return PendingResult(Tagged("COMMIT"));
  auto [procedures, parts] = PartsOf(steps);
  auto procedure =
      std::make_shared<engine::BlockProcedure>(std::move(procedures), engine::BlockMode::kCommit, BlockIdentity(steps));
  auto promise = std::make_shared<std::promise<engine::TxnResult>>();
  std::shared_future<engine::TxnResult> future = promise->get_future().share();
  engine::TxnRequest request;
  request.procedure = procedure.get();
  request.input = engine::BlockProcedure::EncodeInput(parts, timestamp);
  request.on_done = [promise, procedure](engine::TxnResult&& r) { promise->set_value(std::move(r)); };
  SubmitToEngine(std::move(request), &block);
  return PendingResult(std::move(future), CommitOutcome);
}

bool Session::BeginImplicitBlock(const planner::ParseTree& tree, TransactionBlock& block) {
  if (tree.statements().size() < 2 || block.status_ != TransactionBlock::Status::kIdle) return false;
  // Statements of the tables, and queries, SHOW and EXPLAIN, which change nothing; a
  // message with DDL, COPY or SET keeps running statement by statement.
  bool any_step = false;
  for (const planner::ParsedStatement& s : tree.statements()) {
    if (s.node == nullptr) return false;
    const bool step = IsBlockStep(s.node);
    any_step = any_step || step;
    switch (s.node->node_case) {
      case PG_QUERY__NODE__NODE_SELECT_STMT:
        if (s.node->select_stmt->into_clause) return false;
        break;
      case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      case PG_QUERY__NODE__NODE_EXPLAIN_STMT: break;
      default:
        if (!step) return false;
    }
  }
  if (!any_step) return false;
  block.Reset();
  block.status_ = TransactionBlock::Status::kInBlock;
  block.timestamp_ = planner::WallClockTimestamp();
  block.whole_ = std::make_shared<TransactionBlock::WholeRun>();
  return true;
}

std::optional<PendingResult> Session::EndImplicitBlock(TransactionBlock& block, bool failed) {
  Settle(block);
  if (block.whole_) return RunWholeBlock(block, failed);
  if (failed || block.status_ != TransactionBlock::Status::kInBlock) {
    block.Reset();  // PostgreSQL rolls the whole message back
    return std::nullopt;
  }
  return CommitBlock(block);
}

StatementResult Session::SetInBlock(const PgQuery__Node* stmt, TransactionBlock& block) {
  const PgQuery__VariableSetStmt* set = stmt->variable_set_stmt;
  const std::string name = set->name ? set->name : "";
  std::optional<std::string> previous;
  if (set->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL)  // throws if unknown
    previous = settings_.IsPlaceholder(name) ? std::string() : settings_.Get(name);
  if (previous && settings_.IsPlaceholder(name)) {
    try {
      previous = settings_.Get(name);
    } catch (const planner::SqlError&) {
      // A placeholder the block creates: it ends empty, as PostgreSQL's does.
    }
  }
  if (!block.settings_at_start_) block.settings_at_start_ = settings_;
  StatementResult done = RunSetting(stmt, true);
  if (set->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL)
    block.local_restore_.clear();
  else if (set->is_local)
    block.local_restore_.try_emplace(name, *previous);
  else
    block.local_restore_.erase(name);
  return done;
}

void Session::EndBlockSettings(TransactionBlock& block, bool committed) {
  if (!block.settings_at_start_) return;
  std::vector<std::pair<std::string, std::string>> restore;
  if (committed) {
    restore.assign(block.local_restore_.begin(), block.local_restore_.end());
  } else {
    const planner::ResultSet then = block.settings_at_start_->ShowAll(), now = settings_.ShowAll();
    for (size_t i = 0; i < then.rows.size() && i < now.rows.size(); ++i)
      if (then.rows[i][1] != now.rows[i][1]) restore.emplace_back(*then.rows[i][0], then.rows[i][1].value_or(""));
    for (const auto& [name, value] : settings_.placeholders()) {
      auto it = block.settings_at_start_->placeholders().find(name);
      const std::string start = it == block.settings_at_start_->placeholders().end() ? "" : it->second;
      if (start != value) restore.emplace_back(name, start);
    }
  }
  block.settings_at_start_.reset();
  block.local_restore_.clear();
  if (restore.empty()) return;
  const SettingsSnapshot before = TakeSettingsSnapshot();
  for (const auto& [name, value] : restore) settings_.Set(name, std::vector<std::string>{value});
  ApplySettings(before);
}

std::optional<PendingResult> Session::RunWholeBlock(TransactionBlock& block, bool failed) {
  std::shared_ptr<TransactionBlock::WholeRun> run = block.whole_;
  const bool commit = !failed && block.status_ == TransactionBlock::Status::kInBlock;
  std::vector<TransactionBlock::Step> steps = std::move(block.steps_);
  const int64_t timestamp = block.timestamp_;
  std::shared_ptr<engine::BlockProcedure> procedure;
  std::vector<engine::BlockPart> parts;
  try {
    auto [procedures, step_parts] = PartsOf(steps);
    parts = std::move(step_parts);
    // Nothing of the message has been shown: no outcome to validate. A message that
    // failed runs its statements before the failure only to show what they did.
    procedure = std::make_shared<engine::BlockProcedure>(
        std::move(procedures), commit ? engine::BlockMode::kCommit : engine::BlockMode::kTry,
        commit ? BlockIdentity(steps) : std::string(engine::kBlockTryLogIdentity));
  } catch (...) {
    block.Reset();  // its statements' results say they were not run
    throw;
  }
  run->procedure = procedure;
  block.Reset();
  engine::TxnRequest request;
  request.procedure = procedure.get();
  request.input = engine::BlockProcedure::EncodeInput(parts, timestamp);
  if (!commit)
    if (std::optional<engine::TxnResult> r = TryOnSnapshot(block, *procedure, request.input)) {
      run->promise->set_value(std::move(*r));
      return std::nullopt;
    }
  request.on_done = [run](engine::TxnResult&& r) { run->promise->set_value(std::move(r)); };
  SubmitToEngine(std::move(request), &block);
  if (!commit) return std::nullopt;
  return PendingResult(run->txn, CommitOutcome);
}

Session::BlockParts Session::PartsOf(std::vector<TransactionBlock::Step>& steps) {
  BlockParts out;
  for (TransactionBlock::Step& s : steps) {
    out.procedures.push_back(StepProcedure(s));
    out.parts.push_back(s.part);
  }
  return out;
}

std::optional<engine::TxnResult> Session::TryOnSnapshot(const TransactionBlock& block, const engine::Procedure& procedure,
                                                        const engine::TxnInput& input) {
  if (block.in_flight_->load(std::memory_order_acquire) != 0 || !settings_.GetBool("caracal.snapshot_tries"))
    return std::nullopt;
  engine::WorkerScratch scratch;
  return engine::RunOnSnapshot(*db_, procedure, input, scratch);
}

std::string Session::BlockIdentity(const std::vector<TransactionBlock::Step>& steps) {
  // "block:" then each step's text as its byte length, a colon and the text.
  std::string out(kBlockPrefix);
  for (const TransactionBlock::Step& s : steps) out += fmt::format("{}:{}", s.text.size(), s.text);
  return out;
}

std::optional<std::vector<std::string>> Session::BlockTexts(std::string_view identity) {
  if (!identity.starts_with(kBlockPrefix)) return std::nullopt;
  std::vector<std::string> texts;
  std::string_view rest = identity.substr(kBlockPrefix.size());
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    size_t n = 0;
    for (char c : rest.substr(0, colon)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<size_t>(c - '0');
    }
    rest.remove_prefix(colon + 1);
    if (n > rest.size()) return std::nullopt;
    texts.emplace_back(rest.substr(0, n));
    rest.remove_prefix(n);
  }
  return texts;
}

}  // namespace caracal::frontend
