// CompiledProcedure: an engine Procedure whose Declare and Execute run JIT-compiled code
// for a ProcedureIr (procedure_codegen.h), with the reference interpreter's semantics
// (interpreted_procedure.h): same frame (MakeFrame), same results, notices and errors,
// same abort rule (an error before the publish point aborts; after it, it propagates).
//
//   Sequence - the interpreter's (it runs serially and only evaluates sequence names);
//   Declare  - the compiled init program; kDeclare / kReconRead go to the interpreter's
//              ProcedureInterpreter statement by statement, on the same frame;
//   Execute  - the compiled body; table statements, FOREACH and RETURN NEXT/QUERY go to
//              the ProcedureInterpreter likewise, with their key and value expressions interpreted.
//
// Handing a statement to the ProcedureInterpreter needs its public per-statement entry point
// (`Flow RunStatement(const Stmt&)`); until codegen/interpreter/procedure_interpreter.h has it, MakeProcedure
// compiles only procedures without such statements and interprets the others.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "codegen/jit/init_parameters.h"
#include "codegen/interpreter/interpreted_procedure.h"
#include "codegen/jit/jit.h"
#include "codegen/jit/procedure_codegen.h"
#include "engine/procedure/procedure.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

class CompiledProcedure final : public engine::Procedure {
 public:
  // Compiles `ir` with `jit` (which must outlive the procedure). Throws SqlError XX000 if
  // the compiler cannot handle the IR (see MakeProcedure for the fallback).
  CompiledProcedure(Jit& jit, std::shared_ptr<const planner::ProcedureIr> ir, const planner::Catalog& catalog,
                    const CompileOptions& options = {});

  const std::string& name() const override { return ir_->name; }
  void Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const override { interpreted_.Sequence(ctx, input); }
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
  bool needs_epoch_head() const override { return interpreted_.needs_epoch_head(); }
  bool needs_solo_epoch() const override { return interpreted_.needs_solo_epoch(); }
  std::string_view log_identity() const override { return interpreted_.log_identity(); }

  const planner::ProcedureIr& ir() const { return *ir_; }
  // Verification + optimisation + machine code of the first compilation (the product's
  // compile_ms: what CREATE FUNCTION waits for).
  double compile_ms() const { return first_->compile_ms(); }
  // The optimised IR of the code calls run now, when compiled with options.dump_ir.
  const std::string& ir_text() const { return active_.load(std::memory_order_acquire)->ir_text(); }

  // The second tier: compiles the procedure again with `jit` (a more thorough pipeline)
  // and makes later calls run that code. Called at most once, by one thread, while
  // calls may run on others (they keep the code they started with); throws SqlError
  // if it cannot compile, and then the first code stays.
  void Reoptimize(Jit& jit, const CompileOptions& options = {});
  bool reoptimized() const { return active_.load(std::memory_order_acquire) != first_.get(); }
  double reoptimize_ms() const { return optimized_ ? optimized_->compile_ms() : 0; }

 private:
  std::shared_ptr<const planner::ProcedureIr> ir_;
  const planner::Catalog& catalog_;
  InterpretedProcedure interpreted_;
  std::unique_ptr<ProcedureCode> first_;
  std::unique_ptr<ProcedureCode> optimized_;  // set once, before active_ points at it
  std::atomic<const ProcedureCode*> active_;
  // The parameters BorrowedBuffers checks for shared arrays: all of them, or 0 when none is an array.
  int parameters_with_arrays_ = 0;
  // The parameters Declare converts (ParametersReadByInit), while they hold.
  InitParameters init_parameters_;
  bool init_reads_all_ = true;  // every parameter: Declare converts them all
};

// What CREATE FUNCTION / PROCEDURE should register: the compiled procedure when `jit` is
// given and the IR compiles, else the interpreter. `compile_ms` (if given) receives the
// compile time (0 when interpreted); `why_interpreted` the reason, if any.
std::unique_ptr<engine::Procedure> MakeProcedure(Jit* jit, std::shared_ptr<const planner::ProcedureIr> ir,
                                         const planner::Catalog& catalog, const CompileOptions& options = {},
                                         double* compile_ms = nullptr, std::string* why_interpreted = nullptr);

}  // namespace caracal::codegen
