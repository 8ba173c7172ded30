#include "codegen/interpreter/procedure_interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "codegen/interpreter/sequence_names.h"
#include "codegen/jit/compiled_exprs.h"
#include "codegen/runtime/engine_row_sources.h"
#include "codegen/runtime/error_context.h"
#include "codegen/runtime/statement_runtime.h"
#include "codegen/jit/row_writes.h"
#include "codegen/runtime/table_access.h"
#include "planner/expr/domain_check.h"
#include "planner/catalog/constraint_errors.h"
#include "engine/storage/table.h"
#include "planner/plan/access_path.h"
#include "planner/types/cast.h"
#include "planner/expr/expr_eval.h"
#include "planner/plan/ir_visit.h"
#include "planner/exec/array_query.h"
#include "planner/exec/query_exec.h"
#include "planner/exec/select_exec.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::EvalContext;
using planner::SqlError;
using planner::Stmt;
using planner::StmtKind;
using planner::ForEachOwnExpr;

namespace {
// The statement number of the rows nested calls insert into tables without a primary key
// (no procedure has that many statements).
constexpr uint32_t kNestedCallStatement = planner::kMaxIdentityStatement;
}  // namespace

int FindDeclaredRange(const std::vector<engine::Value>& scratch, int stmt_id, const engine::Key& lo, const engine::Key& hi) {
  int range_id = 0;
  for (size_t i = 0; i + 2 < scratch.size(); i += 3, ++range_id) {
    if (scratch[i].as_int() != stmt_id) continue;
    if (scratch[i + 1].as_string() == lo.view() && scratch[i + 2].as_string() == hi.view()) return range_id;
  }
  return -1;
}

void RecordDeclaredRange(std::vector<engine::Value>& scratch, int stmt_id, const engine::Key& lo, const engine::Key& hi) {
  scratch.push_back(engine::Value::Int(stmt_id));
  scratch.push_back(engine::Value::String(std::string(lo.view())));
  scratch.push_back(engine::Value::String(std::string(hi.view())));
}


planner::RowIdentity ProcedureInterpreter::NextRowIdentity(const Stmt& s, uint64_t serial_id, uint32_t part) {
  // A called function's statement ids are its own: its rows are numbered across the
  // transaction instead, under a statement number no procedure has (only serial
  // transactions' calls write, so nothing declared these identities before).
  if (nested()) return planner::RowIdentityOf(serial_id, part, kNestedCallStatement, (*nested_identity_rows_)++);
  if (s.id < 0 || static_cast<uint32_t>(s.id) >= kNestedCallStatement)
    throw SqlError("54000", fmt::format("{} has too many statements to insert into a table without a primary key", ir_.name));
  const size_t at = static_cast<size_t>(s.id);
  if (identity_rows_.size() <= at) identity_rows_.resize(at + 1, 0);
  return planner::RowIdentityOf(serial_id, part, static_cast<uint32_t>(s.id), identity_rows_[at]++);
}

void ProcedureInterpreter::RunInit() {
  InitializeLocals(ir_, frame_, this, /*for_init=*/true);
  RunBlock(ir_.init);
}

void ProcedureInterpreter::Run() {
  InitializeLocals(ir_, frame_, this);
  RunBlock(ir_.body);
  Finish();
}

void ProcedureInterpreter::Finish() {
  if (foreign_keys_ && foreign_keys_->has_pending()) foreign_keys_->EndOfStatement();
  // With a WITH query's writes before it, the statement's own count is ROW_COUNT.
  if (ir_.is_ad_hoc_dml())
    exec_->SetRowCount(ir_.row_count_variable >= 0 ? frame_.var(ir_.row_count_variable).i : rows_processed_);
  // A function with OUT parameters (and no SETOF) returns their final values.
  // A function with OUT parameters (and no SETOF), or a procedure with INOUT ones,
  // returns their final values.
  if (!ir_.out_variables.empty() && ir_.returns != planner::ProcedureIr::Returns::kTable &&
      ir_.returns != planner::ProcedureIr::Returns::kSetOf) {
    std::vector<Datum> values;
    for (int slot : ir_.out_variables) values.push_back(frame_.var(slot));
    EmitRow(values);
    returned_value_ = true;
  }
  if (!returned_value_ && ir_.kind == planner::ProcedureIr::Kind::kFunction &&
      ir_.returns == planner::ProcedureIr::Returns::kScalar)
    throw SqlError("2F005", "control reached end of function without RETURN");
}

std::vector<Datum>& ProcedureInterpreter::NewValuesBuffer(const Stmt& s) {
  if (statement_values_ == nullptr || s.id < 0) return new_values_;
  if (static_cast<size_t>(s.id) >= statement_values_->size()) statement_values_->resize(static_cast<size_t>(s.id) + 1);
  return (*statement_values_)[static_cast<size_t>(s.id)];
}

void ProcedureInterpreter::set_compiled(const CompiledExprs* compiled) {
  compiled_ = compiled;
  accelerator_ = compiled;
}

namespace {

// An INSERT's or UPDATE's filter and new values (CompiledExprs::NewValues), compiled or not.
bool NewValues(const Stmt& s, const EvalContext& ctx, const CompiledExprs* compiled, std::vector<Datum>& values) {
  if (compiled != nullptr) return compiled->NewValues(s, ctx, values);
  if (s.filter && !planner::EvalCondition(*s.filter, ctx)) return false;
  values.clear();
  if (s.kind == StmtKind::kInsert)
    for (const auto& e : s.row_values) values.push_back(planner::Eval(*e, ctx));
  else
    for (const auto& [col, e] : s.assignments) values.push_back(planner::Eval(*e, ctx));
  return true;
}

}  // namespace

planner::EvalContext ProcedureInterpreter::FrameContext() const {
  EvalContext ctx;
  ctx.variables = frame_.vars;
  ctx.accelerator = accelerator_;
  ctx.routines = this;
  return ctx;
}

Datum ProcedureInterpreter::Eval(const planner::Expr& e) const {
  EvalContext ctx = FrameContext();
  return planner::Eval(e, ctx);
}

bool ProcedureInterpreter::Condition(const planner::Expr& e) const {
  EvalContext ctx = FrameContext();
  return planner::EvalCondition(e, ctx);
}

