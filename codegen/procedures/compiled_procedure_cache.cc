#include "codegen/procedures/compiled_procedure_cache.h"

#include "codegen/procedures/compiled_procedure.h"

namespace caracal::codegen {

namespace {

// CREATE FUNCTION waits for the first tier: with two cores or more, a helper thread
// compiles half of it while the session's thread compiles the other half.
int FirstTierHelperThreads() { return std::thread::hardware_concurrency() >= 2 ? 1 : 0; }

}  // namespace

CompiledProcedureCache::~CompiledProcedureCache() {
  if (reoptimizer_.joinable()) {
    reoptimizer_.request_stop();
    reoptimizer_.join();
  }
}

const engine::Procedure& CompiledProcedureCache::Get(const std::shared_ptr<const planner::ProcedureIr>& ir) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir.get());
  if (it != entries_.end()) return *it->second.procedure;
  Entry e;
  e.ir = ir;
  if (jit_enabled_ && !jit_) jit_ = std::make_unique<Jit>(OptLevel::kO0, FirstTierHelperThreads());
  e.procedure = MakeProcedure(jit_enabled_ ? jit_.get() : nullptr, ir, catalog_, {}, &e.compile_ms, &e.why_interpreted);
  if (!jit_enabled_) e.why_interpreted = "caracal.jit is off";
  if (auto* compiled = dynamic_cast<CompiledProcedure*>(e.procedure.get()); compiled && reoptimize_) {
    to_reoptimize_.push_back(compiled);
    if (!reoptimizer_.joinable()) reoptimizer_ = std::jthread([this](std::stop_token stop) { ReoptimizeLoop(stop); });
    work_changed_.notify_all();
  }
  return *entries_.emplace(ir.get(), std::move(e)).first->second.procedure;
}

void CompiledProcedureCache::ReoptimizeLoop(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (work_changed_.wait(lock, stop, [&] { return !to_reoptimize_.empty(); })) {
    CompiledProcedure* next = to_reoptimize_.front();
    to_reoptimize_.pop_front();
    busy_ = true;
    lock.unlock();
    // Entries are never removed while the cache lives, so `next` stays valid.
    try {
      if (!optimizing_jit_) optimizing_jit_ = std::make_unique<Jit>(OptLevel::kO2);
      next->Reoptimize(*optimizing_jit_);
    } catch (const std::exception&) {
      // The first tier keeps running: it is correct, only slower.
    }
    lock.lock();
    busy_ = false;
    work_changed_.notify_all();
  }
}

void CompiledProcedureCache::WaitForReoptimization() {
  std::unique_lock lock(mutex_);
  work_changed_.wait(lock, [&] { return to_reoptimize_.empty() && !busy_; });
}

double CompiledProcedureCache::compile_ms(const planner::ProcedureIr* ir) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir);
  return it == entries_.end() ? 0 : it->second.compile_ms;
}

std::string CompiledProcedureCache::DescribeCode(const std::shared_ptr<const planner::ProcedureIr>& ir) const {
  std::string title = "procedure " + ir->name + ": ";
  if (!jit_enabled_) return title + "interpreted (caracal.jit is off)";
  Jit jit;
  CompileOptions options;
  options.dump_ir = true;
  std::string why;
  std::unique_ptr<engine::Procedure> made = MakeProcedure(&jit, ir, catalog_, options, nullptr, &why);
  if (const auto* compiled = dynamic_cast<const CompiledProcedure*>(made.get()))
    return title + "optimised LLVM IR\n" + compiled->ir_text();
  return title + "interpreted (" + why + ")";
}

std::string CompiledProcedureCache::why_interpreted(const planner::ProcedureIr* ir) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir);
  return it == entries_.end() ? std::string() : it->second.why_interpreted;
}

}  // namespace caracal::codegen
