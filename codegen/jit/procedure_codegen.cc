#include "codegen/jit/procedure_codegen.h"

#include <fmt/format.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cassert>
#include <deque>
#include <span>
#include <unordered_set>

#include "codegen/runtime/direct_declare.h"
#include "codegen/runtime/error_context.h"
#include "codegen/jit/jit_runtime.h"
#include "codegen/runtime/point_key.h"
#include "codegen/jit/row_writes.h"
#include "planner/analysis/routine_calls.h"
#include "planner/plan/ir_visit.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Block;
using planner::Datum;
using planner::SqlType;
using planner::Stmt;
using planner::StmtKind;
using planner::TypeId;

namespace {

[[noreturn]] void Internal(const std::string& what) {
  throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: " + what);
}

// Whether an EXIT or CONTINUE in `block` leaves it for a loop around it (`loops`: the
// labels of the loops between it and the block, "" for an unlabelled one).
bool ExitsLeave(const Block& block, std::vector<std::string>& loops) {
  for (const auto& sp : block) {
    const Stmt& s = *sp;
    if (s.kind == StmtKind::kExit || s.kind == StmtKind::kContinue) {
      if (loops.empty()) return true;
      if (!s.label.empty() && std::find(loops.begin(), loops.end(), s.label) == loops.end()) return true;
    }
    const bool loop = s.kind == StmtKind::kForRange || s.kind == StmtKind::kForEach || s.kind == StmtKind::kWhile;
    if (loop) loops.push_back(s.label);
    bool leaves = ExitsLeave(s.body, loops) || ExitsLeave(s.else_block, loops);
    for (const auto& b : s.blocks) leaves = leaves || ExitsLeave(b, loops);
    if (loop) loops.pop_back();
    if (leaves) return true;
  }
  return false;
}

llvm::Value* PtrConstant(llvm::IRBuilder<>& b, const void* p) {
  return b.CreateIntToPtr(b.getInt64(reinterpret_cast<uintptr_t>(p)), b.getPtrTy());
}

// A block of `fn` that records where its code failed (caracal_rt_error_at: `at`,
// `where`) for PL/pgSQL's CONTEXT, then returns the error status.
llvm::BasicBlock* NewErrorAtBlock(llvm::IRBuilder<>& b, ExprEmitter& emitter, llvm::Function* fn, const void* at,
                                  ErrorWhere where) {
  llvm::IRBuilderBase::InsertPointGuard keep(b);
  auto* block = llvm::BasicBlock::Create(b.getContext(), "error.at", fn);
  b.SetInsertPoint(block);
  emitter.CallRuntime("caracal_rt_error_at",
                      {emitter.state(), PtrConstant(b, at), b.getInt32(static_cast<int32_t>(where))});
  b.CreateRet(b.getInt32(0));
  return block;
}

// PL/pgSQL's error for NULL into a variable declared NOT NULL.
void EmitNotNullCheck(ExprEmitter& emitter, const CgValue& value, const planner::Variable& v) {
  emitter.RaiseIf(value.is_null, "22004",
                  fmt::format("null value cannot be assigned to variable \"{}\" declared NOT NULL", v.name));
}

// As the interpreter's Assign: `value` (of static type `from`) cast to variable `slot`'s
// type when they differ, its NOT NULL enforced, stored into the frame.
void EmitAssign(ExprEmitter& emitter, const planner::ProcedureIr& ir, int slot, CgValue value, const SqlType& from) {
  const planner::Variable& v = ir.variables.at(static_cast<size_t>(slot));
  SqlType stored = from;
  if (!(from == v.type)) {
    value = emitter.Cast(value, from, v.type, false);
    stored = v.type;
  }
  if (v.not_null) EmitNotNullCheck(emitter, value, v);
  emitter.Store(value, stored.id, emitter.Variable(slot));
}

// Emits one function for one statement list of a procedure.
class BlockCompiler {
 public:
  // `db` (may be null: then every table statement goes to the runner) gives the schemas
  // of the rows compiled statements read.
  BlockCompiler(const planner::ProcedureIr& ir, const engine::Database* db, llvm::Function* fn, ConstantPool& constants,
                int* temps, bool fast_paths)
      : ir_(ir), db_(db), b_(fn->getContext()), fn_(fn) {
    auto* entry = llvm::BasicBlock::Create(fn->getContext(), "entry", fn);
    error_exit_ = llvm::BasicBlock::Create(fn->getContext(), "error", fn);
    b_.SetInsertPoint(error_exit_);
    b_.CreateRet(b_.getInt32(0));
    b_.SetInsertPoint(entry);
    emitter_ = std::make_unique<ExprEmitter>(b_, fn->getArg(0), error_exit_, constants, temps);
    emitter_->set_fast_paths(fast_paths);
    emitter_->set_routine_calls(true);
  }

  // `for_init`: the init program, whose DECLARE defaults that call functions reading
  // tables stay NULL (as the interpreter's InitializeLocals for_init).
  void CompileFunction(const Block& block, bool for_init) {
    InitializeLocals(for_init);
    CompileBlock(block);
    b_.CreateRet(b_.getInt32(static_cast<int32_t>(BlockEnd::kEnd)));
    emitter_->DropUnusedStateLoads();
  }

 private:
  struct Loop {
    const std::string* label;
    llvm::BasicBlock* break_to;
    llvm::BasicBlock* continue_to;
  };

  // While it lives, code that fails leaves through a block of its own that records
  // where (caracal_rt_error_at: statement `s`, `where`) for PL/pgSQL's CONTEXT, then
  // returns the error status. The block is dropped if nothing branched to it.
  class ErrorScope {
   public:
    // `at`: the Stmt, or for kLocals the planner::Variable.
    ErrorScope(BlockCompiler& c, const void* at, ErrorWhere where)
        : c_(c), block_(NewErrorAtBlock(c.b_, *c.emitter_, c.fn_, at, where)) {
      previous_ = c.emitter_->set_error_exit(block_);
    }
    ~ErrorScope() {
      c_.emitter_->set_error_exit(previous_);
      if (block_->use_empty()) block_->eraseFromParent();
    }
    ErrorScope(const ErrorScope&) = delete;
    ErrorScope& operator=(const ErrorScope&) = delete;

   private:
    BlockCompiler& c_;
    llvm::BasicBlock* block_;
    llvm::BasicBlock* previous_;
  };

  llvm::BasicBlock* NewBlock(const char* name) { return llvm::BasicBlock::Create(b_.getContext(), name, fn_); }

  // After a branch or return, statements that follow (unreachable) go to a fresh block.
  void StartDeadBlock() { b_.SetInsertPoint(NewBlock("after")); }

