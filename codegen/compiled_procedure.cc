#include "codegen/compiled_procedure.h"

#include "codegen/body_runner.h"
#include "codegen/frame.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlError;
using planner::Stmt;
using planner::StmtKind;

namespace {

// Statements the compiled code hands to the interpreter (proc_codegen.cc's CompileStmt).
bool IsDelegated(StmtKind kind) {
  switch (kind) {
    case StmtKind::kNull:
    case StmtKind::kAssign:
    case StmtKind::kIf:
    case StmtKind::kForRange:
    case StmtKind::kWhile:
    case StmtKind::kExit:
    case StmtKind::kContinue:
    case StmtKind::kRaise:
    case StmtKind::kReturn:
    case StmtKind::kPublish: return false;
    default: return true;
  }
}

bool AnyDelegated(const planner::Block& block) {
  for (const auto& s : block) {
    if (IsDelegated(s->kind)) return true;
    for (const auto& b : s->blocks)
      if (AnyDelegated(b)) return true;
    if (AnyDelegated(s->else_block) || AnyDelegated(s->body)) return true;
  }
  return false;
}

// The BodyRunner's per-statement entry point, when it has one (a private or missing
// member makes the requirement false, so this compiles against either version).
template <typename Runner>
constexpr bool kRunnerRunsStatements = requires(Runner& r, const Stmt& s) { r.RunStatement(s); };

template <typename Runner>
bool RunDelegated(Runner& runner, const Stmt& s) {
  if constexpr (kRunnerRunsStatements<Runner>) {
    return runner.RunStatement(s) == Flow::kReturn;
  } else {
    // CanDelegateAll() kept such procedures from being compiled.
    throw SqlError(planner::sqlstate::kInternalError, "internal error: compiled code cannot run this statement");
  }
}

class RunnerHooks final : public StatementHooks {
 public:
  RunnerHooks(BodyRunner& runner, const planner::ProcedureIr& ir, ExecContext* exec)
      : runner_(runner), ir_(ir), exec_(exec) {}

  bool RunStatement(const Stmt& s) override { return RunDelegated(runner_, s); }
  void Notice(std::string message) override {
    if (exec_ != nullptr) exec_->Notice(std::move(message));
  }
  void Publish() override {
    if (exec_ != nullptr && !published_) {
      exec_->Publish();
      published_ = true;
    }
  }
  void Return(const Datum& value) override {
    std::vector<Value> row;
    row.push_back(planner::DatumToValue(value, ir_.result_columns.at(0).type));
    exec_->Emit(std::move(row));
  }
  bool published() const { return published_; }

 private:
  BodyRunner& runner_;
  const planner::ProcedureIr& ir_;
  ExecContext* exec_;
  bool published_ = false;
};

}  // namespace

bool CompiledProcedure::CanDelegateAll(const planner::ProcedureIr& ir) {
  if constexpr (kRunnerRunsStatements<BodyRunner>) return true;
  return !AnyDelegated(ir.body) && !AnyDelegated(ir.init);
}

CompiledProcedure::CompiledProcedure(Jit& jit, std::shared_ptr<const planner::ProcedureIr> ir,
                                     const planner::Catalog& catalog, const CompileOptions& options)
    : ir_(std::move(ir)), catalog_(catalog), interpreted_(ir_, catalog) {
  if (!CanDelegateAll(*ir_))
    throw SqlError(planner::sqlstate::kFeatureNotSupported,
                   "the JIT cannot hand table statements to the interpreter yet");
  code_ = ProcedureCode::Compile(jit, *ir_, options);
}

void CompiledProcedure::Declare(DeclareContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  BodyRunner runner(*ir_, catalog_, ctx, frame);
  RunnerHooks hooks(runner, *ir_, nullptr);
  code_->RunInit(frame.vars, hooks);
}

void CompiledProcedure::Execute(ExecContext& ctx) const {
  Frame frame = MakeFrame(*ir_, ctx.input());
  BodyRunner runner(*ir_, catalog_, ctx, frame);
  RunnerHooks hooks(runner, *ir_, &ctx);
  try {
    BlockEnd end = code_->RunBody(frame.vars, hooks);
    if (end != BlockEnd::kReturned && ir_->kind == planner::ProcedureIr::Kind::kFunction &&
        ir_->returns == planner::ProcedureIr::Returns::kScalar)
      throw SqlError("2F005", "control reached end of function without RETURN");
  } catch (const SqlError& e) {
    if (hooks.published()) throw;  // as InterpretedProcedure: the engine reports it
    ctx.Abort(e.sqlstate(), e.what());
  }
}

std::unique_ptr<Procedure> MakeProcedure(Jit* jit, std::shared_ptr<const planner::ProcedureIr> ir,
                                         const planner::Catalog& catalog, const CompileOptions& options,
                                         double* compile_ms, std::string* why_interpreted) {
  if (compile_ms) *compile_ms = 0;
  std::string why;
  if (jit == nullptr) why = "the JIT is off";
  else if (!CompiledProcedure::CanDelegateAll(*ir)) why = "the interpreter's BodyRunner has no RunStatement yet";
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