void ProcedureInterpreter::Assign(int slot, Datum value, const planner::SqlType& from) {
  const planner::Variable& v = ir_.variables[slot];
  if (!value.is_null() && !(from == v.type) && !planner::CastKeepsValue(value, from, v.type)) {
    try {
      value = planner::CastDatum(value, from, v.type, false);
    } catch (SqlError& e) {
      e.AtPlpgsqlLevel();  // into a variable: PL/pgSQL's doing, not the SQL's
      throw;
    }
  }
  if (v.type.domain && from.domain != v.type.domain) {
    try {
      value = planner::CheckDomain(v.type, std::move(value));
    } catch (SqlError& e) {
      e.AtPlpgsqlLevel();
      throw;
    }
  }
  if (value.is_null() && v.not_null)
    throw SqlError("22004", fmt::format("null value cannot be assigned to variable \"{}\" declared NOT NULL", v.name))
        .AtPlpgsqlLevel();
  frame_.var(slot) = std::move(value);
}

void ProcedureInterpreter::SetFound(bool found) {
  // In place: every table statement sets FOUND.
  if (ir_.found_variable >= 0) planner::SetScalarDatum(frame_.var(ir_.found_variable), Datum::Kind::kBool, found);
}

Flow ProcedureInterpreter::AfterIteration(const Stmt& loop, Flow f, bool& stop) {
  if (f == Flow::kNext) return Flow::kNext;
  if (f == Flow::kReturn) return f;
  // EXIT/CONTINUE: this loop's, unless it names an outer loop's label.
  if (!pending_label_.empty() && pending_label_ != loop.label) return f;
  pending_label_.clear();
  stop = f == Flow::kExit;
  return Flow::kNext;
}

Flow ProcedureInterpreter::RunBlock(const planner::Block& block) {
  for (const auto& s : block) {
    Flow f = RunStmt(*s);
    if (f != Flow::kNext) return f;
  }
  return Flow::kNext;
}

Flow ProcedureInterpreter::RunStmt(const Stmt& s) {
  try {
    if (!s.draws.empty()) DrawSequences(s);
    const Flow flow = ir_.row_count_variable < 0 ? RunStmtKind(s) : RunCountingRows(s);
    // An ad-hoc statement's checks wait for its last row (Finish).
    if (foreign_keys_ && foreign_keys_->has_pending() && !ir_.is_ad_hoc_dml()) foreign_keys_->EndOfStatement();
    return flow;
  } catch (SqlError& e) {
    if (foreign_keys_) foreign_keys_->Discard();
    AddStatementContext(e, ir_, s);  // kept if an inner statement set it
    throw;
  }
}

void ProcedureInterpreter::DrawSequences(const Stmt& s) {
  if (exec_ == nullptr)
    throw SqlError("XX000", fmt::format("internal error: statement {} (line {}) draws sequence values outside execution",
                                        s.id, s.line));
  const EvalContext ctx = FrameContext();
  for (int i : s.draws) {
    const planner::SequenceCall& call = ir_.live_sequence_calls[static_cast<size_t>(i)];
    frame_.var(call.variable) = Datum::Int(exec_->NextVal(SequenceEngineName(call, ctx, catalog_)));
  }
}

Flow ProcedureInterpreter::RunCountingRows(const Stmt& s) {
  if (s.collect) return RunStmtKind(s);  // a FOR over a query leaves ROW_COUNT alone
  switch (s.kind) {
    case StmtKind::kSelectInto:
    case StmtKind::kInsert:
    case StmtKind::kUpdate:
    case StmtKind::kDelete:
    case StmtKind::kReturnQuery: break;
    default: return RunStmtKind(s);
  }
  const int64_t written_before = rows_processed_;
  statement_rows_ = -1;
  const Flow flow = RunStmtKind(s);
  const int64_t rows = statement_rows_ >= 0 ? statement_rows_ : rows_processed_ - written_before;
  frame_.var(ir_.row_count_variable) = Datum::Int(rows);
  return flow;
}

Flow ProcedureInterpreter::RunStmtKind(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::kNull: return Flow::kNext;
    case StmtKind::kDeclare: RunDeclare(s); return Flow::kNext;
    case StmtKind::kReconRead: RunReconRead(s); return Flow::kNext;
    case StmtKind::kAssign: Assign(s.target, Eval(*s.value), s.value->type); return Flow::kNext;
    case StmtKind::kIf:
      for (size_t i = 0; i < s.conds.size(); ++i)
        if (Condition(*s.conds[i])) return RunBlock(s.blocks[i]);
      return RunBlock(s.else_block);
    case StmtKind::kForRange: {
      Datum lo = Eval(*s.lower), hi = Eval(*s.upper);
      if (lo.is_null() || hi.is_null())
        throw SqlError("22004", fmt::format("{} bound of FOR loop cannot be null", lo.is_null() ? "lower" : "upper"));
      int64_t step = 1;
      if (s.step) {
        Datum st = Eval(*s.step);
        if (st.is_null()) throw SqlError("22004", "BY value of FOR loop cannot be null");
        if (st.i <= 0) throw SqlError("22023", "BY value of FOR loop must be greater than zero");
        step = st.i;
      }
      bool iterated = false;
      for (int64_t i = lo.i; s.reverse ? i >= hi.i : i <= hi.i; i += s.reverse ? -step : step) {
        iterated = true;
        frame_.var(s.target) = Datum::Int(i);
        bool stop = false;
        if (Flow f = AfterIteration(s, RunBlock(s.body), stop); f != Flow::kNext) return f;
        if (stop) break;
      }
      SetFound(iterated);
      return Flow::kNext;
    }
    case StmtKind::kForEach: {
      Datum array = Eval(*s.value);
      if (array.is_null()) throw SqlError("22004", "FOREACH expression must not be null");
      bool iterated = false;
      // Holding the shared elements keeps them alive if the loop reassigns the array.
      std::shared_ptr<const std::vector<Datum>> elements = array.array;
      planner::SqlType element_type = s.value->type.Element();
      for (const Datum& e : *elements) {
        iterated = true;
        Assign(s.target, e, element_type);
        bool stop = false;
        if (Flow f = AfterIteration(s, RunBlock(s.body), stop); f != Flow::kNext) return f;
        if (stop) break;
      }
      SetFound(iterated);
      return Flow::kNext;
    }
    case StmtKind::kWhile:
      while (!s.conds.empty() ? Condition(*s.conds[0]) : true) {
        bool stop = false;
        if (Flow f = AfterIteration(s, RunBlock(s.body), stop); f != Flow::kNext) return f;
        if (stop) break;
      }
      return Flow::kNext;
    case StmtKind::kExit:
    case StmtKind::kContinue:
      if (!s.conds.empty() && !Condition(*s.conds[0])) return Flow::kNext;
      pending_label_ = s.label;
      return s.kind == StmtKind::kExit ? Flow::kExit : Flow::kContinue;
    case StmtKind::kSelectInto: RunSelectInto(s); return Flow::kNext;
    case StmtKind::kReturnQuery: RunReturnQuery(s); return Flow::kNext;
    case StmtKind::kInsert: RunInsert(s); return Flow::kNext;
    case StmtKind::kUpdate: RunUpdate(s); return Flow::kNext;
    case StmtKind::kDelete: RunDelete(s); return Flow::kNext;
    case StmtKind::kRaise: RunRaise(s); return Flow::kNext;
    case StmtKind::kReturn: RunReturn(s); return Flow::kReturn;
    case StmtKind::kReturnNext: RunReturnNext(s); return Flow::kNext;
    case StmtKind::kPublish: Publish(); return Flow::kNext;
    case StmtKind::kExceptionBlock: return RunExceptionBlock(s);
  }
  return Flow::kNext;
}

