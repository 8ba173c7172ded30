// InterpretedProcedure: an engine Procedure that runs a ProcedureIr by walking it.
//
//   Sequence - draws the values of the IR's hoisted nextval() calls, in serial order;
//   Declare  - runs the init program (ProcedureIr::init): the write set, loops over input
//              arrays, reconnaissance reads of the committed state;
//   Execute  - runs the body at the transaction's serial position (a serial IR's alone
//              in its epoch, drawing its nextval() values as its statements start).
//
// It is the reference semantics the JIT (compiled_procedure.h) must reproduce, and the
// fallback for anything the JIT does not compile. Errors a procedure raises before its
// publish point abort the transaction with PostgreSQL's SQLSTATE and message.
#pragma once

#include <memory>
#include <string>

#include "engine/procedure/procedure.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

class InterpretedProcedure final : public engine::Procedure {
 public:
  // `catalog` must outlive the procedure; it is read (sequence names) during Sequence,
  // which the engine runs while no DDL can change it.
  InterpretedProcedure(std::shared_ptr<const planner::ProcedureIr> ir, const planner::Catalog& catalog);

  const std::string& name() const override { return ir_->name; }
  void Sequence(engine::SequenceContext& ctx, engine::TxnInput& input) const override;
  void Declare(engine::DeclareContext& ctx) const override;
  void Execute(engine::ExecContext& ctx) const override;
  bool needs_epoch_head() const override { return needs_epoch_head_; }
  bool needs_solo_epoch() const override { return ir_->is_serial(); }
  std::string_view log_identity() const override { return log_identity_; }

  const planner::ProcedureIr& ir() const { return *ir_; }

 private:
  // Throws `e` (a draw of `call` failed at sequencing) as the engine reports it, with
  // PL/pgSQL's CONTEXT.
  [[noreturn]] void FailDraw(planner::SqlError e, const planner::SequenceCall& call) const;

  std::shared_ptr<const planner::ProcedureIr> ir_;
  const planner::Catalog& catalog_;
  bool needs_epoch_head_ = false;
  std::string log_identity_;
};

// How the input log names a procedure made from `ir` (Procedure::log_identity): a
// CREATEd procedure by kLogCallPrefix + its signature ("call transfer(integer, numeric)"),
// which recovery looks up in the catalog as of that point of the log; an ad-hoc
// INSERT/UPDATE/DELETE by kLogDmlPrefix + its statement text, which recovery binds again.
inline constexpr std::string_view kLogCallPrefix = "call ";
inline constexpr std::string_view kLogDmlPrefix = "dml ";
std::string ProcedureLogIdentity(const planner::ProcedureIr& ir);

}  // namespace caracal::codegen
