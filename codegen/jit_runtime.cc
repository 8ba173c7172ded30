#include "codegen/jit_runtime.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/eval_state.h"
#include "codegen/proc_runtime.h"
#include "planner/cast.h"
#include "planner/expr_eval.h"
#include "planner/functions.h"
#include "planner/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::SqlType;
using planner::TypeId;

namespace {

SqlType TypeOf(int32_t id, int32_t precision, int32_t scale) {
  return SqlType{static_cast<TypeId>(id), precision, scale};
}

// Runs `f`; on any exception stores it in the state and returns 0.
template <typename F>
int32_t Guard(EvalState* state, F&& f) {
  try {
    f();
    return 1;
  } catch (...) {
    state->error = std::current_exception();
    return 0;
  }
}

}  // namespace

extern "C" {

// Raises SqlError(sqlstate, message).
int32_t caracal_rt_raise(EvalState* state, const char* sqlstate, const char* message) {
  state->error = std::make_exception_ptr(planner::SqlError(sqlstate, message));
  return 0;
}

void caracal_rt_copy(Datum* dst, const Datum* src) {
  if (dst != src) *dst = *src;
}

void caracal_rt_set_null(Datum* dst) { *dst = Datum(); }

int32_t caracal_rt_cast(EvalState* state, const Datum* in, int32_t from_id, int32_t from_p, int32_t from_s,
                        int32_t to_id, int32_t to_p, int32_t to_s, int32_t explicit_cast, Datum* out) {
  return Guard(state, [&] {
    *out = planner::CastDatum(*in, TypeOf(from_id, from_p, from_s), TypeOf(to_id, to_p, to_s), explicit_cast != 0);
  });
}

int32_t caracal_rt_func(EvalState* state, int32_t func, int32_t rid, int32_t rp, int32_t rs, const Datum* args,
                        int32_t n, Datum* out) {
  return Guard(state, [&] {
    *out = planner::EvalFunction(static_cast<planner::Func>(func), TypeOf(rid, rp, rs),
                                 std::span<const Datum>(args, static_cast<size_t>(n)));
  });
}

// Binary arithmetic on two non-null boxed values (numeric; the interpreter's Arithmetic).
int32_t caracal_rt_arith(EvalState* state, int32_t op, const Datum* a, const Datum* b, int32_t rid, int32_t rp,
                         int32_t rs, Datum* out) {
  return Guard(state, [&] { *out = planner::Arithmetic(static_cast<planner::Op>(op), *a, *b, TypeOf(rid, rp, rs)); });
}

void caracal_rt_num_neg(const Datum* a, Datum* out) { *out = Datum::Num(-a->n); }

// CompareForType of two non-null boxed values: bpchar != 0 compares blank-insensitively.
int32_t caracal_rt_compare(const Datum* a, const Datum* b, int32_t bpchar) {
  return planner::CompareForType(*a, *b, SqlType::Of(bpchar ? TypeId::kBpchar : TypeId::kText));
}

int32_t caracal_rt_concat(EvalState* state, const Datum* a, const Datum* b, Datum* out) {
  return Guard(state, [&] {
    if (out == a) {
      out->s += b->s;
    } else {
      std::string s;
      s.reserve(a->s.size() + b->s.size());
      s.append(a->s).append(b->s);
      *out = Datum::String(std::move(s));
    }
  });
}

int32_t caracal_rt_like(const Datum* text, const Datum* pattern, int32_t case_insensitive) {
  return planner::LikeMatch(text->s, pattern->s, case_insensitive != 0) ? 1 : 0;
}

// A string column of a row (the null case is handled by the caller).
void caracal_rt_read_string(const RowValue* row, int32_t col, Datum* out) {
  out->kind = Datum::Kind::kString;
  std::string_view v = row->GetString(col);
  out->s.assign(v.data(), v.size());
}

}  // extern "C"

namespace {

const std::vector<RuntimeFunction>& Table() {
  static const std::vector<RuntimeFunction> table = {
      {"caracal_rt_raise", "ippp", reinterpret_cast<void*>(&caracal_rt_raise)},
      {"caracal_rt_copy", "vpp", reinterpret_cast<void*>(&caracal_rt_copy)},
      {"caracal_rt_set_null", "vp", reinterpret_cast<void*>(&caracal_rt_set_null)},
      {"caracal_rt_cast", "ippiiiiiiip", reinterpret_cast<void*>(&caracal_rt_cast)},
      {"caracal_rt_func", "ipiiiipip", reinterpret_cast<void*>(&caracal_rt_func)},
      {"caracal_rt_arith", "ipippiiip", reinterpret_cast<void*>(&caracal_rt_arith)},
      {"caracal_rt_num_neg", "vpp", reinterpret_cast<void*>(&caracal_rt_num_neg)},
      {"caracal_rt_compare", "ippi", reinterpret_cast<void*>(&caracal_rt_compare)},
      {"caracal_rt_concat", "ipppp", reinterpret_cast<void*>(&caracal_rt_concat)},
      {"caracal_rt_like", "ippi", reinterpret_cast<void*>(&caracal_rt_like)},
      {"caracal_rt_read_string", "vpip", reinterpret_cast<void*>(&caracal_rt_read_string)},
      // Procedures (proc_runtime.h).
      {"caracal_rt_stmt", "ipp", reinterpret_cast<void*>(&caracal_rt_stmt)},
      {"caracal_rt_publish", "ip", reinterpret_cast<void*>(&caracal_rt_publish)},
      {"caracal_rt_raise_stmt", "ippp", reinterpret_cast<void*>(&caracal_rt_raise_stmt)},
      {"caracal_rt_return", "ipp", reinterpret_cast<void*>(&caracal_rt_return)},
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
    return f;
  }
  throw std::logic_error("unknown runtime function " + std::string(name));
}

}  // namespace caracal::codegen
