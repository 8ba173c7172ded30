#include "codegen/jit/jit_runtime.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/runtime/expression_runtime.h"
#include "codegen/runtime/statement_runtime.h"

namespace caracal::codegen {


namespace {

const std::vector<RuntimeFunction>& Table() {
  static const std::vector<RuntimeFunction> table = {
      {"caracal_rt_raise", "ippp", reinterpret_cast<void*>(&caracal_rt_raise)},
      {"caracal_rt_copy", "vpp", reinterpret_cast<void*>(&caracal_rt_copy)},
      {"caracal_rt_set_null", "vp", reinterpret_cast<void*>(&caracal_rt_set_null)},
      {"caracal_rt_cast", "ippiiiiiiip", reinterpret_cast<void*>(&caracal_rt_cast)},
      {"caracal_rt_func", "ipiiiipip", reinterpret_cast<void*>(&caracal_rt_func)},
      {"caracal_rt_cast_enum", "ippiiipiiipip", reinterpret_cast<void*>(&caracal_rt_cast_enum)},
      {"caracal_rt_func_typed", "ipppip", reinterpret_cast<void*>(&caracal_rt_func_typed)},
      {"caracal_rt_check_domain", "ippp", reinterpret_cast<void*>(&caracal_rt_check_domain)},
      {"caracal_rt_array_set_var", "ippilp", reinterpret_cast<void*>(&caracal_rt_array_set_var)},
      {"caracal_rt_make_array", "ippip", reinterpret_cast<void*>(&caracal_rt_make_array)},
      {"caracal_rt_array_length", "lp", reinterpret_cast<void*>(&caracal_rt_array_length)},
      {"caracal_rt_subscript", "ppl", reinterpret_cast<void*>(&caracal_rt_subscript)},
      {"caracal_rt_arith", "ipippiiip", reinterpret_cast<void*>(&caracal_rt_arith)},
      {"caracal_rt_num_neg", "vpp", reinterpret_cast<void*>(&caracal_rt_num_neg)},
      {"caracal_rt_compare", "ippi", reinterpret_cast<void*>(&caracal_rt_compare)},
      {"caracal_rt_concat", "ipppp", reinterpret_cast<void*>(&caracal_rt_concat)},
      {"caracal_rt_like", "ippi", reinterpret_cast<void*>(&caracal_rt_like)},
      {"caracal_rt_any_all", "iiiipp", reinterpret_cast<void*>(&caracal_rt_any_all)},
      {"caracal_rt_read_string", "vpip", reinterpret_cast<void*>(&caracal_rt_read_string)},
      {"caracal_rt_read_decimal", "vpip", reinterpret_cast<void*>(&caracal_rt_read_decimal)},
      {"caracal_rt_read_array", "vpiiiip", reinterpret_cast<void*>(&caracal_rt_read_array)},
      {"caracal_rt_copy_bytes", "vppl", reinterpret_cast<void*>(&caracal_rt_copy_bytes)},
      {"caracal_rt_ascii", "lpi", reinterpret_cast<void*>(&caracal_rt_ascii)},
      {"caracal_rt_patch_string", "ipip", reinterpret_cast<void*>(&caracal_rt_patch_string)},
      {"caracal_rt_build_row", "ippp", reinterpret_cast<void*>(&caracal_rt_build_row)},
      {"caracal_rt_rebuild_row", "ipppi", reinterpret_cast<void*>(&caracal_rt_rebuild_row)},
      // Procedures (statement_runtime.h).
      {"caracal_rt_stmt", "ipp", reinterpret_cast<void*>(&caracal_rt_stmt)},
      {"caracal_rt_stmt_key", "ippp", reinterpret_cast<void*>(&caracal_rt_stmt_key)},
      {"caracal_rt_read_row", "ipppp", reinterpret_cast<void*>(&caracal_rt_read_row)},
      {"caracal_rt_declare_key", "ipppp", reinterpret_cast<void*>(&caracal_rt_declare_key)},
      {"caracal_rt_declare_direct", "ippppi", reinterpret_cast<void*>(&caracal_rt_declare_direct)},
      {"caracal_rt_key_build", "vppii", reinterpret_cast<void*>(&caracal_rt_key_build)},
      {"caracal_rt_key_drop", "vp", reinterpret_cast<void*>(&caracal_rt_key_drop)},
      {"caracal_rt_publish", "ip", reinterpret_cast<void*>(&caracal_rt_publish)},
      {"caracal_rt_raise_stmt", "ippp", reinterpret_cast<void*>(&caracal_rt_raise_stmt)},
      {"caracal_rt_return", "ipp", reinterpret_cast<void*>(&caracal_rt_return)},
      {"caracal_rt_error_at", "vppi", reinterpret_cast<void*>(&caracal_rt_error_at)},
      {"caracal_rt_routine_call", "ipppip", reinterpret_cast<void*>(&caracal_rt_routine_call)},
      {"caracal_rt_random", "dpi", reinterpret_cast<void*>(&caracal_rt_random)},
  };
  return table;
}

llvm::Type* TypeFor(llvm::LLVMContext& c, char code) {
  switch (code) {
    case 'v': return llvm::Type::getVoidTy(c);
    case 'i': return llvm::Type::getInt32Ty(c);
    case 'l': return llvm::Type::getInt64Ty(c);
    case 'd': return llvm::Type::getDoubleTy(c);
    case 'p': return llvm::PointerType::get(c, 0);
    default: throw std::logic_error(std::string("bad runtime signature letter ") + code);
  }
}

}  // namespace

std::span<const RuntimeFunction> RuntimeFunctions() { return Table(); }

llvm::FunctionType* RuntimeSignature(llvm::LLVMContext& context, const char* signature) {
  std::string_view sig(signature);
  std::vector<llvm::Type*> params;
  for (char c : sig.substr(1)) params.push_back(TypeFor(context, c));
  return llvm::FunctionType::get(TypeFor(context, sig[0]), params, false);
}

llvm::Function* DeclareRuntime(llvm::Module& module, std::string_view name) {
  if (llvm::Function* f = module.getFunction(llvm::StringRef(name.data(), name.size()))) return f;
  for (const RuntimeFunction& rf : RuntimeFunctions()) {
    if (name != rf.name) continue;
    auto* f = llvm::Function::Create(RuntimeSignature(module.getContext(), rf.signature),
                                     llvm::Function::ExternalLinkage, rf.name, module);
    f->setDoesNotThrow();
    // Raising is the exceptional path: calls to these count as unlikely for block placement.
    if (name == "caracal_rt_raise" || name == "caracal_rt_raise_stmt" || name == "caracal_rt_error_at")
      f->addFnAttr(llvm::Attribute::Cold);
    return f;
  }
  throw std::logic_error("unknown runtime function " + std::string(name));
}

}  // namespace caracal::codegen