  void Ret(BlockEnd end) {
    b_.CreateRet(b_.getInt32(static_cast<int32_t>(end)));
    StartDeadBlock();
  }

  // As the interpreter's InitializeLocals: defaults stored as evaluated, then NOT NULL.
  void InitializeLocals(bool for_init) {
    for (size_t i = 0; i < ir_.variables.size(); ++i) {
      const planner::Variable& v = ir_.variables[i];
      if (v.kind != planner::VariableKind::kLocal || !v.default_value) continue;
      if (for_init && planner::CallsTableRoutine(*v.default_value)) continue;
      ErrorScope scope(*this, &v, ErrorWhere::kLocals);
      CgValue value = emitter_->Emit(*v.default_value);
      if (v.not_null) EmitNotNullCheck(*emitter_, value, v);
      emitter_->Store(value, v.default_value->type.id, emitter_->Variable(static_cast<int>(i)));
    }
  }


  void Assign(int slot, CgValue value, const SqlType& from) { EmitAssign(*emitter_, ir_, slot, value, from); }

  // `v[i] := x` (the binder's v := array_set(v, i, x)): updated in the frame, in place.
  static bool IsElementAssignment(const Stmt& s) {
    const planner::Expr& e = *s.value;
    return e.kind == planner::ExprKind::kFunc && e.func == planner::Func::kArraySet &&
           e.args[0]->kind == planner::ExprKind::kSlot &&
           e.args[0]->slot == planner::Slot{planner::SlotSpace::kVariable, s.target};
  }

  void CompileElementAssignment(const Stmt& s) {
    const planner::Expr& e = *s.value;
    CgValue index = emitter_->Emit(*e.args[1]);
    CgValue value = emitter_->Emit(*e.args[2]);
    llvm::Value* boxed = emitter_->NewTemp();
    emitter_->Store(value, e.args[2]->type.id, boxed);
    emitter_->CheckOk(emitter_->CallRuntime(
        "caracal_rt_array_set_var", {emitter_->state(), emitter_->Variable(s.target),
                                     b_.CreateZExt(index.is_null, b_.getInt32Ty()), index.value, boxed}));
  }

  void SetFound(llvm::Value* found) {
    if (ir_.found_variable < 0) return;
    emitter_->Store(CgValue{Repr::kBool, b_.getFalse(), found}, TypeId::kBool, emitter_->Variable(ir_.found_variable));
  }

  // ROW_COUNT after a point lookup: 1 or 0 (ProcedureInterpreter::SelectInto's count).
  void SetRowCountFound(llvm::Value* found) {
    if (ir_.row_count_variable < 0) return;
    emitter_->Store(CgValue{Repr::kInt, b_.getFalse(), b_.CreateZExt(found, b_.getInt64Ty())}, TypeId::kInt8,
                    emitter_->Variable(ir_.row_count_variable));
  }

  void CompileBlock(const Block& block) {
    for (const auto& s : block) CompileStmt(*s);
  }

  void CompileStmt(const Stmt& s) {
    ErrorScope scope(*this, &s, ErrorWhere::kStatement);
    switch (s.kind) {
      case StmtKind::kNull: return;
      case StmtKind::kAssign:
        if (IsElementAssignment(s)) return CompileElementAssignment(s);
        Assign(s.target, emitter_->Emit(*s.value), s.value->type);
        return;
      case StmtKind::kIf: CompileIf(s); return;
      case StmtKind::kForRange: CompileForRange(s); return;
      case StmtKind::kForEach: CompileForEach(s); return;
      case StmtKind::kWhile: CompileWhile(s); return;
      case StmtKind::kExit:
      case StmtKind::kContinue: CompileExitContinue(s); return;
      case StmtKind::kRaise: CompileRaise(s); return;
      case StmtKind::kReturn: CompileReturn(s); return;
      case StmtKind::kPublish:
        emitter_->CheckOk(emitter_->CallRuntime("caracal_rt_publish", {emitter_->state()}));
        return;
      case StmtKind::kExceptionBlock: {
        // The interpreter runs the block (its subtransaction and handlers); compiled code
        // learns from it only whether the body returned, so an EXIT or CONTINUE out of the
        // block leaves the procedure to the interpreter.
        std::vector<std::string> loops;
        bool leaves = ExitsLeave(s.body, loops);
        for (const auto& b : s.blocks) leaves = leaves || ExitsLeave(b, loops);
        if (leaves) throw planner::SqlError(planner::sqlstate::kFeatureNotSupported,
                                            "EXIT or CONTINUE out of an EXCEPTION block is not compiled");
        CompileDelegated(s);
        return;
      }
      default: CompileDelegated(s); return;
    }
  }