Flow ProcedureInterpreter::RunStatementWithKey(const Stmt& s, const engine::Key* key) {
  struct Reset {
    PresetKey& preset;
    ~Reset() { preset = {}; }
  } reset{preset_key_};
  preset_key_ = {true, key};
  return RunStmt(s);
}

const engine::Key* ProcedureInterpreter::WhereKeyOf(const Stmt& s, std::optional<engine::Key>& computed) {
  if (preset_key_.set) return preset_key_.key;
  EvalContext ctx = FrameContext();
  computed = PointKey(*s.table, s.where_key, ctx);
  return computed ? &*computed : nullptr;
}

std::optional<engine::Key> ProcedureInterpreter::ReadKeyOf(const Stmt& s) {
  if (preset_key_.set) return PresetKeyValue();
  EvalContext ctx = FrameContext();
  planner::KeyRange range = planner::ResolveAccessPath(s.select->access, *s.table, ctx);
  if (!range.point || range.empty) return std::nullopt;
  return std::move(range.lo);
}

const engine::RowValue* ProcedureInterpreter::ReadRow(const Stmt& s, const engine::Key& key) {
  if (exec_ == nullptr)
    throw SqlError("XX000", fmt::format("internal error: statement {} (line {}) read a row outside the body", s.id, s.line));
  return exec_->Read(s.table->id, key);
}

namespace {

// An ExecRowSource that keeps what a primary-key range scan visits, for statement
// `consumer`, when the scan runs to its end.
class RangeKeepingRowSource final : public planner::RowSource {
 public:
  RangeKeepingRowSource(engine::ExecContext& ctx, KeptRangeRows& kept, int consumer)
      : ctx_(ctx), kept_(kept), consumer_(consumer) {}
  const engine::Schema& schema(engine::TableId table) override { return ctx_.table(table).schema(); }
  const engine::RowValue* Read(engine::TableId table, const engine::Key& key) override { return ctx_.Read(table, key); }
  void Scan(engine::TableId table, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    kept_.consumer = -1;
    kept_.rows.clear();
    visit_ = &visit;
    whole_ = true;
    // Capturing only `this`, the std::function holds the lambda without allocating.
    ctx_.Scan(table, lo, hi, [this](const engine::Key& k, const engine::RowValue& v) {
      kept_.rows.emplace_back(&k, &v);
      return whole_ = (*visit_)(k, v);
    });
    if (!whole_) return;
    kept_.consumer = consumer_;
    kept_.table = table;
    kept_.lo = lo;
    kept_.hi = hi;
  }
  void ScanIndex(engine::TableId table, int index, const engine::Key& lo, const engine::Key& hi, const planner::RowVisitor& visit) override {
    ctx_.ScanIndex(table, index, lo, hi, visit);
  }

 private:
  engine::ExecContext& ctx_;
  KeptRangeRows& kept_;
  const int consumer_;
  const planner::RowVisitor* visit_ = nullptr;
  bool whole_ = true;
};

}  // namespace

void ProcedureInterpreter::RunSelectInto(const Stmt& s) {
  if (s.feeds_range_write >= 0) {
    kept_range_.consumer = -1;
    RangeKeepingRowSource source(*exec_, kept_range_, s.feeds_range_write);
    source.routines = this;
    SelectInto(s, source);
    return;
  }
  ExecRowSource source(*exec_);
  source.routines = this;
  SelectInto(s, source);
}

