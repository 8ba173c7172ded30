// THE table that declares the runtime functions JIT-compiled code calls to LLVM: one row
// per function (symbol name, signature, address). The functions themselves run inside
// transactions and live in codegen/runtime/ (expression_runtime.h, statement_runtime.h);
// this is the compile-time half. jit.cc defines every row
// as an absolute symbol of the JIT's runtime JITDylib; the code generators declare a
// function in a module by name only (DeclareRuntime), so name, type and address can never
// disagree.
//
// Conventions: every function is extern "C". A function that can fail takes the
// EvalState first, stores the exception there and returns 0 (1 on success); generated
// code branches to its error exit on 0. Datum pointers are the frame, temps or
// constants; SQL types are passed as (TypeId, precision, scale) triples of int32.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace llvm {
class FunctionType;
class LLVMContext;
class Function;
class Module;
}  // namespace llvm

namespace caracal::codegen {

struct RuntimeFunction {
  const char* name;
  // Signature: return type then argument types, one letter each: v void, i i32,
  // l i64, d double, p pointer. "ippi" is int32(ptr, ptr, int32).
  const char* signature;
  void* address;
};

// Every runtime function (including those other codegen files register, see
// jit_runtime.cc). Stable for the life of the process.
std::span<const RuntimeFunction> RuntimeFunctions();

llvm::FunctionType* RuntimeSignature(llvm::LLVMContext& context, const char* signature);
// Declares (or finds) runtime function `name` in `module`. Throws std::logic_error if
// the table has no such function (a code generator bug).
llvm::Function* DeclareRuntime(llvm::Module& module, std::string_view name);

}  // namespace caracal::codegen