  void CompileIf(const Stmt& s) {
    llvm::BasicBlock* done = NewBlock("if.done");
    for (size_t i = 0; i < s.conds.size(); ++i) {
      llvm::Value* cond = emitter_->EmitCondition(*s.conds[i]);
      llvm::BasicBlock* then_bb = NewBlock("if.then");
      llvm::BasicBlock* next = NewBlock("if.next");
      b_.CreateCondBr(cond, then_bb, next);
      b_.SetInsertPoint(then_bb);
      CompileBlock(s.blocks[i]);
      b_.CreateBr(done);
      b_.SetInsertPoint(next);
    }
    CompileBlock(s.else_block);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  CgValue IntOperand(const planner::Expr& e, const char* what) {
    CgValue v = emitter_->Emit(e);
    if (v.repr != Repr::kInt || !e.type.is_integer()) Internal(std::string("FOR loop ") + what + " is not an integer");
    return v;
  }

  void CompileForRange(const Stmt& s) {
    CgValue lo = IntOperand(*s.lower, "lower bound");
    CgValue hi = IntOperand(*s.upper, "upper bound");
    emitter_->RaiseIf(lo.is_null, "22004", "lower bound of FOR loop cannot be null");
    emitter_->RaiseIf(hi.is_null, "22004", "upper bound of FOR loop cannot be null");
    llvm::Value* step = b_.getInt64(1);
    if (s.step) {
      CgValue st = IntOperand(*s.step, "step");
      emitter_->RaiseIf(st.is_null, "22004", "BY value of FOR loop cannot be null");
      emitter_->RaiseIf(b_.CreateICmpSLE(st.value, b_.getInt64(0)), "22023", "BY value of FOR loop must be greater than zero");
      step = st.value;
    }
    llvm::IRBuilder<> entry_builder(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    llvm::Value* counter = entry_builder.CreateAlloca(b_.getInt64Ty(), nullptr, "for.i");
    llvm::Value* iterated = entry_builder.CreateAlloca(b_.getInt1Ty(), nullptr, "for.iterated");
    b_.CreateStore(lo.value, counter);
    b_.CreateStore(b_.getFalse(), iterated);
    llvm::BasicBlock* cond_bb = NewBlock("for.cond");
    llvm::BasicBlock* body_bb = NewBlock("for.body");
    llvm::BasicBlock* next_bb = NewBlock("for.next");
    llvm::BasicBlock* exit_bb = NewBlock("for.exit");
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(cond_bb);
    llvm::Value* i = b_.CreateLoad(b_.getInt64Ty(), counter);
    b_.CreateCondBr(s.reverse ? b_.CreateICmpSGE(i, hi.value) : b_.CreateICmpSLE(i, hi.value), body_bb, exit_bb);
    b_.SetInsertPoint(body_bb);
    b_.CreateStore(b_.getTrue(), iterated);
    // The loop variable is Datum::Int(i), whatever its declared integer type.
    emitter_->Store(CgValue{Repr::kInt, b_.getFalse(), i}, TypeId::kInt8, emitter_->Variable(s.target));
    loops_.push_back({&s.label, exit_bb, next_bb});
    CompileBlock(s.body);
    loops_.pop_back();
    b_.CreateBr(next_bb);
    b_.SetInsertPoint(next_bb);
    llvm::Value* cur = b_.CreateLoad(b_.getInt64Ty(), counter);
    b_.CreateStore(s.reverse ? b_.CreateSub(cur, step) : b_.CreateAdd(cur, step), counter);
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(exit_bb);
    SetFound(b_.CreateLoad(b_.getInt1Ty(), iterated));
  }

  // As the runner's kForEach: each element, cast to the loop variable's type, then the
  // body; FOUND says whether it iterated.
  void CompileForEach(const Stmt& s) {
    CgValue array = emitter_->Emit(*s.value);
    if (array.repr != Repr::kBoxed || !s.value->type.is_array()) Internal("FOREACH over a non-array");
    emitter_->RaiseIf(array.is_null, "22004", "FOREACH expression must not be null");
    // A copy shares the elements, so they live on if the body reassigns the array.
    llvm::Value* held = emitter_->NewTemp();
    emitter_->CallRuntime("caracal_rt_copy", {held, array.value});
    llvm::Value* count = emitter_->CallRuntime("caracal_rt_array_length", {held});
    llvm::IRBuilder<> entry_builder(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    llvm::Value* counter = entry_builder.CreateAlloca(b_.getInt64Ty(), nullptr, "foreach.i");
    llvm::Value* iterated = entry_builder.CreateAlloca(b_.getInt1Ty(), nullptr, "foreach.iterated");
    b_.CreateStore(b_.getInt64(1), counter);
    b_.CreateStore(b_.getFalse(), iterated);
    llvm::BasicBlock* cond_bb = NewBlock("foreach.cond");
    llvm::BasicBlock* body_bb = NewBlock("foreach.body");
    llvm::BasicBlock* next_bb = NewBlock("foreach.next");
    llvm::BasicBlock* exit_bb = NewBlock("foreach.exit");
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(cond_bb);
    llvm::Value* i = b_.CreateLoad(b_.getInt64Ty(), counter);
    b_.CreateCondBr(b_.CreateICmpSLE(i, count), body_bb, exit_bb);
    b_.SetInsertPoint(body_bb);
    b_.CreateStore(b_.getTrue(), iterated);
    const SqlType element_type = s.value->type.Element();
    llvm::Value* element = emitter_->CallRuntime("caracal_rt_subscript", {held, i});
    Assign(s.target, emitter_->Load(element, element_type.id), element_type);
    loops_.push_back({&s.label, exit_bb, next_bb});
    CompileBlock(s.body);
    loops_.pop_back();
    b_.CreateBr(next_bb);
    b_.SetInsertPoint(next_bb);
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), counter), b_.getInt64(1)), counter);
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(exit_bb);
    SetFound(b_.CreateLoad(b_.getInt1Ty(), iterated));
  }

  void CompileWhile(const Stmt& s) {
    llvm::BasicBlock* cond_bb = NewBlock("while.cond");
    llvm::BasicBlock* body_bb = NewBlock("while.body");
    llvm::BasicBlock* exit_bb = NewBlock("while.exit");
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(cond_bb);
    if (s.conds.empty()) b_.CreateBr(body_bb);
    else b_.CreateCondBr(emitter_->EmitCondition(*s.conds[0]), body_bb, exit_bb);
    b_.SetInsertPoint(body_bb);
    loops_.push_back({&s.label, exit_bb, cond_bb});
    CompileBlock(s.body);
    loops_.pop_back();
    b_.CreateBr(cond_bb);
    b_.SetInsertPoint(exit_bb);
  }

  void CompileExitContinue(const Stmt& s) {
    // The interpreter hands EXIT/CONTINUE outwards until a loop whose label matches (an
    // unlabelled one stops at the innermost loop); with no such loop the body just ends.
    const Loop* target = nullptr;
    for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
      if (s.label.empty() || *it->label == s.label) {
        target = &*it;
        break;
      }
    llvm::BasicBlock* jump = NewBlock(s.kind == StmtKind::kExit ? "exit" : "continue");
    llvm::BasicBlock* next = NewBlock("after");
    if (s.conds.empty()) b_.CreateBr(jump);
    else b_.CreateCondBr(emitter_->EmitCondition(*s.conds[0]), jump, next);
    b_.SetInsertPoint(jump);
    if (target == nullptr) b_.CreateRet(b_.getInt32(static_cast<int32_t>(BlockEnd::kEnd)));
    else b_.CreateBr(s.kind == StmtKind::kExit ? target->break_to : target->continue_to);
    b_.SetInsertPoint(next);
  }

