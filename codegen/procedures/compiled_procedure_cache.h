// CompiledProcedureCache: the runnable engine Procedure of each procedure IR a session uses,
// JIT-compiled (compiled_procedure.h) or, when the JIT is off or cannot compile the IR,
// interpreted. A transaction in flight points at its Procedure, so an entry lives as
// long as the cache (CREATE OR REPLACE makes a new IR and so a new entry; the old one
// stays valid for the transactions still queued with it).
//
// Compilation is tiered, because LLVM's full pipeline costs 40-150 ms for a TPC-C
// procedure and CREATE FUNCTION should not: a procedure is first compiled with the quick
// pipeline (OptLevel::kO0: no IR passes, FastISel), and a background
// thread then compiles it again at -O2 and switches later calls to that code. Both tiers
// compute the same results (the same IR); only speed differs.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "codegen/jit/jit.h"
#include "engine/procedure/procedure.h"
#include "planner/catalog/catalog.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::codegen {

class CompiledProcedure;

class CompiledProcedureCache {
 public:
  explicit CompiledProcedureCache(const planner::Catalog& catalog) : catalog_(catalog) {}
  ~CompiledProcedureCache();  // stops the background compiler (an unfinished job is dropped)
  CompiledProcedureCache(const CompiledProcedureCache&) = delete;
  CompiledProcedureCache& operator=(const CompiledProcedureCache&) = delete;

  // Whether new entries are compiled (SET caracal.jit); existing ones stay as they are.
  void set_jit(bool on) { jit_enabled_ = on; }
  bool jit() const { return jit_enabled_; }

  // The procedure for `ir`, made (compiled) on first use.
  const engine::Procedure& Get(const std::shared_ptr<const planner::ProcedureIr>& ir);
  // Compile time of `ir`'s entry in ms (0: interpreted or not made yet), and why it is
  // interpreted (empty if compiled).
  double compile_ms(const planner::ProcedureIr* ir) const;
  // For SET caracal.dump_ir: `ir` compiled afresh (by a JIT of its own, so nothing stays
  // behind) and its optimised LLVM IR as text, or why it runs interpreted.
  std::string DescribeCode(const std::shared_ptr<const planner::ProcedureIr>& ir) const;
  std::string why_interpreted(const planner::ProcedureIr* ir) const;
  // Waits until every procedure made so far runs its second-tier code (benchmarks call
  // this so that what they measure is the steady state).
  void WaitForReoptimization();
  // Whether the second tier runs in the background (default on); off also for tests
  // that want the first tier only. Affects procedures made afterwards.
  void set_reoptimize(bool on) { reoptimize_ = on; }

 private:
  struct Entry {
    std::shared_ptr<const planner::ProcedureIr> ir;  // keeps the key's address unique
    std::unique_ptr<engine::Procedure> procedure;
    double compile_ms = 0;
    std::string why_interpreted;
  };
  // The background compiler's loop: second-tier compilations, one at a time.
  void ReoptimizeLoop(std::stop_token stop);

  const planner::Catalog& catalog_;
  bool jit_enabled_ = true;
  bool reoptimize_ = true;
  std::unique_ptr<Jit> jit_;          // the first tier, made on first compilation
  std::unique_ptr<Jit> optimizing_jit_;  // the second tier, used by the background thread only
  mutable std::mutex mutex_;
  std::map<const planner::ProcedureIr*, Entry> entries_;
  // Second-tier jobs (guarded by mutex_); `busy_` while one is being compiled.
  std::deque<CompiledProcedure*> to_reoptimize_;
  bool busy_ = false;
  std::condition_variable_any work_changed_;
  std::jthread reoptimizer_;  // last: stopped and joined before the members it uses go
};

}  // namespace caracal::codegen