void ProcedureInterpreter::SelectInto(const Stmt& s, planner::RowSource& source) {
  if (s.collect) return CollectRows(s, source);
  if (s.point_lookup) {
    // One row by its primary key: read it and assign the outputs directly.
    EvalContext ctx = FrameContext();
    std::optional<engine::Key> key = ReadKeyOf(s);
    const engine::RowValue* row = key ? source.Read(s.table->id, *key) : nullptr;
    if (s.strict && row == nullptr) throw SqlError("P0002", "query returned no rows").AtPlpgsqlLevel();
    SetFound(row != nullptr);
    statement_rows_ = row != nullptr ? 1 : 0;
    if (row == nullptr) {
      for (size_t i = 0; i < s.into.size(); ++i) Assign(s.into[i], Datum::Null(), planner::SqlType());
      return;
    }
    ctx.row = row;
    ctx.schema = &source.schema(s.table->id);
    if (s.into_reads_targets) {
      // The whole row first: an output reads a target assigned before it.
      std::vector<Datum> values;
      for (size_t i = 0; i < s.into.size() && i < s.select->columns.size(); ++i)
        values.push_back(planner::Eval(*s.select->outputs[i], ctx));
      for (size_t i = 0; i < values.size(); ++i) Assign(s.into[i], std::move(values[i]), s.select->columns[i].type);
    } else {
      for (size_t i = 0; i < s.into.size() && i < s.select->columns.size(); ++i) {
        const planner::Expr& out = *s.select->outputs[i];
        const planner::Variable& v = ir_.variables[s.into[i]];
        if (out.kind == planner::ExprKind::kSlot && out.slot.space == planner::SlotSpace::kColumn && out.type == v.type &&
            !v.not_null) {
          // A column into a variable of its type: copied in place.
          planner::DatumFromRowInto(*row, out.slot.index, ctx.schema->column(out.slot.index), frame_.var(s.into[i]));
          continue;
        }
        Assign(s.into[i], planner::Eval(out, ctx), s.select->columns[i].type);
      }
    }
    for (size_t i = s.select->columns.size(); i < s.into.size(); ++i) Assign(s.into[i], Datum::Null(), planner::SqlType());
    // The outputs no target takes (PERFORM's, all of them) are still computed: they may raise.
    for (size_t i = s.into.size(); i < s.select->columns.size(); ++i) {
      const planner::Expr& out = *s.select->outputs[i];
      if (out.kind != planner::ExprKind::kConst && out.kind != planner::ExprKind::kSlot) (void)planner::Eval(out, ctx);
    }
    return;
  }
  std::vector<std::vector<Datum>> rows = QueryRows(s, source);
  if (s.expression_query) {
    if (rows.size() > 1) throw SqlError("21000", "query returned more than one row").AtPlpgsqlLevel();
    Assign(s.into[0], rows.empty() ? Datum::Null() : std::move(rows[0][0]), planner::QueryColumns(s)[0].type);
    return;
  }
  CheckStrict(s, static_cast<int64_t>(rows.size()));
  SetFound(!rows.empty());
  // As PL/pgSQL: SELECT INTO takes (and counts) one row, PERFORM counts them all.
  statement_rows_ = s.into.empty() ? static_cast<int64_t>(rows.size()) : std::min<int64_t>(1, static_cast<int64_t>(rows.size()));
  if (s.into.empty()) return;
  const std::vector<planner::OutputColumn>& columns = planner::QueryColumns(s);
  for (size_t i = 0; i < s.into.size(); ++i) {
    Datum v = rows.empty() || i >= columns.size() ? Datum::Null() : std::move(rows[0][i]);
    Assign(s.into[i], std::move(v), i < columns.size() ? columns[i].type : planner::SqlType());
  }
}

std::vector<std::vector<Datum>> ProcedureInterpreter::QueryRows(const Stmt& s, planner::RowSource& source) {
  if (!s.query) return planner::SelectRows(*s.select, source, frame_.vars, accelerator_);
  // As PL/pgSQL: SELECT INTO stops at the first row (STRICT at the second, to tell it is
  // not alone); PERFORM and FOR run the query to its end.
  const size_t wanted = s.collect || s.into.empty() ? SIZE_MAX : s.strict || s.expression_query ? 2 : 1;
  std::vector<std::vector<Datum>> rows;
  planner::RunQuery(*s.query, source, frame_.vars, [&](std::span<const Datum> row) {
    rows.emplace_back(row.begin(), row.end());
    return rows.size() < wanted;
  });
  return rows;
}

bool ProcedureInterpreter::CollectUnnest(const Stmt& s) {
  if (!s.query) return false;
  std::optional<std::vector<Datum>> columns = planner::RunOverArrays(*s.query, frame_.vars);
  if (!columns) return false;
  const size_t rows = columns->empty() ? 0 : (*columns)[0].array->size();
  for (size_t c = 0; c < columns->size() && c + 1 < s.into.size(); ++c) frame_.var(s.into[c]) = std::move((*columns)[c]);
  frame_.var(s.into.back()) = Datum::Int(static_cast<int64_t>(rows));
  return true;
}

void ProcedureInterpreter::CollectRows(const Stmt& s, planner::RowSource& source) {
  // A query of unnest(a, b, ...) of variables: on the arrays themselves.
  if (CollectUnnest(s)) return;
  std::vector<std::vector<Datum>> rows = QueryRows(s, source);
  for (size_t c = 0; c + 1 < s.into.size(); ++c) {
    std::vector<Datum> column;
    column.reserve(rows.size());
    for (std::vector<Datum>& row : rows) column.push_back(std::move(row[c]));
    frame_.var(s.into[c]) = Datum::Array(std::move(column));
  }
  frame_.var(s.into.back()) = Datum::Int(static_cast<int64_t>(rows.size()));
}

void ProcedureInterpreter::RunReturnQuery(const Stmt& s) {
  ExecRowSource source(*exec_);
  source.routines = this;
  const std::vector<planner::OutputColumn>& query_columns = planner::QueryColumns(s);
  const size_t columns = std::min(ir_.result_columns.size(), query_columns.size());
  // Straight to the client's values: a cast only where the query's column type differs
  // (the same columns for every row).
  std::vector<uint8_t> cast(columns);
  for (size_t c = 0; c < columns; ++c) {
    const planner::SqlType& from = query_columns[c].type;
    const planner::SqlType& to = ir_.result_columns[c].type;
    cast[c] = !(from == to || to == from.Base());
  }
  int64_t emitted = 0;
  // Each row is emitted as the query produces it (no result set in between).
  auto emit = [&](std::span<const Datum> row) {
    ++emitted;
    std::vector<engine::Value> out;
    out.reserve(columns);
    for (size_t c = 0; c < columns && c < row.size(); ++c) {
      const planner::SqlType& to = ir_.result_columns[c].type;
      if (row[c].is_null() || !cast[c])
        out.push_back(planner::DatumToResultValue(row[c], to));
      else
        out.push_back(planner::DatumToResultValue(planner::CastDatum(row[c], query_columns[c].type, to, false), to));
    }
    exec_->Emit(std::move(out));
    return true;
  };
  if (s.query) planner::RunQuery(*s.query, source, frame_.vars, emit);
  else planner::ForEachSelectedRow(*s.select, source, frame_.vars, accelerator_, emit);
  SetFound(emitted > 0);
  statement_rows_ = emitted;
}

void ProcedureInterpreter::EmitRow(const std::vector<Datum>& values) {
  if (call_results_ != nullptr) {
    call_results_->push_back(values);
    return;
  }
  std::vector<engine::Value> row;
  row.reserve(values.size());
  for (size_t c = 0; c < values.size(); ++c) row.push_back(planner::DatumToResultValue(values[c], ir_.result_columns[c].type));
  exec_->Emit(std::move(row));
}

