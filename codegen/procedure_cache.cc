#include "codegen/procedure_cache.h"

#include "codegen/compiled_procedure.h"

namespace caracal::codegen {

const Procedure& ProcedureCache::Get(const std::shared_ptr<const planner::ProcedureIr>& ir) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir.get());
  if (it != entries_.end()) return *it->second.procedure;
  Entry e;
  e.ir = ir;
  if (jit_enabled_ && !jit_) jit_ = std::make_unique<Jit>();
  e.procedure = MakeProcedure(jit_enabled_ ? jit_.get() : nullptr, ir, catalog_, {}, &e.compile_ms, &e.why_interpreted);
  if (!jit_enabled_) e.why_interpreted = "caracal.jit is off";
  return *entries_.emplace(ir.get(), std::move(e)).first->second.procedure;
}

double ProcedureCache::compile_ms(const planner::ProcedureIr* ir) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir);
  return it == entries_.end() ? 0 : it->second.compile_ms;
}

std::string ProcedureCache::why_interpreted(const planner::ProcedureIr* ir) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(ir);
  return it == entries_.end() ? std::string() : it->second.why_interpreted;
}

}  // namespace caracal::codegen
