// ProcedureCache: the runnable engine Procedure of each procedure IR a session uses,
// JIT-compiled (compiled_procedure.h) or, when the JIT is off or cannot compile the IR,
// interpreted. A transaction in flight points at its Procedure, so an entry lives as
// long as the cache (CREATE OR REPLACE makes a new IR and so a new entry; the old one
// stays valid for the transactions still queued with it).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "codegen/jit.h"
#include "engine/procedure.h"
#include "planner/catalog.h"
#include "planner/procedure_ir.h"

namespace caracal::codegen {

class ProcedureCache {
 public:
  explicit ProcedureCache(const planner::Catalog& catalog) : catalog_(catalog) {}

  // Whether new entries are compiled (SET caracal.jit); existing ones stay as they are.
  void set_jit(bool on) { jit_enabled_ = on; }
  bool jit() const { return jit_enabled_; }

  // The procedure for `ir`, made (compiled) on first use.
  const Procedure& Get(const std::shared_ptr<const planner::ProcedureIr>& ir);
  // Compile time of `ir`'s entry in ms (0: interpreted or not made yet), and why it is
  // interpreted (empty if compiled).
  double compile_ms(const planner::ProcedureIr* ir) const;
  std::string why_interpreted(const planner::ProcedureIr* ir) const;

 private:
  struct Entry {
    std::shared_ptr<const planner::ProcedureIr> ir;  // keeps the key's address unique
    std::unique_ptr<Procedure> procedure;
    double compile_ms = 0;
    std::string why_interpreted;
  };
  const planner::Catalog& catalog_;
  bool jit_enabled_ = true;
  std::unique_ptr<Jit> jit_;  // made on first compilation
  mutable std::mutex mutex_;
  std::map<const planner::ProcedureIr*, Entry> entries_;
};

}  // namespace caracal::codegen
