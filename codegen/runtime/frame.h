// Frame: the variables of one running procedure (ProcedureIr::variables), as Datums,
// plus what the statements of its body share while it runs. The interpreter and the JIT'd
// code read and write the same frame, so the two can be mixed statement by statement.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/procedure/procedure.h"
#include "planner/expr/expr_eval.h"
#include "planner/types/datum.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

struct Frame {
  std::vector<planner::Datum> vars;
  int64_t now_us = 0;  // now(): the transaction's epoch timestamp

  planner::Datum& var(int slot) { return vars[static_cast<size_t>(slot)]; }
};

// A frame for `ir` from a transaction's input: parameters from the arguments (cast to the
// parameter types), sequence slots from the values drawn at sequencing, everything else
// NULL. DECLARE defaults are not evaluated here (see InitializeLocals).
// `buffer`, when given, becomes the frame's variables (reset, keeping their strings'
// capacity and the parameters' arrays): see RunBuffers. Declare and Execute each build
// their own frame: converting the arguments again is cheaper than keeping them from
// Declare to Execute, which would allocate for every transaction of an epoch at once.
// `parameters_read`, when given, has one flag per parameter: those without it are left
// NULL rather than converted (Declare's frame: see init_parameters.h). A NULL parameter
// may keep its array's elements, for the next conversion to rewrite in place.
Frame MakeFrame(const planner::ProcedureIr& ir, const engine::TxnInput& input, std::vector<planner::Datum> buffer = {},
                const std::vector<bool>* parameters_read = nullptr);

// What one procedure's runs on one worker reuse (kept in the worker's WorkerScratch):
// the frame's variables and the compiled code's temps. With them a transaction does not
// allocate its frame, and a string variable keeps its buffer from run to run.
struct RunBuffers {
  std::vector<planner::Datum> vars;
  std::vector<planner::Datum> temps;       // the statement expressions' (CompiledExprs)
  std::vector<planner::Datum> body_temps;  // caracal_body's and caracal_init's
  // An INSERT's or UPDATE's new values, by statement id (ProcedureInterpreter::set_statement_values).
  std::vector<std::vector<planner::Datum>> statement_values;
  bool in_use = false;  // lent to a run (BorrowedBuffers)
};

// Lends `owner`'s RunBuffers on this worker to one run, and holds the run's frame, until
// it is destroyed (the frame's variables go back; the rest is used in place). A run that starts
// while another holds them (which a worker never does, but nothing breaks if one did)
// gets empty buffers of its own.
class BorrowedBuffers {
 public:
  // `parameters`: how many of the frame's first variables are parameters that may hold
  // arrays (-1: any variable may). When the run ends and one of those arrays is still
  // shared, the temps' arrays are dropped (see frame.cc); 0 skips the check.
  BorrowedBuffers(engine::WorkerScratch& scratch, const void* owner, int parameters = -1);
  ~BorrowedBuffers();
  BorrowedBuffers(const BorrowedBuffers&) = delete;
  BorrowedBuffers& operator=(const BorrowedBuffers&) = delete;

  // The variables buffer, to build the frame from (see MakeFrame).
  std::vector<planner::Datum> TakeVars() { return std::move(buffers_->vars); }
  std::vector<planner::Datum>& temps() { return buffers_->temps; }
  std::vector<planner::Datum>& body_temps() { return buffers_->body_temps; }
  std::vector<std::vector<planner::Datum>>& statement_values() { return buffers_->statement_values; }
  // Keeps the run's frame here (its variables are returned with the buffers).
  Frame& Hold(Frame frame) {
    frame_ = std::move(frame);
    return frame_;
  }

 private:
  RunBuffers own_;                // when the worker's are in use (or not ours)
  std::shared_ptr<RunBuffers> lent_;  // the worker's, held: the scratch may drop its entry
  RunBuffers* buffers_ = &own_;       // lent_.get(), or own_
  Frame frame_;
  int parameters_ = -1;
};

// Evaluates the DECLARE defaults of the locals, in declaration order, and enforces
// NOT NULL declarations (22004, as PL/pgSQL). `routines` runs the user functions the
// defaults call; `for_init`: the init program's frame, where a default that calls a
// function reading tables stays NULL (the analysis counts it read-derived: nothing the
// init program computes uses it).
void InitializeLocals(const planner::ProcedureIr& ir, Frame& frame, const planner::RoutineRunner* routines = nullptr,
                      bool for_init = false);

}  // namespace caracal::codegen
