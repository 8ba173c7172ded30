#include "codegen/jit/jit.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <stdexcept>
#include <thread>

#include "codegen/jit/jit_runtime.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

namespace {

[[noreturn]] void Internal(const std::string& what) {
  throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: " + what);
}

std::string ToString(llvm::Error error) { return llvm::toString(std::move(error)); }

void InitializeLlvmOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

llvm::CodeGenOptLevel CodeGenLevel(OptLevel level) {
  switch (level) {
    case OptLevel::kO0: return llvm::CodeGenOptLevel::None;
    case OptLevel::kO1: return llvm::CodeGenOptLevel::Less;
    case OptLevel::kO2: return llvm::CodeGenOptLevel::Default;
    case OptLevel::kO3: return llvm::CodeGenOptLevel::Aggressive;
  }
  return llvm::CodeGenOptLevel::Default;
}

void Optimize(llvm::Module& module, llvm::TargetMachine* tm, OptLevel level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  switch (level) {
    case OptLevel::kO0:
      mpm = pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
      // The fast instruction selector cannot lower a switch (the statement expressions'
      // dispatch): its block went to SelectionDAG, whose setup and combines were 12% of
      // the code generator's time. As compares and branches FastISel selects them all:
      // new_order's two modules took 14% less time (median of 12 interleaved runs).
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::LowerSwitchPass()));
      break;
    case OptLevel::kO1: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1); break;
    case OptLevel::kO2: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2); break;
    case OptLevel::kO3: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3); break;
  }
  mpm.run(module, mam);
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<llvm::TargetMachine> MakeTargetMachine(llvm::orc::JITTargetMachineBuilder& jtmb) {
  auto tm = jtmb.createTargetMachine();
  if (!tm) Internal("cannot create a target machine: " + ToString(tm.takeError()));
  return std::move(*tm);
}

// A module taken through verification, the pipeline and the code generator.
struct ModuleObject {
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string ir;     // the optimised IR, when asked for
  std::string error;  // non-empty: what went wrong (nothing else is set)
  double optimize_ms = 0;
};

// Leaves `m` to the caller, changed by the code generator: destroying a module and its
// context takes a few percent of the time to compile it, which need not come before
// the result is used.
ModuleObject CompileToObject(ModuleInContext& m, llvm::TargetMachine& tm, OptLevel level, bool dump_ir) {
  ModuleObject out;
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m.module, &os)) {
    os.flush();
    out.error = "generated code for " + m.module->getName().str() + " does not verify: " + problems;
    return out;
  }
  auto opt_start = std::chrono::steady_clock::now();
  Optimize(*m.module, &tm, level);
  out.optimize_ms = MillisSince(opt_start);
  if (dump_ir) out.ir = Jit::PrintModule(*m.module);
  llvm::orc::SimpleCompiler compiler(tm);
  auto object = compiler(*m.module);
  if (!object) {
    out.error = "cannot compile " + m.module->getName().str() + ": " + ToString(object.takeError());
    return out;
  }
  out.object = std::move(*object);
  return out;
}

}  // namespace

// A thread of its own with a TargetMachine of its own, compiling the modules it is given
// one at a time.
class Jit::Helper {
 public:
  explicit Helper(std::unique_ptr<llvm::TargetMachine> tm)
      : tm_(std::move(tm)), thread_([this](std::stop_token stop) { Loop(stop); }) {}

  std::future<ModuleObject> Submit(ModuleInContext m, OptLevel level, bool dump_ir) {
    auto promise = std::make_shared<std::promise<ModuleObject>>();
    std::future<ModuleObject> result = promise->get_future();
    Enqueue(std::packaged_task<void()>([this, m = std::move(m), level, dump_ir, promise]() mutable {
      try {
        promise->set_value(CompileToObject(m, *tm_, level, dump_ir));
      } catch (...) {
        promise->set_exception(std::current_exception());
      }
      ModuleInContext spent = std::move(m);  // destroyed here, once the result is out
    }));
    return result;
  }

  // Destroys `modules` on this thread, after any job before them.
  void Dispose(std::vector<ModuleInContext> modules) {
    Enqueue(std::packaged_task<void()>([m = std::move(modules)]() mutable {
      std::vector<ModuleInContext> spent = std::move(m);
    }));
  }

 private:
  void Enqueue(std::packaged_task<void()> job) {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    work_.notify_one();
  }