void ProcedureInterpreter::Returning(const Stmt& s, const engine::Schema& schema, const engine::RowValue& row) {
  if (s.returning.empty()) return;
  EvalContext ctx = FrameContext();
  ctx.row = &row;
  ctx.schema = &schema;
  if (compiled_ != nullptr && compiled_->ReturningInto(s, ctx)) return;
  std::vector<Datum>& values = returned_;
  if (compiled_ != nullptr) {
    compiled_->Returning(s, ctx, values);
  } else {
    values.clear();
    for (const auto& e : s.returning) values.push_back(planner::Eval(*e, ctx));
  }
  if (s.append_returning) {
    for (size_t i = 0; i < s.into.size() && i < values.size(); ++i) AppendElement(frame_.var(s.into[i]), std::move(values[i]));
    return;
  }
  for (size_t i = 0; i < s.into.size() && i < values.size(); ++i)
    Assign(s.into[i], s.emit_returning ? values[i] : std::move(values[i]), s.returning[i]->type);
  if (s.emit_returning) {
    std::vector<Datum> out;
    for (size_t c = 0; c < values.size(); ++c) {
      const planner::SqlType& to = ir_.result_columns.at(c).type;
      const planner::SqlType& from = s.returning[c]->type;
      Datum& v = values[c];
      out.push_back(!v.is_null() && !(from == to) ? planner::CastDatum(v, from, to, false) : v);
    }
    EmitRow(out);
  }
}

void ProcedureInterpreter::RunInsert(const Stmt& s) {
  const planner::TableInfo& table = *s.table;
  engine::Table& engine_table = exec_->table(table.id);
  const engine::Schema& schema = engine_table.schema();
  if (compiled_ != nullptr && InsertCompiledRow(s, schema)) return;
  std::vector<Datum>& values = NewValuesBuffer(s);
  NewValues(s, FrameContext(), compiled_, values);
  if (table.HasRowIdentity()) {
    const planner::RowIdentity id = NextRowIdentity(s, exec_->serial_id(), exec_->block_part());
    values.push_back(Datum::Int(id.xact));
    values.push_back(Datum::Int(id.item));
  }
  engine::Key key = PrimaryKeyOf(table, values);
  engine::RowValuePtr row = BuildRow(table, schema, values);
  const engine::RowValue* written = row.get();
  if (UniqueRefusesInsert(s, key, *row)) return;
  if (exec_->Insert(table.id, key, std::move(row))) {
    if (ChecksForeignKeys(s)) foreign_keys().Written(table, *written, nullptr);
    ++rows_processed_;
    SetFound(true);
    Returning(s, schema, *written);
    return;
  }
  // A taken primary key raises unless the primary key is the ON CONFLICT target.
  if (s.on_conflict == planner::OnConflict::kNone || !s.conflict_index.empty()) ThrowDuplicateKey(table, values);
  if (s.on_conflict == planner::OnConflict::kDoNothing) {
    SetFound(false);
    ReturnedNoRow(s);
    return;
  }
  // DO UPDATE: the existing row, with EXCLUDED naming the row proposed for insertion.
  const engine::RowValue* old = exec_->Read(table.id, key);
  engine::RowValuePtr proposed = BuildRow(table, schema, values);
  EvalContext ctx = FrameContext();
  ctx.row = old;
  ctx.schema = &schema;
  ctx.excluded = proposed.get();
  if (s.conflict_filter && !planner::EvalCondition(*s.conflict_filter, ctx)) {
    SetFound(false);
    ReturnedNoRow(s);
    return;
  }
  std::vector<Datum> updated = RowDatums(schema, *old);
  std::vector<Datum> assigned;
  for (const auto& [col, e] : s.assignments) assigned.push_back(planner::Eval(*e, ctx));
  for (size_t i = 0; i < s.assignments.size(); ++i) updated[s.assignments[i].first] = std::move(assigned[i]);
  if (PrimaryKeyOf(table, updated).view() != key.view())
    throw SqlError(planner::sqlstate::kFeatureNotSupported, "ON CONFLICT DO UPDATE of a primary-key column is not supported");
  engine::RowValuePtr new_row = BuildRow(table, schema, updated);
  CheckUniqueUpdate(table, key, *new_row, *old);
  const engine::RowValue& upserted = *new_row;
  exec_->Update(table.id, key, std::move(new_row));
  if (ChecksForeignKeys(s)) foreign_keys().Written(table, upserted, old);
  ++rows_processed_;
  SetFound(true);
  if (!s.returning.empty()) Returning(s, schema, *exec_->Read(table.id, key));
}

bool ProcedureInterpreter::InsertCompiledRow(const Stmt& s, const engine::Schema& schema) {
  engine::RowValuePtr row;
  if (compiled_->BuildRow(s, FrameContext(), schema, row) != kRowWritten) return false;
  // The key compiled code computed from the same VALUES (every part in range, as the
  // written row's are), else read back from the row.
  std::optional<engine::Key> read_back;
  if (!preset_key_.set || preset_key_.key == nullptr) read_back = IntegerPrimaryKeyOf(*s.table, *row);
  const engine::Key& key = read_back ? *read_back : *preset_key_.key;
  const engine::RowValue* written = row.get();
  if (UniqueRefusesInsert(s, key, *row)) return true;
  if (exec_->Insert(s.table->id, key, std::move(row))) {
    if (ChecksForeignKeys(s)) foreign_keys().Written(*s.table, *written, nullptr);
    ++rows_processed_;
    SetFound(true);
    Returning(s, schema, *written);
    return true;
  }
  if (s.on_conflict == planner::OnConflict::kDoNothing && s.conflict_index.empty()) {
    SetFound(false);
    ReturnedNoRow(s);
    return true;
  }
  return false;  // the general path raises (or updates) for a taken key
}