  // Evaluates `args` in order into consecutive temps; returns the first.
  llvm::Value* EvaluateInto(const std::vector<planner::ExprPtr>& args, std::vector<CgValue>* values = nullptr) {
    std::vector<CgValue> v;
    for (const auto& a : args) v.push_back(emitter_->Emit(*a));
    if (args.empty()) return llvm::ConstantPointerNull::get(b_.getPtrTy());
    llvm::Value* first = emitter_->NewTemp();
    for (size_t i = 1; i < args.size(); ++i) emitter_->NewTemp();
    for (size_t i = 0; i < args.size(); ++i) {
      llvm::Value* slot = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), first, i * Layout::DatumSize());
      emitter_->Store(v[i], args[i]->type.id, slot);
    }
    if (values) *values = std::move(v);
    return first;
  }

  void CompileRaise(const Stmt& s) {
    llvm::Value* args = EvaluateInto(s.args);
    emitter_->CheckOk(emitter_->CallRuntime("caracal_rt_raise_stmt", {emitter_->state(), PtrConstant(b_, &s), args}));
  }

  void CompileReturn(const Stmt& s) {
    if (ir_.returns != planner::ProcedureIr::Returns::kScalar || !s.value) {
      Ret(BlockEnd::kEnd);
      return;
    }
    CgValue v = emitter_->Emit(*s.value);
    const SqlType& to = ir_.result_columns.at(0).type;
    SqlType type = s.value->type;
    if (!(type == to)) {
      ErrorScope cast(*this, &s, ErrorWhere::kReturnCast);  // PL/pgSQL casts at the function's exit
      v = emitter_->Cast(v, type, to, false);
      type = to;
    }
    llvm::Value* boxed = emitter_->NewTemp();
    emitter_->Store(v, type.id, boxed);
    emitter_->CheckOk(emitter_->CallRuntime("caracal_rt_return", {emitter_->state(), boxed}));
    Ret(BlockEnd::kReturned);
  }

  void CompileDelegated(const Stmt& s) {
    llvm::Value* r = nullptr;
    std::optional<PointKeyPlan> key = PlanPointKey(ir_, s);
    if (key && CanCompileSelectInto(s)) {
      CompileSelectInto(s, *key);
      return;
    }
    if (key && s.kind == StmtKind::kDeclare) {
      // A point declaration goes straight to the DeclareContext (no statement dispatch).
      const Stmt* body = ir_.TableStatement(s.target_stmt);
      const DirectDeclare how = DirectDeclareOf(*body);
      if (how != DirectDeclare::kNone)
        r = CallWithPointKey("caracal_rt_declare_direct", s, *key,
                             {PtrConstant(b_, body), b_.getInt32(static_cast<uint32_t>(how))});
      else
        r = CallWithPointKey("caracal_rt_declare_key", s, *key, {PtrConstant(b_, body)});
    } else if (key && (s.kind != StmtKind::kInsert || PlainKeyParts(*key))) {
      // An INSERT's key is its VALUES' key columns, computed ahead of the others only
      // when that cannot raise an error (which would then come before an earlier
      // column's, unlike PostgreSQL's).
      r = CallWithPointKey("caracal_rt_stmt_key", s, *key);
    } else {
      r = emitter_->CallRuntime("caracal_rt_stmt", {emitter_->state(), PtrConstant(b_, &s)});
    }
    emitter_->CheckOk(r);
    // Only a statement holding others (ProcedureInterpreter::RunStmt) can end the body.
    switch (s.kind) {
      case StmtKind::kIf:
      case StmtKind::kForRange:
      case StmtKind::kForEach:
      case StmtKind::kWhile:
      case StmtKind::kExit:
      case StmtKind::kContinue:
      case StmtKind::kReturn:
      case StmtKind::kExceptionBlock: break;
      default: return;
    }
    llvm::BasicBlock* returned = NewBlock("stmt.returned");
    llvm::BasicBlock* next = NewBlock("stmt.next");
    b_.CreateCondBr(b_.CreateICmpEQ(r, b_.getInt32(static_cast<int32_t>(BlockEnd::kReturned))), returned, next);
    b_.SetInsertPoint(returned);
    b_.CreateRet(b_.getInt32(static_cast<int32_t>(BlockEnd::kReturned)));
    b_.SetInsertPoint(next);
  }

  // Whether part `i`'s value `v` cannot be a key: NULL, or out of its column's range (an
  // expression of the column's own type is in range: every assignment checks it).
  llvm::Value* KeyPartUnusable(const PointKeyPlan& key, size_t i, const CgValue& v) {
    const planner::TypeId type = key.parts[i]->type.id;
    const engine::ColumnType width = key.widths[i];
    if (width == engine::ColumnType::kBigInt || (width == engine::ColumnType::kInteger && type != planner::TypeId::kInt8) ||
        (width == engine::ColumnType::kSmallInt && type == planner::TypeId::kInt2))
      return v.is_null;
    const bool small = width == engine::ColumnType::kSmallInt;
    llvm::Value* lo = b_.getInt64(static_cast<uint64_t>(small ? INT16_MIN : INT32_MIN));
    llvm::Value* hi = b_.getInt64(static_cast<uint64_t>(small ? INT16_MAX : INT32_MAX));
    return b_.CreateOr(v.is_null, b_.CreateOr(b_.CreateICmpSLT(v.value, lo), b_.CreateICmpSGT(v.value, hi)));
  }

  // Computes the key parts of `key`, part by part in key order as the runner would;
  // branches to `no_key` at a NULL part or one outside its column's range (no row).
  std::vector<llvm::Value*> EmitKeyParts(const PointKeyPlan& key, llvm::BasicBlock* no_key) {
    std::vector<llvm::Value*> parts;
    for (size_t i = 0; i < key.parts.size(); ++i) {
      CgValue v = emitter_->Emit(*key.parts[i]);
      llvm::BasicBlock* usable = NewBlock("key.part");
      b_.CreateCondBr(KeyPartUnusable(key, i, v), no_key, usable);
      b_.SetInsertPoint(usable);
      parts.push_back(v.value);
    }
    return parts;
  }

  // A key for the runtime (a `const Key*`), from its parts' values (each in range).
  struct StackKey {
    llvm::Value* key;
    llvm::Value* storage_to_drop;  // a Key caracal_rt_key_drop destroys after use, or null
  };

  // Builds the key of `parts` in a Key-shaped stack object. A key that fits a Key's inline
  // bytes (every TPC-C key) is written in place at Key::Layout()'s offsets, as
  // Key::EncodeInt encodes each part, with no call; a longer one is made by the runtime.
  StackKey BuildKey(const PointKeyPlan& key, const std::vector<llvm::Value*>& parts) {
    const engine::Key::InlineLayout layout = engine::Key::Layout();
    auto* storage = llvm::cast<llvm::AllocaInst>(
        emitter_->EntryAlloca(llvm::ArrayType::get(b_.getInt8Ty(), layout.object_size)));
    storage->setAlignment(llvm::Align(layout.object_align));
    size_t size = 0;
    for (engine::ColumnType w : key.widths) size += KeyPartBytes(w);
    if (size > engine::Key::kInlineCapacity || !Layout::KeyInPlaceKnown()) {
      const auto n = static_cast<uint64_t>(parts.size());
      llvm::Value* array = emitter_->EntryAlloca(llvm::ArrayType::get(b_.getInt64Ty(), n));
      for (uint64_t i = 0; i < n; ++i) b_.CreateStore(parts[i], b_.CreateConstInBoundsGEP1_64(b_.getInt64Ty(), array, i));
      emitter_->CallRuntime("caracal_rt_key_build", {storage, array, b_.getInt32(static_cast<uint32_t>(n)),
                                                     b_.getInt32(static_cast<uint32_t>(key.packed_widths))});
      return {storage, storage};
    }
    auto at = [&](size_t offset) { return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), storage, offset); };
    b_.CreateStore(b_.getInt32(static_cast<uint32_t>(size)), at(layout.size));
    b_.CreateStore(b_.getInt32(static_cast<uint32_t>(engine::Key::kInlineCapacity)), at(layout.capacity));
    b_.CreateStore(llvm::ConstantPointerNull::get(b_.getPtrTy()), at(layout.heap));
    size_t offset = layout.bytes;
    for (size_t i = 0; i < parts.size(); ++i) {
      const auto bits = static_cast<unsigned>(8 * KeyPartBytes(key.widths[i]));
      llvm::IntegerType* type = b_.getIntNTy(bits);
      // Sign bit flipped, big-endian: byte order is numeric order.
      llvm::Value* flipped = b_.CreateXor(b_.CreateTrunc(parts[i], type), llvm::ConstantInt::get(type, llvm::APInt::getSignMask(bits)));
      llvm::Value* swapped = b_.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, flipped);
      b_.CreateAlignedStore(swapped, at(offset), llvm::Align(1));
      offset += bits / 8;
    }
    return {storage, nullptr};
  }

  // A constant, a variable, or an element of an array by such a subscript: its value
  // cannot fail to be computed.
  static bool CannotFail(const planner::Expr& e) {
    switch (e.kind) {
      case planner::ExprKind::kConst: return true;
      case planner::ExprKind::kSlot: return e.slot.space == planner::SlotSpace::kVariable;
      case planner::ExprKind::kSubscript:
        return e.args.size() == 2 && CannotFail(*e.args[0]) && CannotFail(*e.args[1]);
      default: return false;
    }
  }

  // Whether every part cannot fail: then all may be evaluated before it is known whether
  // the key is usable.
  static bool PlainKeyParts(const PointKeyPlan& key) {
    for (const planner::Expr* e : key.parts)
      if (!CannotFail(*e)) return false;
    return true;
  }

  // Calls runtime function `name` (state, stmt, key, extra...) with the key computed
  // here (BuildKey), or a null key when there is none; its i32 result.
  llvm::Value* CallWithPointKey(const char* name, const Stmt& s, const PointKeyPlan& key,
                                std::initializer_list<llvm::Value*> extra = {}) {
    auto call = [&](llvm::Value* key_ptr) {
      std::vector<llvm::Value*> args = {emitter_->state(), PtrConstant(b_, &s), key_ptr};
      args.insert(args.end(), extra.begin(), extra.end());
      return b_.CreateCall(DeclareRuntime(*fn_->getParent(), name), args);
    };
    auto call_with = [&](const std::vector<llvm::Value*>& parts, llvm::Value* unusable) {
      StackKey built = BuildKey(key, parts);
      llvm::Value* key_ptr = built.key;
      if (unusable != nullptr) key_ptr = b_.CreateSelect(unusable, llvm::ConstantPointerNull::get(b_.getPtrTy()), key_ptr);
      llvm::Value* r = call(key_ptr);
      if (built.storage_to_drop != nullptr) emitter_->CallRuntime("caracal_rt_key_drop", {built.storage_to_drop});
      return r;
    };
    if (PlainKeyParts(key)) {
      // Straight-line: the key built, and passed as null when a part is unusable. No block
      // per part: the -O0 tier's code generator pays for every block (most keys are plain).
      std::vector<llvm::Value*> parts;
      llvm::Value* unusable = b_.getFalse();
      for (size_t i = 0; i < key.parts.size(); ++i) {
        CgValue v = emitter_->Emit(*key.parts[i]);
        unusable = b_.CreateOr(KeyPartUnusable(key, i, v), unusable);
        parts.push_back(v.value);
      }
      return call_with(parts, unusable);
    }
    llvm::BasicBlock* no_key = NewBlock("key.none");
    std::vector<llvm::Value*> parts = EmitKeyParts(key, no_key);
    llvm::BasicBlock* done = NewBlock("key.done");
    llvm::Value* with_key = call_with(parts, nullptr);
    llvm::BasicBlock* with_key_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(no_key);
    llvm::Value* without_key = call(llvm::ConstantPointerNull::get(b_.getPtrTy()));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode* r = b_.CreatePHI(b_.getInt32Ty(), 2);
    r->addIncoming(with_key, with_key_end);
    r->addIncoming(without_key, no_key);
    return r;
  }

  // Whether point SELECT INTO `s` can be compiled here: the runtime only reads the row,
  // and the outputs are assigned by this code exactly as ProcedureInterpreter::SelectInto does.
  bool CanCompileSelectInto(const Stmt& s) const {
    if (db_ == nullptr || s.kind != StmtKind::kSelectInto || !s.point_lookup || !s.select || s.collect ||
        s.into_reads_targets)
      return false;
    for (const auto& out : s.select->outputs)
      if (out->ContainsAggregate() || out->References(planner::SlotSpace::kExcluded) ||
          out->References(planner::SlotSpace::kGroupKey))
        return false;
    return s.select->outputs.size() >= s.select->columns.size();
  }

  // ProcedureInterpreter::SelectInto's point lookup: read the row, STRICT, FOUND, then each
  // output in order into its variable (NULLs when there is no row).
  void CompileSelectInto(const Stmt& s, const PointKeyPlan& key) {
    llvm::Value* row_slot = emitter_->EntryAlloca(b_.getPtrTy());
    emitter_->CheckOk(CallWithPointKey("caracal_rt_read_row", s, key, {row_slot}));
    llvm::Value* row = b_.CreateLoad(b_.getPtrTy(), row_slot, "selrow");
    llvm::Value* found = b_.CreateICmpNE(row, llvm::ConstantPointerNull::get(b_.getPtrTy()));
    // From here PL/pgSQL assigns the targets; only evaluating an output is the SQL's.
    ErrorScope into(*this, &s, ErrorWhere::kPlpgsql);
    if (s.strict) emitter_->RaiseIf(b_.CreateNot(found), "P0002", "query returned no rows");
    SetFound(found);
    SetRowCountFound(found);
    llvm::BasicBlock* have_row = NewBlock("sel.row");
    llvm::BasicBlock* no_row = NewBlock("sel.norow");
    llvm::BasicBlock* done = NewBlock("sel.done");
    b_.CreateCondBr(found, have_row, no_row);

    b_.SetInsertPoint(no_row);
    for (int slot : s.into) {
      const planner::Variable& v = ir_.variables.at(static_cast<size_t>(slot));
      Assign(slot, emitter_->NullOf(v.type.id), v.type);
    }
    b_.CreateBr(done);

    b_.SetInsertPoint(have_row);
    const engine::Schema& schema = db_->schema(s.table->id);
    llvm::Value* outer_row = emitter_->row();
    const engine::Schema* outer_schema = emitter_->schema();
    emitter_->set_row(row);
    emitter_->set_schema(&schema);
    const size_t columns = s.select->columns.size();
    for (size_t i = 0; i < s.into.size(); ++i) {
      const int slot = s.into[i];
      const planner::Variable& v = ir_.variables.at(static_cast<size_t>(slot));
      if (i >= columns) {
        Assign(slot, emitter_->NullOf(v.type.id), v.type);
        continue;
      }
      const planner::Expr& out = *s.select->outputs[i];
      if (out.kind == planner::ExprKind::kSlot && out.slot.space == planner::SlotSpace::kColumn && out.type == v.type &&
          !v.not_null && v.type.is_string()) {
        // A string column into a variable of its type: copied straight into the variable.
        emitter_->ReadVariableColumnInto(row, out.slot.index, emitter_->Variable(slot));
        continue;
      }
      CgValue value;
      {
        ErrorScope query(*this, &s, ErrorWhere::kStatement);
        value = emitter_->Emit(out);
      }
      Assign(slot, value, s.select->columns[i].type);
    }
    // The outputs no target takes (PERFORM's, all of them) are still computed: they may raise.
    for (size_t i = s.into.size(); i < columns; ++i) {
      const planner::Expr& out = *s.select->outputs[i];
      if (out.kind == planner::ExprKind::kConst || out.kind == planner::ExprKind::kSlot) continue;
      ErrorScope query(*this, &s, ErrorWhere::kStatement);
      emitter_->Emit(out);
    }
    emitter_->set_row(outer_row);
    emitter_->set_schema(outer_schema);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  const planner::ProcedureIr& ir_;
  const engine::Database* db_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_;
  llvm::BasicBlock* error_exit_;
  std::unique_ptr<ExprEmitter> emitter_;
  std::vector<Loop> loops_;
};

}  // namespace