  void Loop(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (work_.wait(lock, stop, [&] { return !jobs_.empty(); })) {
      std::packaged_task<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  std::unique_ptr<llvm::TargetMachine> tm_;
  std::mutex mutex_;
  std::condition_variable_any work_;
  std::deque<std::packaged_task<void()>> jobs_;
  std::jthread thread_;  // last: stopped and joined before the members it uses go
};

CompiledModule::~CompiledModule() {
  if (jit_ != nullptr && dylib_ != nullptr) jit_->Remove(dylib_);
}

void* CompiledModule::Lookup(std::string_view name) const {
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end()) throw std::logic_error("no compiled entry point " + std::string(name));
  return it->second;
}

Jit::Jit(OptLevel level, int helper_threads) : level_(level) {
  InitializeLlvmOnce();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) Internal("cannot detect the host target: " + ToString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(CodeGenLevel(level));
  // What LLJIT sets for JITLink on x86-64, and what our own code generators must use too:
  // without it a JIT's target machine defaults to the large code model, whose calls the
  // fast instruction selector hands to SelectionDAG (slower to compile, bigger code).
  jtmb->setRelocationModel(llvm::Reloc::PIC_);
  jtmb->setCodeModel(llvm::CodeModel::Small);
  target_machine_ = MakeTargetMachine(*jtmb);
  for (int i = 0; i < helper_threads; ++i) helpers_.push_back(std::make_unique<Helper>(MakeTargetMachine(*jtmb)));
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) Internal("cannot create the JIT: " + ToString(jit.takeError()));
  jit_ = std::move(*jit);

  // The runtime functions, once, as absolute symbols every compiled unit links against.
  llvm::orc::SymbolMap symbols;
  for (const RuntimeFunction& f : RuntimeFunctions())
    symbols[jit_->mangleAndIntern(f.name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(f.address), llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  runtime_ = &jit_->getExecutionSession().createBareJITDylib("caracal_runtime");
  if (llvm::Error e = runtime_->define(llvm::orc::absoluteSymbols(std::move(symbols))))
    Internal("cannot define the runtime symbols: " + ToString(std::move(e)));
}

Jit::~Jit() = default;

std::unique_ptr<llvm::Module> Jit::NewModule(llvm::LLVMContext& context, std::string_view name) const {
  auto module = std::make_unique<llvm::Module>(llvm::StringRef(name.data(), name.size()), context);
  module->setDataLayout(jit_->getDataLayout());
  module->setTargetTriple(jit_->getTargetTriple().str());
  return module;
}

std::string Jit::PrintModule(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  os.flush();
  return text;
}

std::unique_ptr<CompiledModule> Jit::Compile(std::unique_ptr<llvm::LLVMContext> context,
                                             std::unique_ptr<llvm::Module> module,
                                             std::span<const std::string> entry_points,
                                             const CompileOptions& options) {
  std::vector<ModuleInContext> modules;
  modules.push_back({std::move(context), std::move(module)});
  return Compile(std::move(modules), entry_points, options);
}

std::unique_ptr<CompiledModule> Jit::Compile(std::vector<ModuleInContext> modules,
                                             std::span<const std::string> entry_points,
                                             const CompileOptions& options) {
  std::lock_guard lock(mutex_);
  auto start = std::chrono::steady_clock::now();
  const std::string name = modules.empty() ? std::string("unit") : modules.front().module->getName().str();
  // The first module on this thread, the others on the helpers (or here, after it).
  std::vector<ModuleObject> objects(modules.size());
  std::vector<std::future<ModuleObject>> pending(modules.size());
  for (size_t k = 1; k < modules.size() && !helpers_.empty(); ++k)
    pending[k] = helpers_[(k - 1) % helpers_.size()]->Submit(std::move(modules[k]), level_, options.dump_ir);
  for (size_t k = 0; k < modules.size(); ++k)
    objects[k] = pending[k].valid() ? pending[k].get()
                                    : CompileToObject(modules[k], *target_machine_, level_, options.dump_ir);
  // What this thread compiled goes on a helper, which is idle by now.
  if (!helpers_.empty()) helpers_.front()->Dispose(std::move(modules));

  std::unique_ptr<CompiledModule> out(new CompiledModule());
  for (ModuleObject& o : objects) {
    if (!o.error.empty()) Internal(o.error);
    out->optimize_ms_ += o.optimize_ms;
    out->ir_ += o.ir;
  }
  auto dylib = jit_->createJITDylib(name + "#" + std::to_string(next_id_++));
  if (!dylib) Internal("cannot create a JITDylib: " + ToString(dylib.takeError()));
  dylib->addToLinkOrder(*runtime_);
  // On failure the dylib goes at once (we hold the lock CompiledModule's destructor takes).
  auto fail = [&](const std::string& what) {
    if (llvm::Error e = jit_->getExecutionSession().removeJITDylib(*dylib)) llvm::consumeError(std::move(e));
    Internal(what);
  };
  for (ModuleObject& o : objects)
    if (llvm::Error e = jit_->addObjectFile(*dylib, std::move(o.object)))
      fail("cannot add the object code of " + name + ": " + ToString(std::move(e)));
  for (const std::string& entry : entry_points) {
    auto address = jit_->lookup(*dylib, entry);
    if (!address) fail("cannot materialise " + entry + ": " + ToString(address.takeError()));
    out->symbols_[entry] = address->toPtr<void*>();
  }
  out->jit_ = this;
  out->dylib_ = &*dylib;
  out->compile_ms_ = MillisSince(start);
  return out;
}

void Jit::Remove(llvm::orc::JITDylib* dylib) {
  std::lock_guard lock(mutex_);
  if (llvm::Error e = jit_->getExecutionSession().removeJITDylib(*dylib)) llvm::consumeError(std::move(e));
}

}  // namespace caracal::codegen