const std::vector<engine::Key>& ProcedureInterpreter::RangeKeys(const Stmt& s) {
  EvalContext ctx = FrameContext();
  static const std::vector<engine::Key> kNone;
  std::optional<KeySpan> span = RangeSpan(*s.table, s.table->primary_key, s.where_key, ctx);
  if (!span) return kNone;
  int id = FindDeclaredRange(exec_->scratch(), s.id, span->lo, span->hi);
  if (id < 0 && serial()) {
    // Alone in its epoch, with nothing declared: the rows are the range's now.
    serial_range_keys_.clear();
    exec_->Scan(s.table->id, span->lo, span->hi, [&](const engine::Key& key, const engine::RowValue&) {
      serial_range_keys_.push_back(key);
      return true;
    });
    return serial_range_keys_;
  }
  if (id < 0)
    throw SqlError("XX000", fmt::format("internal error: the range of statement {} (line {}) was not declared", s.id, s.line));
  return exec_->RangeRows(id);
}

bool ProcedureInterpreter::ForEachAddressedRow(const Stmt& s, const std::function<bool(const engine::Key&, const engine::RowValue&)>& fn) {
  const engine::TableId table = s.table->id;
  if (s.where_key.kind == planner::KeyAccess::Kind::kPoint) {
    std::optional<engine::Key> computed;
    const engine::Key* key = WhereKeyOf(s, computed);
    if (key == nullptr) return false;
    const engine::RowValue* row = exec_->Read(table, *key);
    return row != nullptr && fn(*key, *row);
  }
  bool any = false;
  if (kept_range_.consumer == s.id) {
    kept_range_.consumer = -1;
    EvalContext ctx = FrameContext();
    std::optional<KeySpan> span = RangeSpan(*s.table, s.table->primary_key, s.where_key, ctx);
    if (span && kept_range_.table == table && span->lo == kept_range_.lo && span->hi == kept_range_.hi) {
      for (const auto& [key, row] : kept_range_.rows) any |= fn(*key, *row);
      return any;
    }
  }
  for (const engine::Key& key : RangeKeys(s))
    if (const engine::RowValue* row = exec_->Read(table, key)) any |= fn(key, *row);
  return any;
}

namespace {

// The new version of `old` after an UPDATE's assignments, or nullptr when the WHERE
// clause rejects the row. Only the assigned columns are rebuilt (the binder refuses
// assignments to key columns). `variables` are the frame values the statement reads;
// `values_buffer()` gives the vector the new values go into, asked for only when the
// compiled patch cannot write the row.
template <typename ValuesBuffer>
engine::RowValuePtr UpdatedRow(const Stmt& s, const engine::Schema& schema, const engine::RowValue& old, std::span<const Datum> variables,
                       const CompiledExprs* compiled, ValuesBuffer&& values_buffer,
                       const planner::RoutineRunner* routines = nullptr) {
  EvalContext ctx;
  ctx.variables = variables;
  ctx.routines = routines;
  ctx.accelerator = compiled;
  ctx.row = &old;
  ctx.schema = &schema;
  if (compiled != nullptr) {
    // Values stored straight into a copy of the blob; the general path below for what
    // the patch cannot write.
    engine::RowValuePtr patched;
    switch (compiled->Patch(s, ctx, patched)) {
      case kRowWritten: return patched;
      case kRowRejected: return nullptr;
      default: break;
    }
  }
  // Every new value is computed from the old row before any is set.
  std::vector<Datum>& assigned = values_buffer();
  if (!NewValues(s, ctx, compiled, assigned)) return nullptr;
  auto check_not_null = [&](const planner::CatalogColumn& c) {
    if (!c.not_null) return;
    // The row as it would have been written, for the error's DETAIL.
    std::vector<Datum> row(s.table->columns.size());
    for (size_t col = 0; col < row.size(); ++col)
      planner::DatumFromRowInto(old, static_cast<int>(col), schema.column(static_cast<int>(col)), row[col]);
    for (size_t i = 0; i < s.assignments.size(); ++i) row[static_cast<size_t>(s.assignments[i].first)] = assigned[i];
    throw planner::NotNullViolation(*s.table, static_cast<int>(&c - s.table->columns.data()), row);
  };
  // A string column whose new value has its old value's size in bytes (char(n) columns,
  // mostly) keeps the row's layout, so it can be patched like a fixed-width one.
  auto same_size_string = [&](size_t i) {
    const int col = s.assignments[i].first;
    return assigned[i].kind == Datum::Kind::kString && !old.IsNull(col) &&
           old.GetString(col).size() == assigned[i].s.size();
  };
  bool patchable = true;
  for (size_t i = 0; i < s.assignments.size(); ++i)
    patchable &= !IsVariableWidth(schema.column(s.assignments[i].first).type) || same_size_string(i);
  if (patchable) {
    // Copy the row's blob and rewrite the changed slots (and same-size strings' bytes).
    engine::RowPatch patch(old);
    for (size_t i = 0; i < s.assignments.size(); ++i) {
      int col = s.assignments[i].first;
      const planner::CatalogColumn& c = s.table->columns[col];
      if (IsVariableWidth(schema.column(col).type)) {
        patch.SetSameSizeString(col, assigned[i].s);
      } else if (assigned[i].is_null()) {
        check_not_null(c);
        patch.SetNull(col);
      } else {
        planner::PatchRowColumn(patch, schema, col, assigned[i], c.type);
      }
    }
    return patch.Build();
  }
  engine::RowBuilder b(schema, old);
  for (size_t i = 0; i < s.assignments.size(); ++i) {
    int col = s.assignments[i].first;
    const planner::CatalogColumn& c = s.table->columns[col];
    if (assigned[i].is_null()) {
      check_not_null(c);
      b.SetNull(col);
    } else {
      planner::SetRowColumn(b, col, schema.column(col), assigned[i], c.type);
    }
  }
  return b.Build();
}

}  // namespace