namespace {

// The expressions of the table statements, each with the schema of the row it reads.
std::vector<std::pair<const planner::Expr*, const engine::Schema*>> StatementExprs(const planner::ProcedureIr& ir,
                                                                          const engine::Database& db) {
  std::vector<std::pair<const planner::Expr*, const engine::Schema*>> out;
  for (const planner::Stmt* s : ir.table_statements) {
    if (s->table == nullptr) continue;  // a query plan: interpreted
    const engine::Schema* schema = &db.schema(s->table->id);
    planner::ForEachOwnExpr(*s, [&](const planner::Expr& e) { out.emplace_back(&e, schema); });
    if (s->select) {
      const planner::AccessPath& path = s->select->access;
      for (const planner::Expr* e : path.prefix) out.emplace_back(e, schema);
      if (s->select->residual) out.emplace_back(s->select->residual.get(), schema);
      if (path.lower) out.emplace_back(path.lower->value, schema);
      if (path.upper) out.emplace_back(path.upper->value, schema);
    }
  }
  return out;
}

// The statement expressions of a procedure, as a function
//   int32 caracal_exprs_<k>(EvalState*, Datum* out, int32 which)
// that switches to expression `which`; one such function per module of the procedure
// (ExprSwitches spreads the cases over them). Few functions rather than one per
// expression: LLVM's code generator has a fixed cost per function (its pass pipeline)
// that dominated the compile time of procedures with many statements.
class ExprSwitchEmitter {
 public:
  ExprSwitchEmitter(llvm::Module& module, std::string name, ConstantPool& constants, int* temps, bool fast_paths)
      : context_(module.getContext()), b_(context_), constants_(constants), temps_(temps), fast_paths_(fast_paths),
        name_(std::move(name)) {
    auto* fn_type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy(), b_.getPtrTy(), b_.getInt32Ty()}, false);
    fn_ = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, name_, module);
    auto* entry = llvm::BasicBlock::Create(context_, "entry", fn_);
    error_exit_ = llvm::BasicBlock::Create(context_, "error", fn_);
    b_.SetInsertPoint(error_exit_);
    b_.CreateRet(b_.getInt32(0));
    b_.SetInsertPoint(entry);
    switch_ = b_.CreateSwitch(fn_->getArg(2), error_exit_);
  }

  // Adds `e` as case `index`: whether it was added (false: the expression compiler does
  // not handle it, and nothing of it is left in the function).
  bool Add(int index, const planner::Expr& e, const engine::Schema* schema) {
    return AddCase(index, schema, [&](ExprEmitter& emitter) {
      CgValue v = emitter.Emit(e);
      emitter.Store(v, e.type.id, fn_->getArg(1));
      b_.CreateRet(b_.getInt32(1));
    });
  }

  // Adds the compiled row write of UPDATE or INSERT `s` (row_writes.h; `out` is the row
  // copy, or the BuiltRow) as case `index`, if it has one.
  bool AddRowWrite(int index, const planner::Stmt& s, const engine::Schema& schema) {
    if (UpdatePatchable(s, schema))
      return AddCase(index, &schema, [&](ExprEmitter& emitter) { EmitUpdatePatch(emitter, s, schema, fn_->getArg(1)); });
    if (InsertBuildable(s, schema))
      return AddCase(index, &schema, [&](ExprEmitter& emitter) { EmitInsertRow(emitter, s, schema, fn_->getArg(1)); });
    return false;
  }

  // Adds the RETURNING ... INTO of write statement `s` as case `index`: every RETURNING
  // expression over the written row (EvalState::row), then each INTO variable assigned
  // in order, as ProcedureInterpreter::Returning does. Not added when `s` has none, or when a
  // RETURNING expression reads one of the INTO variables (the general path evaluates
  // them all before it assigns any, which this case would too, but a lone variable is
  // returned by reference).
  bool AddReturningInto(int index, const planner::Stmt& s, const engine::Schema& schema, const planner::ProcedureIr& ir) {
    if (s.into.empty() || s.emit_returning || s.append_returning || s.returning.empty()) return false;
    for (const auto& e : s.returning) {
      if (e->ContainsAggregate()) return false;
      for (int v : planner::VariablesOf(e.get()))
        if (std::find(s.into.begin(), s.into.end(), v) != s.into.end()) return false;
    }
    return AddCase(index, &schema, [&](ExprEmitter& emitter) {
      std::vector<CgValue> values;
      for (const auto& e : s.returning) values.push_back(emitter.Emit(*e));
      // Assigning the targets is PL/pgSQL's doing, not the SQL's (error_context.h).
      llvm::BasicBlock* into_error = NewErrorAtBlock(b_, emitter, fn_, nullptr, ErrorWhere::kPlpgsql);
      emitter.set_error_exit(into_error);
      for (size_t i = 0; i < s.into.size() && i < values.size(); ++i)
        EmitAssign(emitter, ir, s.into[i], values[i], s.returning[i]->type);
      b_.CreateRet(b_.getInt32(1));
      if (into_error->use_empty()) into_error->eraseFromParent();
    });
  }

  int cases() const { return cases_; }
  // Instructions in the cases so far.
  size_t instructions() const { return instructions_; }
  const std::string& name() const { return name_; }
  // Removes the function when no expression was added.
  void DropIfEmpty() {
    if (cases_ == 0) fn_->eraseFromParent();
  }

 private:
  // Emits case `index` with `emit` (which ends every path with a return); false if the
  // expression compiler refused part of it (the case's blocks are removed).
  template <typename EmitFn>
  bool AddCase(int index, const engine::Schema* schema, EmitFn emit) {
    const size_t blocks_before = fn_->size();
    auto* block = llvm::BasicBlock::Create(context_, "x" + std::to_string(index), fn_);
    b_.SetInsertPoint(block);
    try {
      ExprEmitter emitter(b_, fn_->getArg(0), error_exit_, constants_, temps_);
      emitter.set_schema(schema);
      emitter.set_fast_paths(fast_paths_);
      emit(emitter);
      emitter.DropUnusedStateLoads();
    } catch (const planner::SqlError&) {
      std::vector<llvm::BasicBlock*> added;
      for (auto it = std::next(fn_->begin(), static_cast<long>(blocks_before)); it != fn_->end(); ++it) added.push_back(&*it);
      for (llvm::BasicBlock* bb : added) bb->dropAllReferences();
      for (llvm::BasicBlock* bb : added) bb->eraseFromParent();
      return false;
    }
    switch_->addCase(b_.getInt32(static_cast<uint32_t>(index)), block);
    ++cases_;
    for (auto it = std::next(fn_->begin(), static_cast<long>(blocks_before)); it != fn_->end(); ++it)
      instructions_ += it->size();
    return true;
  }

  llvm::LLVMContext& context_;
  llvm::IRBuilder<> b_;
  ConstantPool& constants_;
  int* temps_;
  bool fast_paths_;
  std::string name_;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* error_exit_ = nullptr;
  llvm::SwitchInst* switch_ = nullptr;
  int cases_ = 0;
  size_t instructions_ = 0;
};

