#include "codegen/procedures/compiled_procedure.h"

#include <algorithm>

#include "codegen/interpreter/procedure_interpreter.h"
#include "codegen/jit/compiled_exprs.h"
#include "codegen/runtime/frame.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlError;
using planner::Stmt;
using planner::StmtKind;

namespace {

class RunnerHooks final : public StatementHooks {
 public:
  RunnerHooks(ProcedureInterpreter& runner, const planner::ProcedureIr& ir, engine::ExecContext* exec)
      : runner_(runner), ir_(ir), exec_(exec) {}

  bool RunStatement(const Stmt& s) override { return runner_.RunStatement(s) == Flow::kReturn; }
  bool RunStatementWithKey(const Stmt& s, const engine::Key* key) override {
    return runner_.RunStatementWithKey(s, key) == Flow::kReturn;
  }
  void DeclareWithKey(const Stmt& init, const Stmt& body, const engine::Key* key) override {
    (void)init;
    if (key != nullptr) runner_.DeclareWithKey(body, *key);
  }
  engine::DeclareContext* DirectDeclareContext() override { return runner_.DirectDeclareContext(); }
  const engine::RowValue* ReadRow(const Stmt& s, const engine::Key& key) override { return runner_.ReadRow(s, key); }
  void Notice(std::string message) override {
    if (exec_ != nullptr) exec_->Notice(std::move(message));
  }
  void Publish() override {
    if (exec_ != nullptr) runner_.Publish();
  }
  void Return(const Datum& value) override { runner_.Return(value); }
  Datum CallRoutine(const planner::Expr& call, std::span<const Datum> args) override { return runner_.Call(call, args); }
  double Random(int site) override { return runner_.Random(site); }

 private:
  ProcedureInterpreter& runner_;
  const planner::ProcedureIr& ir_;
  engine::ExecContext* exec_;
};

}  // namespace

CompiledProcedure::CompiledProcedure(Jit& jit, std::shared_ptr<const planner::ProcedureIr> ir,
                                     const planner::Catalog& catalog, const CompileOptions& options)
    : ir_(std::move(ir)), catalog_(catalog), interpreted_(ir_, catalog) {
  for (int i = 0; i < ir_->parameter_count && i < static_cast<int>(ir_->variables.size()); ++i)
    if (ir_->variables[static_cast<size_t>(i)].type.is_array()) parameters_with_arrays_ = ir_->parameter_count;
  init_parameters_ = ParametersReadByInit(*ir_);
  const std::vector<bool>& read = init_parameters_.read;
  init_reads_all_ = std::find(read.begin(), read.end(), false) == read.end();
  first_ = ProcedureCode::Compile(jit, *ir_, options, &catalog.database());
  active_.store(first_.get(), std::memory_order_release);
}

void CompiledProcedure::Reoptimize(Jit& jit, const CompileOptions& options) {
  std::unique_ptr<ProcedureCode> code = ProcedureCode::Compile(jit, *ir_, options, &catalog_.database());
  optimized_ = std::move(code);
  active_.store(optimized_.get(), std::memory_order_release);
}

void CompiledProcedure::Declare(engine::DeclareContext& ctx) const {
  BorrowedBuffers buffers(ctx.worker_scratch(), this, parameters_with_arrays_);
  Frame& frame = buffers.Hold(
      MakeFrame(*ir_, ctx.input(), buffers.TakeVars(),
                init_reads_all_ || !init_parameters_.Holds() ? nullptr : &init_parameters_.read));
  ProcedureInterpreter runner(*ir_, catalog_, ctx, frame);
  const ProcedureCode& code = *active_.load(std::memory_order_acquire);
  CompiledExprs exprs(code, buffers.temps());
  runner.set_compiled(&exprs);
  runner.set_statement_values(&buffers.statement_values());
  RunnerHooks hooks(runner, *ir_, nullptr);
  try {
    code.RunInit(frame.vars, hooks, &buffers.body_temps());
  } catch (const SqlError&) {
    // As InterpretedProcedure::Declare: Execute reports the error.
  }
}

void CompiledProcedure::Execute(engine::ExecContext& ctx) const {
  BorrowedBuffers buffers(ctx.worker_scratch(), this, parameters_with_arrays_);
  Frame& frame = buffers.Hold(MakeFrame(*ir_, ctx.input(), buffers.TakeVars()));
  ProcedureInterpreter runner(*ir_, catalog_, ctx, frame);
  const ProcedureCode& code = *active_.load(std::memory_order_acquire);
  CompiledExprs exprs(code, buffers.temps());
  runner.set_compiled(&exprs);
  runner.set_statement_values(&buffers.statement_values());
  RunnerHooks hooks(runner, *ir_, &ctx);
  try {
    code.RunBody(frame.vars, hooks, &buffers.body_temps());
    runner.Finish();
  } catch (const SqlError& e) {
    if (runner.published()) throw;  // as InterpretedProcedure: the engine reports it
    ctx.Abort(e.sqlstate(), e.what(), {e.detail(), e.hint(), e.context()});
  }
}

std::unique_ptr<engine::Procedure> MakeProcedure(Jit* jit, std::shared_ptr<const planner::ProcedureIr> ir,
                                         const planner::Catalog& catalog, const CompileOptions& options,
                                         double* compile_ms, std::string* why_interpreted) {
  if (compile_ms) *compile_ms = 0;
  std::string why;
  if (jit == nullptr) why = "the JIT is off";
  // The compiled body evaluates its assignments inline, where no statement draws.
  else if (!ir->live_sequence_calls.empty()) why = "it draws sequence values as it runs";
  if (why.empty()) {
    try {
      auto p = std::make_unique<CompiledProcedure>(*jit, ir, catalog, options);
      if (compile_ms) *compile_ms = p->compile_ms();
      return p;
    } catch (const SqlError& e) {
      why = e.what();  // a compiler gap or bug: the interpreter still runs it
    }
  }
  if (why_interpreted) *why_interpreted = why;
  return std::make_unique<InterpretedProcedure>(std::move(ir), catalog);
}

}  // namespace caracal::codegen