void ProcedureInterpreter::RunUpdate(const Stmt& s) {
  const planner::TableInfo& table = *s.table;
  const engine::Schema& schema = exec_->table(table.id).schema();
  // (The analysis leaves out of ApplyRowUpdate an UPDATE that may break a UNIQUE index:
  // a split piece could not raise the violation.)
  if (s.access && s.access->apply_row_update && s.where_key.kind == planner::KeyAccess::Kind::kPoint && !nested()) {
    // A read-modify-write the engine may run as a separate piece (split-on-demand): the
    // callback owns a copy of the frame values it reads.
    std::optional<engine::Key> computed;
    const engine::Key* key = WhereKeyOf(s, computed);
    if (key == nullptr) {
      ReturnedNoRow(s);
      CheckStrict(s, 0);
      return SetFound(false);
    }
    // RETURNING ... INTO: the callback assigns the INTO variables from the new row, and
    // the body waits for it right away, so that it may work on our frame wherever it runs.
    const bool into = !s.into.empty();
    engine::RowUpdateCallback callback;
    if (!published_ || into) {
      // Before the publish point the engine runs the callback inline, on our frame; after
      // it, a split piece runs it on another core while this one waits below. An error
      // is kept for this thread to raise (a piece would drop it). Two pointers, so that
      // std::function keeps it without allocating.
      callback = [&s, this](const engine::RowValue& old) -> engine::RowValuePtr {
        try {
          engine::RowValuePtr updated =
              UpdatedRow(s, exec_->table(s.table->id).schema(), old, frame_.vars, compiled_,
                         [&]() -> std::vector<Datum>& { return NewValuesBuffer(s); }, this);
          if (updated && !s.into.empty()) Returning(s, exec_->table(s.table->id).schema(), *updated);
          return updated;
        } catch (const SqlError&) {
          update_error_ = std::current_exception();
          return nullptr;
        }
      };
    } else {
      // It may run later on another core: it owns copies of the values it reads, and
      // temps of its own for the compiled code.
      auto variables = std::make_shared<std::vector<Datum>>(frame_.vars.size());
      ForEachOwnExpr(s, [&](const planner::Expr& e) {
        for (int v : planner::VariablesOf(&e)) (*variables)[v] = frame_.vars[v];
      });
      const ProcedureCode* code = compiled_ != nullptr ? &compiled_->code() : nullptr;
      callback = [&s, &schema, variables, code](const engine::RowValue& old) {
        std::vector<Datum> assigned;
        auto buffer = [&]() -> std::vector<Datum>& { return assigned; };
        if (code == nullptr) return UpdatedRow(s, schema, old, *variables, nullptr, buffer);
        CompiledExprs compiled(*code);
        return UpdatedRow(s, schema, old, *variables, &compiled, buffer);
      };
    }
    engine::RowUpdateFuture future = exec_->ApplyRowUpdate(table.id, *key, std::move(callback), s.access->weight);
    const bool wait = s.access->wait_for_update || into;
    const bool applied = wait && future.Wait();
    // Set by now: an inline callback has run, and a piece that works on our frame was
    // waited for.
    if (update_error_) std::rethrow_exception(std::exchange(update_error_, nullptr));
    if (wait) {
      if (applied) ++rows_processed_;
      SetFound(applied);
      CheckStrict(s, applied ? 1 : 0);
      if (!applied) ReturnedNoRow(s);
    }
    return;
  }
  auto update_row = [&](const engine::Key& key, const engine::RowValue& old) -> bool {
    engine::RowValuePtr updated =
        UpdatedRow(s, schema, old, frame_.vars, compiled_, [&]() -> std::vector<Datum>& { return NewValuesBuffer(s); }, this);
    if (!updated) return false;
    CheckUniqueUpdate(table, key, *updated, old);
    // The engine keeps the value it is given until the transaction ends.
    const engine::RowValue& written = *updated;
    exec_->Update(table.id, key, std::move(updated));
    if (ChecksForeignKeys(s)) foreign_keys().Written(table, written, &old);
    ++rows_processed_;
    Returning(s, schema, written);
    return true;
  };
  int64_t before = rows_processed_;
  SetFound(ForEachAddressedRow(s, std::ref(update_row)));  // by reference: no allocation
  CheckStrict(s, rows_processed_ - before);
  if (rows_processed_ == before) ReturnedNoRow(s);
}

bool ProcedureInterpreter::UniqueRefusesInsert(const Stmt& s, const engine::Key& key, const engine::RowValue& row) {
  const planner::TableInfo& table = *s.table;
  if (table.unique_indexes.empty()) return false;
  auto skip = [&] {
    SetFound(false);
    ReturnedNoRow(s);
    return true;
  };
  // ON CONFLICT (unique columns) DO NOTHING: that index decides first (its arbiter).
  if (!s.conflict_index.empty())
    for (const planner::TableInfo::UniqueIndex& u : table.unique_indexes)
      if (u.name == s.conflict_index && UniqueIndexConflict(*exec_, table, u, key, row, nullptr)) return skip();
  // A taken primary key is the first violation (its index comes first): Insert reports it.
  if (exec_->Read(table.id, key) != nullptr) return false;
  const planner::TableInfo::UniqueIndex* u = UniqueConflict(*exec_, table, key, row, nullptr);
  if (u == nullptr) return false;
  if (s.on_conflict == planner::OnConflict::kDoNothing && (s.conflict_any_index || u->name == s.conflict_index)) return skip();
  throw planner::UniqueViolation(table, u->name, u->columns, RowDatums(exec_->table(table.id).schema(), row));
}

void ProcedureInterpreter::CheckUniqueUpdate(const planner::TableInfo& table, const engine::Key& key,
                                             const engine::RowValue& row, const engine::RowValue& old) {
  if (table.unique_indexes.empty()) return;
  if (const planner::TableInfo::UniqueIndex* u = UniqueConflict(*exec_, table, key, row, &old))
    throw planner::UniqueViolation(table, u->name, u->columns, RowDatums(exec_->table(table.id).schema(), row));
}

void ProcedureInterpreter::ReturnedNoRow(const Stmt& s) {
  for (size_t i = 0; i < s.into.size() && i < s.returning.size(); ++i) Assign(s.into[i], Datum(), s.returning[i]->type);
}

void ProcedureInterpreter::CheckStrict(const Stmt& s, int64_t rows) {
  // As PL/pgSQL: INTO STRICT takes exactly one row; the RETURNING ... INTO of an INSERT,
  // UPDATE or DELETE at most one, STRICT or not.
  const bool returning_into = s.kind != planner::StmtKind::kSelectInto && !s.into.empty();
  if (rows > 1 && (s.strict || returning_into))
    throw SqlError("P0003", "query returned more than one row")
        .WithHint("Make sure the query returns a single row, or use LIMIT 1.")
        .AtPlpgsqlLevel();
  if (rows == 0 && s.strict) throw SqlError("P0002", "query returned no rows").AtPlpgsqlLevel();
}

