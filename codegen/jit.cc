#include "codegen/jit.h"

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

#include <chrono>
#include <stdexcept>

#include "codegen/jit_runtime.h"
#include "planner/sql_error.h"

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
    case OptLevel::kO0: mpm = pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0); break;
    case OptLevel::kO1: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1); break;
    case OptLevel::kO2: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2); break;
    case OptLevel::kO3: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3); break;
  }
  mpm.run(module, mam);
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

CompiledModule::~CompiledModule() {
  if (jit_ != nullptr && dylib_ != nullptr) jit_->Remove(dylib_);
}

void* CompiledModule::Lookup(std::string_view name) const {
  auto it = symbols_.find(std::string(name));
  if (it == symbols_.end()) throw std::logic_error("no compiled entry point " + std::string(name));
  return it->second;
}

Jit::Jit(OptLevel level) : level_(level) {
  InitializeLlvmOnce();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) Internal("cannot detect the host target: " + ToString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(CodeGenLevel(level));
  auto tm = jtmb->createTargetMachine();
  if (!tm) Internal("cannot create a target machine: " + ToString(tm.takeError()));
  target_machine_ = std::move(*tm);
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
  std::lock_guard lock(mutex_);
  auto start = std::chrono::steady_clock::now();
  {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*module, &os)) {
      os.flush();
      Internal("generated code for " + module->getName().str() + " does not verify: " + problems);
    }
  }
  auto opt_start = std::chrono::steady_clock::now();
  Optimize(*module, target_machine_.get(), level_);
  double optimize_ms = MillisSince(opt_start);

  std::unique_ptr<CompiledModule> out(new CompiledModule());
  if (options.dump_ir) out->ir_ = PrintModule(*module);
  auto dylib = jit_->createJITDylib(module->getName().str() + "#" + std::to_string(next_id_++));
  if (!dylib) Internal("cannot create a JITDylib: " + ToString(dylib.takeError()));
  dylib->addToLinkOrder(*runtime_);
  // On failure the dylib goes at once (we hold the lock CompiledModule's destructor takes).
  auto fail = [&](const std::string& what) {
    if (llvm::Error e = jit_->getExecutionSession().removeJITDylib(*dylib)) llvm::consumeError(std::move(e));
    Internal(what);
  };
  if (llvm::Error e = jit_->addIRModule(*dylib, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    fail("cannot add the module: " + ToString(std::move(e)));
  for (const std::string& name : entry_points) {
    auto address = jit_->lookup(*dylib, name);
    if (!address) fail("cannot materialise " + name + ": " + ToString(address.takeError()));
    out->symbols_[name] = address->toPtr<void*>();
  }
  out->jit_ = this;
  out->dylib_ = &*dylib;
  out->compile_ms_ = MillisSince(start);
  out->optimize_ms_ = optimize_ms;
  return out;
}

void Jit::Remove(llvm::orc::JITDylib* dylib) {
  std::lock_guard lock(mutex_);
  if (llvm::Error e = jit_->getExecutionSession().removeJITDylib(*dylib)) llvm::consumeError(std::move(e));
}

}  // namespace caracal::codegen