// The expression cases of a procedure spread over one ExprSwitchEmitter per module: each
// case goes to the module with the fewest (weighted) instructions so far, so that modules
// compiled in parallel take about equally long. Case numbers are global; `module_of()` tells
// which module's function has each.
class ExprSwitches {
 public:
  ExprSwitches(std::span<ModuleInContext> modules, ConstantPool& constants, int* temps, bool fast_paths) {
    for (size_t k = 0; k < modules.size(); ++k) {
      llvm::Module& m = *modules[k].module;
      size_t before = 0;  // what the module holds already (the body and init)
      for (const llvm::Function& f : m) before += f.getInstructionCount();
      emitters_.emplace_back(m, "caracal_exprs_" + std::to_string(k), constants, temps, fast_paths);
      base_size_.push_back(before);
    }
  }

  // As ExprSwitchEmitter's Add*: the new case's number, or -1.
  int Add(const planner::Expr& e, const engine::Schema* schema) {
    return AddTo([&](ExprSwitchEmitter& x, int index) { return x.Add(index, e, schema); });
  }
  int AddRowWrite(const planner::Stmt& s, const engine::Schema& schema) {
    return AddTo([&](ExprSwitchEmitter& x, int index) { return x.AddRowWrite(index, s, schema); });
  }
  int AddReturningInto(const planner::Stmt& s, const engine::Schema& schema, const planner::ProcedureIr& ir) {
    return AddTo([&](ExprSwitchEmitter& x, int index) { return x.AddReturningInto(index, s, schema, ir); });
  }