void ProcedureInterpreter::RunDelete(const Stmt& s) {
  const planner::TableInfo& table = *s.table;
  const engine::Schema& schema = exec_->table(table.id).schema();
  auto delete_row = [&](const engine::Key& key, const engine::RowValue& old) -> bool {
    EvalContext ctx = FrameContext();
    ctx.row = &old;
    ctx.schema = &schema;
    if (s.filter && !planner::EvalCondition(*s.filter, ctx)) return false;
    if (!s.returning.empty()) Returning(s, schema, old);
    exec_->Delete(table.id, key);
    if (ChecksForeignKeys(s)) foreign_keys().Deleted(table, old);
    ++rows_processed_;
    return true;
  };
  int64_t before = rows_processed_;
  SetFound(ForEachAddressedRow(s, std::ref(delete_row)));
  CheckStrict(s, rows_processed_ - before);
  if (rows_processed_ == before) ReturnedNoRow(s);
}

namespace {

// Whether a handler with `conditions` catches an error of `sqlstate`: its code, its
// class's code (ending in "000"), or OTHERS, which leaves out query_canceled and
// assert_failure as PL/pgSQL does.
bool HandlerCatches(const std::vector<std::string>& conditions, const std::string& sqlstate) {
  for (const std::string& c : conditions) {
    if (c == "OTHERS") {
      if (sqlstate != "57014" && sqlstate != "P0004") return true;
    } else if (c == sqlstate || (c.size() == 5 && c.ends_with("000") && sqlstate.compare(0, 2, c, 0, 2) == 0)) {
      return true;
    }
  }
  return false;
}

}  // namespace

// Execute: the body in a subtransaction (engine savepoint); an error leaving it undoes
// its writes and goes to the first handler that catches it, with the error in the
// block's slots. Init: the body's declarations up to an error, then every handler's
// (else_block), since any of them may run.
Flow ProcedureInterpreter::RunExceptionBlock(const Stmt& s) {
  if (exec_ == nullptr) {
    try {
      if (Flow f = RunBlock(s.body); f != Flow::kNext) return f;
    } catch (const SqlError&) {
    }
    return RunBlock(s.else_block);
  }
  const int64_t savepoint = exec_->Savepoint();
  try {
    const Flow flow = RunBlock(s.body);
    exec_->ReleaseSavepoint(savepoint);
    return flow;
  } catch (SqlError& e) {
    exec_->RollbackToSavepoint(savepoint);
    for (size_t h = 0; h < s.handler_conditions.size(); ++h) {
      if (!HandlerCatches(s.handler_conditions[h], e.sqlstate())) continue;
      const std::string fields[planner::kErrorSlotCount] = {e.sqlstate(), e.what(), e.detail(), e.hint(), e.context()};
      for (int f = 0; f < planner::kErrorSlotCount; ++f) frame_.var(s.error_slots[f]) = Datum::String(fields[f]);
      return RunBlock(s.blocks[h]);
    }
    throw;
  }
}

void ProcedureInterpreter::RunRaise(const Stmt& s) {
  if (s.reraise) {  // RAISE; in a handler: its error, as caught
    auto field = [&](int f) { return frame_.var(s.error_slots[f]).is_null() ? std::string() : frame_.var(s.error_slots[f]).s; };
    SqlError e(field(planner::kErrorSqlstate), field(planner::kErrorMessage));
    e.WithDetail(field(planner::kErrorDetail)).WithHint(field(planner::kErrorHint)).WithContext(field(planner::kErrorContext));
    throw e;
  }
  std::vector<Datum> args;
  for (const auto& a : s.args) args.push_back(Eval(*a));
  std::string message = codegen::RunRaise(s, std::move(args));
  // Only NOTICE and above reach a client at PostgreSQL's default client_min_messages.
  if (s.level == planner::RaiseLevel::kNotice || s.level == planner::RaiseLevel::kWarning ||
      s.level == planner::RaiseLevel::kInfo) {
    const char* severity = s.level == planner::RaiseLevel::kWarning ? "WARNING" : s.level == planner::RaiseLevel::kInfo ? "INFO" : "NOTICE";
    exec_->Notice(s.level == planner::RaiseLevel::kNotice ? message : std::string(severity) + ":" + message);
  }
}

void ProcedureInterpreter::Publish() {
  if (published_ || nested()) return;  // a called function's publish point is its caller's
  // Nothing may fail after the publish point: an ad-hoc statement's deferred checks run first.
  if (foreign_keys_ && foreign_keys_->has_pending()) foreign_keys_->EndOfStatement();
  exec_->Publish();
  published_ = true;
}

void ProcedureInterpreter::Return(const Datum& value) {
  EmitRow({value});
  returned_value_ = true;
}

void ProcedureInterpreter::RunReturn(const Stmt& s) {
  if (ir_.returns != planner::ProcedureIr::Returns::kScalar || !s.value) return;
  Datum v = Eval(*s.value);
  const planner::SqlType& to = ir_.result_columns.at(0).type;
  if (!v.is_null() && !(s.value->type == to)) {
    try {
      v = planner::CastDatum(v, s.value->type, to, false);
    } catch (SqlError& e) {
      AddReturnCastContext(e, ir_);  // PL/pgSQL casts at the function's exit
      throw;
    }
  }
  if (to.domain && s.value->type.domain != to.domain) {
    try {
      v = planner::CheckDomain(to, std::move(v));
    } catch (SqlError& e) {
      AddReturnCastContext(e, ir_);
      throw;
    }
  }
  Return(v);
}

void ProcedureInterpreter::RunReturnNext(const Stmt& s) {
  std::vector<Datum> values;
  values.reserve(s.args.empty() ? ir_.out_variables.size() : s.args.size());
  if (!s.args.empty()) {
    for (size_t c = 0; c < s.args.size(); ++c) {
      Datum v = Eval(*s.args[c]);
      const planner::SqlType& to = ir_.result_columns.at(c).type;
      if (!v.is_null() && !(s.args[c]->type == to)) v = planner::CastDatum(v, s.args[c]->type, to, false);
      values.push_back(std::move(v));
    }
  } else {
    // RETURNS TABLE / OUT parameters: the current values of the output variables.
    for (int slot : ir_.out_variables) values.push_back(frame_.var(slot));
  }
  EmitRow(values);
}

}  // namespace caracal::codegen
