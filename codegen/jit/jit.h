// Jit: one LLVM ORC LLJIT per owner (a session, a benchmark), native target.
//
// Every compiled unit (a procedure, an expression) is its own JITDylib, so dropping or
// replacing a procedure frees its code (CompiledModule's destructor). Compile() verifies
// each module of the unit (a failure is an internal error, SqlError XX000, never a
// crash), runs the new-pass-manager pipeline at the Jit's level, generates its object
// code, links the unit's objects, resolves the requested entry points and measures the
// whole as compile_ms. A Jit with helper threads takes a unit's modules through
// verification, the pipeline and the code generator at the same time (each helper has its
// own TargetMachine and keeps its heap warm from one compilation to the next). Compile()
// is thread-safe (serialised; compiling is rare next to running); running compiled code
// never touches the Jit.
//
// Generated code may call only the runtime functions of jit_runtime.h (plus libc/libm,
// which the process-symbol JITDylib provides for LLVM's own lowering).
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
class JITDylib;
}  // namespace orc
}  // namespace llvm

namespace caracal::codegen {

// kO0 (no IR passes, FastISel) is the first tier of compiled_procedure_cache.h: fastest to
// compile, and measured as fast to run as a small clean-up pipeline before FastISel.
enum class OptLevel { kO0, kO1, kO2, kO3 };

class Jit;

// A compiled unit: its code lives until this is destroyed.
class CompiledModule {
 public:
  CompiledModule(const CompiledModule&) = delete;
  CompiledModule& operator=(const CompiledModule&) = delete;
  ~CompiledModule();

  // The address of entry point `name` (one of those Compile() was asked for).
  void* Lookup(std::string_view name) const;
  // Verification + optimisation + machine code, in milliseconds.
  double compile_ms() const { return compile_ms_; }
  double optimize_ms() const { return optimize_ms_; }
  // The optimised module's IR, if Compile() was asked for it (SET caracal.dump_ir).
  const std::string& ir() const { return ir_; }

 private:
  friend class Jit;
  CompiledModule() = default;
  Jit* jit_ = nullptr;
  llvm::orc::JITDylib* dylib_ = nullptr;
  std::unordered_map<std::string, void*> symbols_;
  double compile_ms_ = 0;
  double optimize_ms_ = 0;
  std::string ir_;
};

struct CompileOptions {
  bool dump_ir = false;
};

// One module of a compiled unit, in a context of its own, so that the modules of one
// unit can be compiled on different threads.
struct ModuleInContext {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

class Jit {
 public:
  // Throws SqlError XX000 if LLVM cannot create a JIT for the host. `helper_threads`
  // compile modules of a unit while the calling thread compiles another.
  explicit Jit(OptLevel level = OptLevel::kO2, int helper_threads = 0);
  ~Jit();
  Jit(const Jit&) = delete;
  Jit& operator=(const Jit&) = delete;

  OptLevel opt_level() const { return level_; }
  // How many modules are compiled at once: how many a caller should split a unit into.
  int parallelism() const { return static_cast<int>(helpers_.size()) + 1; }

  // Prepares a fresh module for this JIT's target (data layout, triple).
  std::unique_ptr<llvm::Module> NewModule(llvm::LLVMContext& context, std::string_view name) const;

  // Verifies, optimises and compiles `module`, which must have been made by NewModule
  // in `context`; both are consumed. Throws SqlError XX000 ("internal error: ...") if the
  // module does not verify or an entry point cannot be materialised.
  std::unique_ptr<CompiledModule> Compile(std::unique_ptr<llvm::LLVMContext> context,
                                          std::unique_ptr<llvm::Module> module,
                                          std::span<const std::string> entry_points,
                                          const CompileOptions& options = {});
  // The same for a unit of several modules (each made by NewModule, each in its own
  // context; they may call the runtime, not each other).
  std::unique_ptr<CompiledModule> Compile(std::vector<ModuleInContext> modules,
                                          std::span<const std::string> entry_points,
                                          const CompileOptions& options = {});

  // The IR of `module` as text (before compilation; for tests and debugging).
  static std::string PrintModule(const llvm::Module& module);

 private:
  friend class CompiledModule;
  void Remove(llvm::orc::JITDylib* dylib);

  class Helper;

  OptLevel level_;
  std::mutex mutex_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> target_machine_;  // the calling thread's pipeline and code generator
  std::vector<std::unique_ptr<Helper>> helpers_;
  llvm::orc::JITDylib* runtime_ = nullptr;
  uint64_t next_id_ = 0;
};

}  // namespace caracal::codegen