  int cases() const { return static_cast<int>(module_of_.size()); }
  // The module (index into the constructor's span) whose function has case `index`.
  const std::vector<int>& module_of() const { return module_of_; }
  // The functions that got cases (the others are removed), as (module, name).
  std::vector<std::pair<int, std::string>> Finish() {
    std::vector<std::pair<int, std::string>> kept;
    for (size_t k = 0; k < emitters_.size(); ++k) {
      emitters_[k].DropIfEmpty();
      if (emitters_[k].cases() > 0) kept.emplace_back(static_cast<int>(k), emitters_[k].name());
    }
    return kept;
  }

 private:
  template <typename AddFn>
  int AddTo(AddFn add) {
    size_t lightest = 0;
    for (size_t k = 1; k < emitters_.size(); ++k)
      if (Size(k) < Size(lightest)) lightest = k;
    const int index = cases();
    if (!add(emitters_[lightest], index)) return -1;
    module_of_.push_back(static_cast<int>(lightest));
    return index;
  }
  // Instructions so far, a helper's module weighted 4/3. With equal counts the helper's
  // module finished last in all 11 traced new_order compiles (by up to 4.4 ms, median
  // 0.9: it starts once its thread wakes, and generates code slower per instruction);
  // weighted 4/3, it finished last in 7 of 12, and the two within 0.5 ms in 7 of 12.
  size_t Size(size_t k) const {
    const size_t n = base_size_[k] + emitters_[k].instructions();
    return k == 0 ? n : n * 4 / 3;
  }

  std::deque<ExprSwitchEmitter> emitters_;  // not moved: each holds an IRBuilder
  std::vector<size_t> base_size_;
  std::vector<int> module_of_;
};

}  // namespace

std::unique_ptr<ProcedureCode> ProcedureCode::Compile(Jit& jit, const planner::ProcedureIr& ir,
                                                      const CompileOptions& options, const engine::Database* db) {
  // As many modules as the JIT compiles at once: the body and init in the first, the
  // statement expressions spread over all of them.
  std::vector<ModuleInContext> modules(static_cast<size_t>(jit.parallelism()));
  for (size_t k = 0; k < modules.size(); ++k) {
    modules[k].context = std::make_unique<llvm::LLVMContext>();
    modules[k].module = jit.NewModule(*modules[k].context, "proc." + ir.name + "." + std::to_string(k));
  }
  llvm::LLVMContext& context = *modules.front().context;
  llvm::Module& module = *modules.front().module;
  auto* fn_type = llvm::FunctionType::get(llvm::Type::getInt32Ty(context), {llvm::PointerType::get(context, 0)}, false);
  auto code = std::unique_ptr<ProcedureCode>(new ProcedureCode());
  code->ir_ = &ir;
  const bool fast_paths = jit.opt_level() != OptLevel::kO0;
  code->constants_ = std::make_unique<ConstantPool>();
  int temps = 0;
  for (const char* name : {"caracal_body", "caracal_init"}) {
    auto* fn = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, name, module);
    fn->getArg(0)->setName("state");
    BlockCompiler compiler(ir, db, fn, *code->constants_, &temps, fast_paths);
    const bool init = std::string_view(name) != "caracal_body";
    compiler.CompileFunction(init ? ir.init : ir.body, init);
  }
  std::vector<std::string> entry_points = {"caracal_body", "caracal_init"};
  // Statement expressions use their own temps (the accelerator's buffer, not the body's).
  int expr_temps = 0;
  std::unordered_map<const planner::Stmt*, int32_t> row_writes;
  std::unordered_map<const planner::Stmt*, int32_t> returning_into;
  std::vector<int> case_module;
  std::vector<std::pair<int, std::string>> expr_functions;
  if (db != nullptr) {
    ExprSwitches exprs(modules, *code->constants_, &expr_temps, fast_paths);
    // A statement with a compiled row write runs its filter and values there; only its
    // general path (rare: see row_writes.h) needs them alone, and interprets them, which
    // keeps their code out of the module (CREATE FUNCTION waits for it).
    std::unordered_set<const planner::Expr*> in_row_writes;
    for (const planner::Stmt* s : ir.table_statements) {
      if (s->table == nullptr) continue;
      const int index = exprs.AddRowWrite(*s, db->schema(s->table->id));
      if (index < 0) continue;
      row_writes[s] = index;
      if (s->filter) in_row_writes.insert(s->filter.get());
      for (const auto& e : s->row_values) in_row_writes.insert(e.get());
      for (const auto& a : s->assignments) in_row_writes.insert(a.second.get());
    }
    // Likewise a RETURNING ... INTO compiled whole: it has no general path.
    for (const planner::Stmt* s : ir.table_statements) {
      if (s->table == nullptr) continue;
      const int index = exprs.AddReturningInto(*s, db->schema(s->table->id), ir);
      if (index < 0) continue;
      returning_into[s] = index;
      for (const auto& e : s->returning) in_row_writes.insert(e.get());
    }
    for (const auto& [e, schema] : StatementExprs(ir, *db)) {
      // A constant or a lone variable or column is as quick to interpret as to call.
      if (e->ContainsAggregate() || e->kind == planner::ExprKind::kConst || e->kind == planner::ExprKind::kSlot) continue;
      if (in_row_writes.contains(e)) continue;
      if (int index = exprs.Add(*e, schema); index >= 0) code->exprs_[e] = index;
    }
    case_module = exprs.module_of();
    expr_functions = exprs.Finish();
    for (const auto& f : expr_functions) entry_points.push_back(f.second);
  }
  code->module_ = jit.Compile(std::move(modules), entry_points, options);
  code->body_ = reinterpret_cast<Fn>(code->module_->Lookup("caracal_body"));
  code->init_ = reinterpret_cast<Fn>(code->module_->Lookup("caracal_init"));
  std::vector<ExprsFn> by_module(static_cast<size_t>(jit.parallelism()), nullptr);
  for (const auto& [k, name] : expr_functions)
    by_module[static_cast<size_t>(k)] = reinterpret_cast<ExprsFn>(code->module_->Lookup(name));
  for (int k : case_module) code->case_fns_.push_back(by_module[static_cast<size_t>(k)]);
  code->temps_ = temps;
  code->statement_cases_.resize(ir.table_statements.size());
  for (const planner::Stmt* s : ir.table_statements) {
    if (s->kind != planner::StmtKind::kInsert && s->kind != planner::StmtKind::kUpdate &&
        s->kind != planner::StmtKind::kDelete)
      continue;
    assert(ir.TableStatement(s->id) == s);
    StatementCases cases;
    auto add = [&](CaseList& list, const planner::Expr* e) {
      list.exprs.push_back(e);
      list.cases.push_back(code->FindExpr(e));
    };
    if (s->filter) add(cases.filter, s->filter.get());
    for (const auto& e : s->row_values) add(cases.values, e.get());
    if (s->kind == planner::StmtKind::kUpdate)
      for (const auto& a : s->assignments) add(cases.values, a.second.get());
    for (const auto& e : s->returning) add(cases.returning, e.get());
    if (auto it = row_writes.find(s); it != row_writes.end()) cases.row_write = it->second;
    if (auto it = returning_into.find(s); it != returning_into.end()) cases.returning_into = it->second;
    code->statement_cases_[static_cast<size_t>(s->id - 1)] = {s, std::move(cases)};
  }
  code->expr_temps_ = expr_temps;
  return code;
}

BlockEnd ProcedureCode::Run(Fn fn, std::vector<Datum>& frame, StatementHooks& hooks, std::vector<Datum>* temps) const {
  EvalState state;
  state.variables = frame.data();
  std::vector<Datum> own;
  if (temps == nullptr) {
    own.resize(static_cast<size_t>(temps_));
  } else {
    // Not reset: generated code writes every temp before it reads it, over whatever
    // the last run left there (keeping a string's buffer), as it does within one run.
    temps->resize(static_cast<size_t>(temps_));
  }
  state.temps = temps == nullptr ? own.data() : temps->data();
  state.user = &hooks;
  state.declare = hooks.DirectDeclareContext();
  int32_t r = fn(&state);
  if (r == 0) {
    try {
      state.RethrowIfError();
    } catch (planner::SqlError& e) {
      AddCompiledContext(e, *ir_, state.error_at, static_cast<ErrorWhere>(state.error_where));
      throw;
    }
    Internal("compiled procedure failed without an error");
  }
  return static_cast<BlockEnd>(r);
}

BlockEnd ProcedureCode::RunBody(std::vector<Datum>& frame, StatementHooks& hooks, std::vector<Datum>* temps) const {
  return Run(body_, frame, hooks, temps);
}
BlockEnd ProcedureCode::RunInit(std::vector<Datum>& frame, StatementHooks& hooks, std::vector<Datum>* temps) const {
  return Run(init_, frame, hooks, temps);
}

}  // namespace caracal::codegen
