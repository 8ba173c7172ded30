#include "codegen/jit/expr_codegen.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <vector>

#include "codegen/jit/jit_runtime.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::Datum;
using planner::Expr;
using planner::ExprKind;
using planner::Op;
using planner::SlotSpace;
using planner::SqlType;
using planner::TypeId;
namespace sqlstate = planner::sqlstate;

namespace {

[[noreturn]] void Internal(const std::string& what) {
  throw planner::SqlError(sqlstate::kInternalError, "internal error: " + what);
}

const char* IntRangeMessage(TypeId t) {
  return t == TypeId::kInt2 ? "smallint out of range" : t == TypeId::kInt4 ? "integer out of range" : "bigint out of range";
}

// A SqlType's id for the runtime: an array's element type in the second byte.
int32_t TypeCode(const SqlType& t) { return static_cast<int32_t>(t.id) | (static_cast<int32_t>(t.element) << 8); }

int64_t IntMin(TypeId t) { return t == TypeId::kInt2 ? INT16_MIN : t == TypeId::kInt4 ? INT32_MIN : INT64_MIN; }
int64_t IntMax(TypeId t) { return t == TypeId::kInt2 ? INT16_MAX : t == TypeId::kInt4 ? INT32_MAX : INT64_MAX; }

}  // namespace

Repr ReprOf(TypeId type) {
  switch (type) {
    case TypeId::kBool: return Repr::kBool;
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kEnum:  // a label's position
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate:
    case TypeId::kTime: return Repr::kInt;
    case TypeId::kFloat4:
    case TypeId::kFloat8: return Repr::kFloat;
    default: return Repr::kBoxed;
  }
}

Datum::Kind KindOf(TypeId type) {
  switch (type) {
    case TypeId::kBool: return Datum::Kind::kBool;
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kEnum: return Datum::Kind::kInt;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate:
    case TypeId::kTime: return Datum::Kind::kTimestamp;
    case TypeId::kInterval: return Datum::Kind::kInterval;
    case TypeId::kFloat4:
    case TypeId::kFloat8: return Datum::Kind::kFloat;
    case TypeId::kNumeric: return Datum::Kind::kNumeric;
    case TypeId::kArray: return Datum::Kind::kArray;
    default: return Datum::Kind::kString;
  }
}

ExprEmitter::ExprEmitter(llvm::IRBuilder<>& builder, llvm::Value* state, llvm::BasicBlock* error_exit,
                         ConstantPool& constants, int* temp_count)
    : b_(builder),
      ctx_(builder.getContext()),
      module_(*builder.GetInsertBlock()->getModule()),
      state_(state),
      error_exit_(error_exit),
      constants_(constants),
      temp_count_(temp_count) {
  // The EvalState's pointers do not change during a call: load them once.
  auto load = [&](size_t offset, const char* name) { return b_.CreateLoad(b_.getPtrTy(), FieldPtr(state_, offset), name); };
  variables_ = load(Layout::StateVariables(), "vars");
  group_keys_ = load(Layout::StateGroupKeys(), "group_keys");
  aggregates_ = load(Layout::StateAggregates(), "aggs");
  temps_ = load(Layout::StateTemps(), "temps");
  row_ = load(Layout::StateRow(), "row");
  excluded_ = load(Layout::StateExcluded(), "excluded");
  state_loads_ = {variables_, group_keys_, aggregates_, temps_, row_, excluded_};
}

void ExprEmitter::DropUnusedStateLoads() {
  for (llvm::Value* v : state_loads_) {
    auto* load = llvm::cast<llvm::LoadInst>(v);
    if (!load->use_empty()) continue;
    llvm::Value* address = load->getPointerOperand();
    load->eraseFromParent();
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(address); gep != nullptr && gep->use_empty())
      gep->eraseFromParent();
  }
  state_loads_.clear();
}

// ---- small helpers ----------------------------------------------------------------

llvm::Value* ExprEmitter::FieldPtr(llvm::Value* base, size_t offset) {
  if (offset == 0) return base;
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), base, offset);
}

llvm::Value* ExprEmitter::LoadIsNull(llvm::Value* datum) {
  llvm::Value* kind = b_.CreateLoad(b_.getInt8Ty(), FieldPtr(datum, Layout::DatumKind()));
  return b_.CreateICmpEQ(kind, b_.getInt8(0), "isnull");
}

llvm::Value* ExprEmitter::Temp(int index) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), temps_, static_cast<uint64_t>(index) * Layout::DatumSize());
}

llvm::Value* ExprEmitter::NewTemp() { return Temp((*temp_count_)++); }

llvm::Value* ExprEmitter::Variable(int index) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), variables_, static_cast<uint64_t>(index) * Layout::DatumSize());
}

llvm::Value* ExprEmitter::ConstantDatum(Datum d) {
  constants_.push_back(std::move(d));
  auto address = reinterpret_cast<uintptr_t>(&constants_.back());
  return b_.CreateIntToPtr(b_.getInt64(address), b_.getPtrTy());
}

llvm::Value* ExprEmitter::CallRuntime(const char* name, std::initializer_list<llvm::Value*> args) {
  return b_.CreateCall(DeclareRuntime(module_, name), args);
}

llvm::BasicBlock* ExprEmitter::NewBlock(const char* name) {
  return llvm::BasicBlock::Create(ctx_, name, b_.GetInsertBlock()->getParent());
}

// Branch weights for the rare side of a branch (errors, slow paths): block placement
// then moves that code out of the hot path's cache lines.
llvm::MDNode* ExprEmitter::Unlikely() { return llvm::MDBuilder(b_.getContext()).createUnlikelyBranchWeights(); }
llvm::MDNode* ExprEmitter::Likely() { return llvm::MDBuilder(b_.getContext()).createLikelyBranchWeights(); }

void ExprEmitter::CheckOk(llvm::Value* ok) {
  llvm::BasicBlock* cont = NewBlock("ok");
  b_.CreateCondBr(b_.CreateICmpEQ(ok, b_.getInt32(0)), error_exit_, cont, Unlikely());
  b_.SetInsertPoint(cont);
}

void ExprEmitter::RaiseIf(llvm::Value* cond, const char* sqlstate, const std::string& message) {
  llvm::BasicBlock* raise = NewBlock("raise");
  llvm::BasicBlock* cont = NewBlock("cont");
  b_.CreateCondBr(cond, raise, cont, Unlikely());
  b_.SetInsertPoint(raise);
  CallRuntime("caracal_rt_raise", {state_, b_.CreateGlobalStringPtr(sqlstate), b_.CreateGlobalStringPtr(message)});
  b_.CreateBr(error_exit_);
  b_.SetInsertPoint(cont);
}

llvm::Value* ExprEmitter::EntryAlloca(llvm::Type* type) {
  llvm::BasicBlock& entry = b_.GetInsertBlock()->getParent()->getEntryBlock();
  llvm::IRBuilder<> tmp(&entry, entry.begin());
  return tmp.CreateAlloca(type);
}

llvm::Type* ExprEmitter::TypeOf(Repr repr) {
  switch (repr) {
    case Repr::kBool: return b_.getInt1Ty();
    case Repr::kInt: return b_.getInt64Ty();
    case Repr::kFloat: return b_.getDoubleTy();
    case Repr::kBoxed: return b_.getPtrTy();
  }
  return b_.getInt64Ty();
}

ExprEmitter::Var ExprEmitter::NewVar(Repr repr) { return Var{repr, EntryAlloca(b_.getInt1Ty()), EntryAlloca(TypeOf(repr))}; }

void ExprEmitter::Set(const Var& var, const CgValue& v) {
  b_.CreateStore(v.is_null, var.is_null);
  b_.CreateStore(v.value, var.value);
}

CgValue ExprEmitter::Get(const Var& var) {
  return CgValue{var.repr, b_.CreateLoad(b_.getInt1Ty(), var.is_null), b_.CreateLoad(TypeOf(var.repr), var.value)};
}

CgValue ExprEmitter::Null(Repr repr) {
  llvm::Value* v = nullptr;
  switch (repr) {
    case Repr::kBool: v = b_.getFalse(); break;
    case Repr::kInt: v = b_.getInt64(0); break;
    case Repr::kFloat: v = llvm::ConstantFP::get(b_.getDoubleTy(), 0.0); break;
    case Repr::kBoxed: v = ConstantDatum(Datum::Null()); break;
  }
  return CgValue{repr, b_.getTrue(), v};
}

CgValue ExprEmitter::Load(llvm::Value* src, TypeId type) {
  Repr repr = ReprOf(type);
  llvm::Value* is_null = LoadIsNull(src);
  switch (repr) {
    case Repr::kBool:
      return {repr, is_null, b_.CreateICmpNE(b_.CreateLoad(b_.getInt64Ty(), FieldPtr(src, Layout::DatumInt())), b_.getInt64(0))};
    case Repr::kInt: return {repr, is_null, b_.CreateLoad(b_.getInt64Ty(), FieldPtr(src, Layout::DatumInt()))};
    case Repr::kFloat: return {repr, is_null, b_.CreateLoad(b_.getDoubleTy(), FieldPtr(src, Layout::DatumFloat()))};
    case Repr::kBoxed: return {repr, is_null, src};
  }
  return {};
}

void ExprEmitter::Store(const CgValue& v, TypeId type, llvm::Value* dst) {
  if (v.repr == Repr::kBoxed && type == TypeId::kNumeric && fast_paths_) {
    // A numeric is its kind and 20 bytes: copied inline. NULL, and anything else in the
    // Datum (which a numeric never has), still go through the runtime's copy. Only in
    // the -O2 tier: the IR costs the first tier's compile time more than it saves.
    NumericParts n = LoadNumeric(v.value);
    llvm::BasicBlock* inline_copy = NewBlock("num_copy");
    llvm::BasicBlock* runtime_copy = NewBlock("datum_copy");
    llvm::BasicBlock* done = NewBlock("copied");
    b_.CreateCondBr(n.is_numeric, inline_copy, runtime_copy);
    b_.SetInsertPoint(inline_copy);
    StoreNumeric(dst, n.mantissa, n.scale);
    b_.CreateBr(done);
    b_.SetInsertPoint(runtime_copy);
    CallRuntime("caracal_rt_copy", {dst, v.value});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    return;
  }
  if (v.repr == Repr::kBoxed) {
    CallRuntime("caracal_rt_copy", {dst, v.value});
    return;
  }
  llvm::Value* kind = b_.CreateSelect(v.is_null, b_.getInt8(0), b_.getInt8(static_cast<uint8_t>(KindOf(type))));
  b_.CreateStore(kind, FieldPtr(dst, Layout::DatumKind()));
  switch (v.repr) {
    case Repr::kBool: b_.CreateStore(b_.CreateZExt(v.value, b_.getInt64Ty()), FieldPtr(dst, Layout::DatumInt())); break;
    case Repr::kInt: b_.CreateStore(v.value, FieldPtr(dst, Layout::DatumInt())); break;
    case Repr::kFloat: b_.CreateStore(v.value, FieldPtr(dst, Layout::DatumFloat())); break;
    case Repr::kBoxed: break;
  }
}

llvm::Value* ExprEmitter::Box(const CgValue& v, TypeId type) {
  if (v.repr == Repr::kBoxed) return v.value;
  llvm::Value* t = NewTemp();
  Store(v, type, t);
  return t;
}

// ---- expressions ------------------------------------------------------------------

llvm::Value* ExprEmitter::EmitCondition(const Expr& e) {
  CgValue v = Emit(e);
  if (v.repr != Repr::kBool) Internal("condition is not boolean: " + e.DebugString());
  return b_.CreateAnd(b_.CreateNot(v.is_null), v.value, "cond");
}

namespace {

// Whether `e` reads nothing at run time (no slot, aggregate or sequence), so its value is
// the same on every call: PostgreSQL folds such immutable expressions at plan time.
bool IsConstantExpr(const Expr& e) {
  if (e.kind == ExprKind::kSlot || e.kind == ExprKind::kAggRef || e.kind == ExprKind::kNextval ||
      e.kind == ExprKind::kRoutineCall)
    return false;
  if (e.kind == ExprKind::kFunc && (e.func == planner::Func::kNow || e.func == planner::Func::kRandom))
    return false;  // the wall clock; a new value each time
  for (const auto& arg : e.args)
    if (!IsConstantExpr(*arg)) return false;
  return true;
}

}  // namespace

CgValue ExprEmitter::Emit(const Expr& e) {
  if (e.kind != ExprKind::kConst && IsConstantExpr(e)) {
    // Folded once here. One that raises (1/0) is left to raise when, and only if, it runs.
    try {
      return EmitConstDatum(planner::Eval(e, planner::EvalContext{}), e.type);
    } catch (const planner::SqlError&) {
    }
  }
  switch (e.kind) {
    case ExprKind::kConst: return EmitConst(e);
    case ExprKind::kSlot: return EmitSlot(e);
    case ExprKind::kCast: return EmitCast(e);
    case ExprKind::kArith: return EmitArith(e);
    case ExprKind::kCompare: return EmitCompare(e);
    case ExprKind::kConcat: return EmitConcat(e);
    case ExprKind::kAnd:
    case ExprKind::kOr: return EmitAndOr(e);
    case ExprKind::kNot: {
      CgValue v = Emit(*e.args[0]);
      return {Repr::kBool, v.is_null, b_.CreateNot(v.value)};
    }
    case ExprKind::kIsNull: {
      CgValue v = Emit(*e.args[0]);
      return {Repr::kBool, b_.getFalse(), e.negated ? b_.CreateNot(v.is_null) : v.is_null};
    }
    case ExprKind::kBoolTest: {
      CgValue v = Emit(*e.args[0]);
      llvm::Value* r = e.op == Op::kEq   ? b_.CreateAnd(b_.CreateNot(v.is_null), v.value)
                       : e.op == Op::kNe ? b_.CreateAnd(b_.CreateNot(v.is_null), b_.CreateNot(v.value))
                                         : v.is_null;
      return {Repr::kBool, b_.getFalse(), e.negated ? b_.CreateNot(r) : r};
    }
    case ExprKind::kCase: return EmitCase(e);
    case ExprKind::kCoalesce: return EmitCoalesce(e);
    case ExprKind::kNullIf: return EmitNullIf(e);
    case ExprKind::kGreatest:
    case ExprKind::kLeast: return EmitGreatestLeast(e);
    case ExprKind::kIn: return EmitIn(e);
    case ExprKind::kLike: return EmitLike(e);
    case ExprKind::kAnyAll: return EmitAnyAll(e);
    case ExprKind::kFunc: return EmitFunc(e);
    case ExprKind::kAggRef: {
      CallRuntime("caracal_rt_raise", {state_, b_.CreateGlobalStringPtr(sqlstate::kGroupingError),
                                       b_.CreateGlobalStringPtr("aggregate function calls are not allowed here")});
      llvm::BasicBlock* dead = NewBlock("dead");
      b_.CreateBr(error_exit_);
      b_.SetInsertPoint(dead);
      return Null(ReprOf(e.type.id));
    }
    case ExprKind::kArray: return EmitArray(e);
    case ExprKind::kSubscript: return EmitSubscript(e);
    case ExprKind::kNextval: {
      CallRuntime("caracal_rt_raise",
                  {state_, b_.CreateGlobalStringPtr(sqlstate::kFeatureNotSupported),
                   b_.CreateGlobalStringPtr("nextval() is only supported inside procedures (it is drawn at sequencing time)")});
      llvm::BasicBlock* dead = NewBlock("dead");
      b_.CreateBr(error_exit_);
      b_.SetInsertPoint(dead);
      return Null(ReprOf(e.type.id));
    }
    case ExprKind::kSubquery:
    case ExprKind::kWindowRef: break;  // query plans are interpreted (exec/query_exec)
    case ExprKind::kRoutineCall: {
      if (!routine_calls_) break;
      // Arguments evaluated first, boxed side by side, as Eval does; the call's STRICT
      // rule is the runner's.
      std::vector<CgValue> args;
      for (const auto& arg : e.args) args.push_back(Emit(*arg));
      llvm::Value* first = BoxAll(e, args);
      llvm::Value* out = NewTemp();
      CheckOk(CallRuntime("caracal_rt_routine_call", {state_, b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uintptr_t>(&e)), b_.getPtrTy()), first,
                                                      b_.getInt32(static_cast<int>(args.size())), out}));
      return Load(out, e.type.id);
    }
  }
  Internal("unknown expression kind");
}

CgValue ExprEmitter::EmitConst(const Expr& e) { return EmitConstDatum(e.value, e.type); }

CgValue ExprEmitter::EmitConstDatum(const Datum& d, const planner::SqlType& type) {
  Repr repr = ReprOf(type.id);
  if (d.is_null()) return Null(repr);
  switch (repr) {
    case Repr::kBool: return {repr, b_.getFalse(), b_.getInt1(d.as_bool())};
    case Repr::kInt: return {repr, b_.getFalse(), b_.getInt64(static_cast<uint64_t>(d.i))};
    case Repr::kFloat: return {repr, b_.getFalse(), llvm::ConstantFP::get(b_.getDoubleTy(), d.f)};
    case Repr::kBoxed: return {repr, b_.getFalse(), ConstantDatum(d)};
  }
  return {};
}

CgValue ExprEmitter::EmitSlot(const Expr& e) {
  const planner::Slot& s = e.slot;
  auto datum_at = [&](llvm::Value* base) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), base, static_cast<uint64_t>(s.index) * Layout::DatumSize());
  };
  switch (s.space) {
    case SlotSpace::kVariable: return Load(datum_at(variables_), e.type.id);
    case SlotSpace::kGroupKey: return Load(datum_at(group_keys_), e.type.id);
    case SlotSpace::kAggregate: return Load(datum_at(aggregates_), e.type.id);
    case SlotSpace::kColumn: return EmitRowColumn(row_, s.index, e.type);
    case SlotSpace::kExcluded: return EmitRowColumn(excluded_, s.index, e.type);
    case SlotSpace::kTuple:
    case SlotSpace::kOuter: break;  // query plans are interpreted (exec/query_exec)
  }
  Internal("unknown slot space");
}

// Reads column `col` of a RowValue blob directly (see eval_state.h for the layout).
std::pair<llvm::Value*, llvm::Value*> ExprEmitter::RowColumn(llvm::Value* row, int col) {
  llvm::Value* bitmap_bytes = nullptr;
  if (schema_ != nullptr) {
    // Every row of a table has its schema's column count (row_value.h), so the bitmap's
    // size is a constant.
    bitmap_bytes = b_.getInt64((static_cast<uint64_t>(schema_->num_columns()) + 63) / 64 * 8);
#ifndef NDEBUG
    llvm::Value* ncols = b_.CreateLoad(b_.getInt16Ty(), FieldPtr(row, Layout::RowNumColumns()));
    llvm::BasicBlock* bad = NewBlock("row.schema_mismatch");
    llvm::BasicBlock* ok = NewBlock("row.schema_ok");
    b_.CreateCondBr(b_.CreateICmpEQ(ncols, b_.getInt16(static_cast<uint16_t>(schema_->num_columns()))), ok, bad);
    b_.SetInsertPoint(bad);
    b_.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
    b_.CreateUnreachable();
    b_.SetInsertPoint(ok);
#endif
  } else {
    llvm::Value* ncols = b_.CreateZExt(b_.CreateLoad(b_.getInt16Ty(), FieldPtr(row, Layout::RowNumColumns())), b_.getInt64Ty());
    bitmap_bytes = b_.CreateShl(b_.CreateLShr(b_.CreateAdd(ncols, b_.getInt64(63)), 6), 3);
  }
  llvm::Value* null_byte = b_.CreateLoad(b_.getInt8Ty(), FieldPtr(row, Layout::RowHeader() + col / 8));
  llvm::Value* is_null = b_.CreateTrunc(b_.CreateLShr(null_byte, b_.getInt8(col & 7)), b_.getInt1Ty(), "colnull");
  llvm::Value* slot = b_.CreateGEP(b_.getInt8Ty(), row,
                                   b_.CreateAdd(bitmap_bytes, b_.getInt64(Layout::RowHeader() + 8 * static_cast<uint64_t>(col))));
  return {is_null, slot};
}

void ExprEmitter::ReadVariableColumnInto(llvm::Value* row, int col, llvm::Value* dst) {
  const engine::Column* column = schema_ != nullptr && col < schema_->num_columns() ? &schema_->column(col) : nullptr;
  const bool decimal = column != nullptr && column->type == engine::ColumnType::kDecimal;
  const bool array = column != nullptr && column->type == engine::ColumnType::kArray;
  llvm::Value* is_null = RowColumn(row, col).first;
  llvm::BasicBlock* null_bb = NewBlock("colstr.null");
  llvm::BasicBlock* read_bb = NewBlock("colstr.read");
  llvm::BasicBlock* done = NewBlock("colstr.done");
  b_.CreateCondBr(is_null, null_bb, read_bb);
  b_.SetInsertPoint(null_bb);
  b_.CreateStore(b_.getInt8(0), FieldPtr(dst, Layout::DatumKind()));
  b_.CreateBr(done);
  b_.SetInsertPoint(read_bb);
  if (!decimal && !array && fast_paths_ && Layout::StringLayoutKnown()) {
    // The column's bytes straight into the variable's string buffer when they fit in
    // its capacity (a variable keeps its buffer from run to run); the runtime otherwise.
    llvm::Value* slot = RowColumn(row, col).second;
    llvm::Value* offset = b_.CreateZExt(b_.CreateLoad(b_.getInt32Ty(), slot), b_.getInt64Ty());
    llvm::Value* length = b_.CreateZExt(b_.CreateLoad(b_.getInt32Ty(), FieldPtr(slot, 4)), b_.getInt64Ty(), "strlen");
    llvm::Value* str = FieldPtr(dst, Layout::DatumString());
    llvm::Value* data = b_.CreateLoad(b_.getPtrTy(), str, "strdata");
    llvm::Value* local = FieldPtr(str, 16);
    llvm::Value* capacity = b_.CreateSelect(b_.CreateICmpEQ(data, local), b_.getInt64(15),
                                            b_.CreateLoad(b_.getInt64Ty(), local), "strcap");
    llvm::BasicBlock* copy_bb = NewBlock("colstr.copy");
    llvm::BasicBlock* call_bb = NewBlock("colstr.grow");
    b_.CreateCondBr(b_.CreateICmpULE(length, capacity), copy_bb, call_bb);
    b_.SetInsertPoint(copy_bb);
    CallRuntime("caracal_rt_copy_bytes", {data, b_.CreateGEP(b_.getInt8Ty(), row, offset), length});
    b_.CreateStore(b_.getInt8(0), b_.CreateGEP(b_.getInt8Ty(), data, length));
    b_.CreateStore(length, FieldPtr(str, 8));
    b_.CreateStore(b_.getInt8(static_cast<uint8_t>(Datum::Kind::kString)), FieldPtr(dst, Layout::DatumKind()));
    b_.CreateBr(done);
    b_.SetInsertPoint(call_bb);
  }
  if (array) {
    // Stored as its text, parsed into the elements' type.
    const SqlType element = planner::FromColumn(*column).Element();
    CallRuntime("caracal_rt_read_array", {row, b_.getInt32(col), b_.getInt32(static_cast<int32_t>(element.id)),
                                          b_.getInt32(element.precision), b_.getInt32(element.scale), dst});
  } else {
    CallRuntime(decimal ? "caracal_rt_read_decimal" : "caracal_rt_read_string", {row, b_.getInt32(col), dst});
  }
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

CgValue ExprEmitter::EmitRowColumn(llvm::Value* row, int col, const SqlType& type) {
  auto [is_null, slot] = RowColumn(row, col);
  Repr repr = ReprOf(type.id);
  switch (repr) {
    case Repr::kBool: return {repr, is_null, b_.CreateICmpNE(b_.CreateLoad(b_.getInt64Ty(), slot), b_.getInt64(0))};
    case Repr::kInt: return {repr, is_null, b_.CreateLoad(b_.getInt64Ty(), slot)};
    case Repr::kFloat: return {repr, is_null, b_.CreateLoad(b_.getDoubleTy(), slot)};
    case Repr::kBoxed: break;
  }
  llvm::Value* t = NewTemp();
  if (type.id == TypeId::kNumeric) {
    if (schema_ == nullptr || col >= schema_->num_columns())
      Internal("numeric column " + std::to_string(col) + " read without its schema");
    if (schema_->column(col).type == engine::ColumnType::kDecimal) {
      ReadVariableColumnInto(row, col, t);  // any precision: its text, parsed by the runtime
      return {repr, is_null, t};
    }
    if (schema_->column(col).type != engine::ColumnType::kNumeric)
      Internal("numeric column " + std::to_string(col) + " of another type");
    int scale = schema_->column(col).scale;
    // Datum::Num(Numeric(mantissa, scale)), or NULL.
    llvm::Value* kind = b_.CreateSelect(is_null, b_.getInt8(0), b_.getInt8(static_cast<uint8_t>(Datum::Kind::kNumeric)));
    b_.CreateStore(kind, FieldPtr(t, Layout::DatumKind()));
    StoreInt64Mantissa(t, b_.CreateLoad(b_.getInt64Ty(), slot));
    b_.CreateStore(b_.getInt32(scale), FieldPtr(t, Layout::DatumNumeric() + Layout::NumericScale()));
    return {repr, is_null, t};
  }
  // Strings: copied into the temp (the interpreter's DatumFromRow does the same); arrays
  // parsed from their text, which needs the schema's element type.
  if (type.id == TypeId::kArray && (schema_ == nullptr || col >= schema_->num_columns()))
    Internal("array column " + std::to_string(col) + " read without its schema");
  ReadVariableColumnInto(row, col, t);
  return {repr, is_null, t};
}

CgValue ExprEmitter::EmitCast(const Expr& e) {
  return Cast(Emit(*e.args[0]), e.args[0]->type, e.type, e.explicit_cast);
}

CgValue ExprEmitter::Cast(const CgValue& v, const SqlType& from, const SqlType& to, bool explicit_cast) {
  if (to.domain && from.domain != to.domain) {
    // Into a domain (an assignment, a RETURN): the base type's cast, then the domain's
    // constraints, on NULL too (a NOT NULL domain), by the runtime with the domain's address.
    CgValue base = Cast(v, from, to.WithoutDomain(), explicit_cast);
    llvm::Value* boxed = Box(base, to.id);
    CheckOk(CallRuntime("caracal_rt_check_domain",
                        {state_, boxed, b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uintptr_t>(to.domain)), b_.getPtrTy())}));
    return base;
  }
  Repr fr = ReprOf(from.id), tr = ReprOf(to.id);
  llvm::Value* not_null = b_.CreateNot(v.is_null);
  // timestamp <-> timestamptz: the same instant (the session time zone is UTC).
  auto instant = [](TypeId t) { return t == TypeId::kTimestamp || t == TypeId::kTimestampTz; };
  if (instant(from.id) && instant(to.id) && to.precision < 0) return {Repr::kInt, v.is_null, v.value};
  // Native paths for the scalar casts (CastDatum's own rules, spelled out).
  if (fr != Repr::kBoxed && tr != Repr::kBoxed && !from.is_datetime() && !to.is_datetime()) {
    if (from.id == to.id) return v;
    if (from.is_integer() && to.is_integer()) {
      if (to.id != TypeId::kInt8) {
        llvm::Value* bad = b_.CreateOr(b_.CreateICmpSLT(v.value, b_.getInt64(IntMin(to.id))),
                                       b_.CreateICmpSGT(v.value, b_.getInt64(IntMax(to.id))));
        RaiseIf(b_.CreateAnd(not_null, bad), sqlstate::kNumericOutOfRange, IntRangeMessage(to.id));
      }
      return {tr, v.is_null, v.value};
    }
    if (from.is_integer() && to.is_float()) {
      llvm::Value* d = b_.CreateSIToFP(v.value, b_.getDoubleTy());
      if (to.id == TypeId::kFloat4) d = b_.CreateFPExt(b_.CreateFPTrunc(d, b_.getFloatTy()), b_.getDoubleTy());
      return {tr, v.is_null, d};
    }
    if (from.is_float() && to.is_float()) {
      if (to.id == TypeId::kFloat8) return {tr, v.is_null, v.value};
      llvm::Value* f = b_.CreateFPTrunc(v.value, b_.getFloatTy());
      llvm::Value* fabs_f = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, f);
      llvm::Value* fabs_d = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v.value);
      llvm::Value* inf_f = llvm::ConstantFP::getInfinity(b_.getFloatTy());
      llvm::Value* inf_d = llvm::ConstantFP::getInfinity(b_.getDoubleTy());
      llvm::Value* overflow = b_.CreateAnd(b_.CreateFCmpOEQ(fabs_f, inf_f), b_.CreateFCmpUNE(fabs_d, inf_d));
      RaiseIf(b_.CreateAnd(not_null, overflow), sqlstate::kNumericOutOfRange, "value out of range: overflow");
      llvm::Value* underflow = b_.CreateAnd(b_.CreateFCmpOEQ(f, llvm::ConstantFP::get(b_.getFloatTy(), 0.0)),
                                            b_.CreateFCmpUNE(v.value, llvm::ConstantFP::get(b_.getDoubleTy(), 0.0)));
      RaiseIf(b_.CreateAnd(not_null, underflow), sqlstate::kNumericOutOfRange, "value out of range: underflow");
      return {tr, v.is_null, b_.CreateFPExt(f, b_.getDoubleTy())};
    }
    if (from.is_float() && to.is_integer()) {
      llvm::Value* r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, v.value);
      // !(r >= -2^63 && r < 2^63) also catches NaN.
      llvm::Value* in_range = b_.CreateAnd(b_.CreateFCmpOGE(r, llvm::ConstantFP::get(b_.getDoubleTy(), -9.2233720368547758e18)),
                                           b_.CreateFCmpOLT(r, llvm::ConstantFP::get(b_.getDoubleTy(), 9.2233720368547758e18)));
      RaiseIf(b_.CreateAnd(not_null, b_.CreateNot(in_range)), sqlstate::kNumericOutOfRange, IntRangeMessage(to.id));
      llvm::Value* safe = b_.CreateSelect(in_range, r, llvm::ConstantFP::get(b_.getDoubleTy(), 0.0));
      llvm::Value* i = b_.CreateFPToSI(safe, b_.getInt64Ty());
      if (to.id != TypeId::kInt8) {
        llvm::Value* bad = b_.CreateOr(b_.CreateICmpSLT(i, b_.getInt64(IntMin(to.id))), b_.CreateICmpSGT(i, b_.getInt64(IntMax(to.id))));
        RaiseIf(b_.CreateAnd(not_null, bad), sqlstate::kNumericOutOfRange, IntRangeMessage(to.id));
      }
      return {tr, v.is_null, i};
    }
    if (from.id == TypeId::kBool && to.is_integer()) return {tr, v.is_null, b_.CreateZExt(v.value, b_.getInt64Ty())};
    if (from.is_integer() && to.id == TypeId::kBool) return {tr, v.is_null, b_.CreateICmpNE(v.value, b_.getInt64(0))};
  }
  if (to.id == TypeId::kNumeric && fast_paths_) {
    if (std::optional<CgValue> fast = NumericCastFastPath(v, from, to, explicit_cast)) return *fast;
  }
  if (std::optional<CgValue> same = RelabelString(v, from, to, explicit_cast)) return *same;
  // Everything else through CastDatum itself (null in, null out: no call). An enum's
  // labels are the catalog's EnumType, whose address the call carries (it is never freed).
  const bool enums = from.enum_type != nullptr || to.enum_type != nullptr;
  auto enum_pointer = [&](const SqlType& t) {
    return b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uintptr_t>(t.enum_type)), b_.getPtrTy());
  };
  llvm::Value* in = Box(v, from.id);
  llvm::Value* out = NewTemp();
  llvm::BasicBlock* call_bb = NewBlock("cast.call");
  llvm::BasicBlock* null_bb = NewBlock("cast.null");
  llvm::BasicBlock* done = NewBlock("cast.done");
  b_.CreateCondBr(v.is_null, null_bb, call_bb);
  b_.SetInsertPoint(null_bb);
  b_.CreateStore(b_.getInt8(0), FieldPtr(out, Layout::DatumKind()));
  b_.CreateBr(done);
  b_.SetInsertPoint(call_bb);
  if (enums)
    CheckOk(CallRuntime("caracal_rt_cast_enum",
                        {state_, in, b_.getInt32(TypeCode(from)), b_.getInt32(from.precision), b_.getInt32(from.scale),
                         enum_pointer(from), b_.getInt32(TypeCode(to)), b_.getInt32(to.precision),
                         b_.getInt32(to.scale), enum_pointer(to), b_.getInt32(explicit_cast ? 1 : 0), out}));
  else
    CheckOk(CallRuntime("caracal_rt_cast",
                        {state_, in, b_.getInt32(TypeCode(from)), b_.getInt32(from.precision), b_.getInt32(from.scale),
                         b_.getInt32(TypeCode(to)), b_.getInt32(to.precision), b_.getInt32(to.scale),
                         b_.getInt32(explicit_cast ? 1 : 0), out}));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Load(out, to.id);
}

ExprEmitter::NumericParts ExprEmitter::LoadNumeric(llvm::Value* datum) {
  NumericParts n;
  n.is_numeric = b_.CreateICmpEQ(b_.CreateLoad(b_.getInt8Ty(), FieldPtr(datum, Layout::DatumKind())),
                                 b_.getInt8(static_cast<uint8_t>(Datum::Kind::kNumeric)));
  n.mantissa = b_.CreateLoad(b_.getInt128Ty(), FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericMantissa()));
  n.scale = b_.CreateLoad(b_.getInt32Ty(), FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericScale()));
  return n;
}

// The int128 mantissa as its two little-endian 64-bit words: the fast instruction
// selector takes i64 loads, stores and comparisons, but hands i128 ones (and the rest of
// their block) to SelectionDAG, which the first tier's compile time notices.
void ExprEmitter::StoreInt64Mantissa(llvm::Value* datum, llvm::Value* value) {
  llvm::Value* at = FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericMantissa());
  b_.CreateStore(value, at);
  b_.CreateStore(b_.CreateAShr(value, 63), FieldPtr(at, 8));
}

ExprEmitter::NumericInt64 ExprEmitter::LoadNumericInt64(llvm::Value* datum) {
  NumericInt64 n;
  n.is_numeric = b_.CreateICmpEQ(b_.CreateLoad(b_.getInt8Ty(), FieldPtr(datum, Layout::DatumKind())),
                                 b_.getInt8(static_cast<uint8_t>(Datum::Kind::kNumeric)));
  llvm::Value* at = FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericMantissa());
  n.low = b_.CreateLoad(b_.getInt64Ty(), at);
  n.fits = b_.CreateICmpEQ(b_.CreateLoad(b_.getInt64Ty(), FieldPtr(at, 8)), b_.CreateAShr(n.low, 63));
  n.scale = b_.CreateLoad(b_.getInt32Ty(), FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericScale()));
  return n;
}

void ExprEmitter::StoreNumeric(llvm::Value* datum, llvm::Value* mantissa, llvm::Value* scale) {
  b_.CreateStore(b_.getInt8(static_cast<uint8_t>(Datum::Kind::kNumeric)), FieldPtr(datum, Layout::DatumKind()));
  b_.CreateStore(mantissa, FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericMantissa()));
  b_.CreateStore(scale, FieldPtr(datum, Layout::DatumNumeric() + Layout::NumericScale()));
}

llvm::Value* ExprEmitter::Int128Constant(planner::int128 v) {
  const auto bits = static_cast<unsigned __int128>(v);
  const uint64_t words[2] = {static_cast<uint64_t>(bits), static_cast<uint64_t>(bits >> 64)};
  return llvm::ConstantInt::get(b_.getInt128Ty(), llvm::APInt(128, words));
}

std::optional<CgValue> ExprEmitter::RelabelString(const CgValue& v, const SqlType& from, const SqlType& to,
                                                   bool explicit_cast) {
  const auto plain_string = [](const SqlType& t) { return t.id == TypeId::kText || t.id == TypeId::kVarchar; };
  if (!plain_string(from) || !plain_string(to)) return std::nullopt;
  if (to.precision < 0) return CgValue{Repr::kBoxed, v.is_null, v.value};
  if (!fast_paths_ || !Layout::StringLayoutKnown()) return std::nullopt;
  // varchar(n): at most n bytes are at most n characters, which CastDatum leaves as they
  // are; a longer value may still fit (multibyte characters), or raises, or is cut (an
  // explicit cast): the runtime decides, into a temp. A NULL Datum holds a valid string.
  llvm::Value* size = b_.CreateLoad(b_.getInt64Ty(), FieldPtr(FieldPtr(v.value, Layout::DatumString()), 8));
  llvm::Value* out = NewTemp();
  llvm::BasicBlock* from_bb = b_.GetInsertBlock();
  llvm::BasicBlock* call_bb = NewBlock("relabel.call");
  llvm::BasicBlock* done = NewBlock("relabel.done");
  llvm::Value* same = b_.CreateOr(v.is_null, b_.CreateICmpULE(size, b_.getInt64(static_cast<uint64_t>(to.precision))));
  b_.CreateCondBr(same, done, call_bb, Likely());
  b_.SetInsertPoint(call_bb);
  CheckOk(CallRuntime("caracal_rt_cast",
                      {state_, v.value, b_.getInt32(TypeCode(from)), b_.getInt32(from.precision),
                       b_.getInt32(from.scale), b_.getInt32(TypeCode(to)), b_.getInt32(to.precision),
                       b_.getInt32(to.scale), b_.getInt32(explicit_cast ? 1 : 0), out}));
  llvm::BasicBlock* call_end = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode* result = b_.CreatePHI(b_.getPtrTy(), 2, "relabel");
  result->addIncoming(v.value, from_bb);
  result->addIncoming(out, call_end);
  return CgValue{Repr::kBoxed, v.is_null, result};
}

std::optional<CgValue> ExprEmitter::NumericCastFastPath(const CgValue& v, const SqlType& from, const SqlType& to,
                                                         bool explicit_cast) {
  // caracal_rt_cast's own fast path, inline: an integer to numeric, or a numeric already
  // at the target scale, that fits numeric(p,s). The rest (rounding, overflow errors)
  // still calls it. Only scales and precisions whose bounds fit an int128.
  const bool integer = from.is_integer() && v.repr == Repr::kInt;
  const bool numeric = from.id == TypeId::kNumeric && v.repr == Repr::kBoxed;
  if (!integer && !numeric) return std::nullopt;
  if (numeric && to.precision < 0) return std::nullopt;
  if (to.precision > planner::Numeric::kMaxScale ||
      (to.precision >= 0 && (to.scale < 0 || to.scale > 18 || to.scale > to.precision)))
    return std::nullopt;
  llvm::Value* out = NewTemp();
  llvm::BasicBlock* null_bb = NewBlock("numcast.null");
  llvm::BasicBlock* try_bb = NewBlock("numcast.try");
  llvm::BasicBlock* store_bb = NewBlock("numcast.fast");
  llvm::BasicBlock* call_bb = NewBlock("numcast.call");
  llvm::BasicBlock* done = NewBlock("numcast.done");
  b_.CreateCondBr(v.is_null, null_bb, try_bb);
  b_.SetInsertPoint(null_bb);
  b_.CreateStore(b_.getInt8(0), FieldPtr(out, Layout::DatumKind()));
  b_.CreateBr(done);
  b_.SetInsertPoint(try_bb);
  llvm::Value* mantissa = nullptr;
  llvm::Value* fits = nullptr;
  if (integer) {
    // |v| < 2^63 and scale <= 18: v * 10^scale cannot overflow an int128.
    mantissa = b_.CreateSExt(v.value, b_.getInt128Ty());
    if (to.precision >= 0) mantissa = b_.CreateMul(mantissa, Int128Constant(planner::Pow10(to.scale)));
    fits = b_.getTrue();
  } else {
    NumericParts n = LoadNumeric(v.value);
    mantissa = n.mantissa;
    fits = b_.CreateAnd(n.is_numeric, b_.CreateICmpEQ(n.scale, b_.getInt32(to.scale)));
  }
  if (to.precision >= 0) {
    // At scale s, at most p - s integer digits means |mantissa| < 10^p.
    llvm::Value* bound = Int128Constant(planner::Pow10(to.precision));
    fits = b_.CreateAnd(fits, b_.CreateAnd(b_.CreateICmpSLT(mantissa, bound),
                                           b_.CreateICmpSGT(mantissa, b_.CreateNeg(bound))));
  }
  b_.CreateCondBr(fits, store_bb, call_bb, Likely());
  b_.SetInsertPoint(store_bb);
  StoreNumeric(out, mantissa, b_.getInt32(to.precision >= 0 ? to.scale : 0));
  b_.CreateBr(done);
  b_.SetInsertPoint(call_bb);
  CheckOk(CallRuntime("caracal_rt_cast",
                      {state_, Box(v, from.id), b_.getInt32(TypeCode(from)), b_.getInt32(from.precision),
                       b_.getInt32(from.scale), b_.getInt32(TypeCode(to)), b_.getInt32(to.precision),
                       b_.getInt32(to.scale), b_.getInt32(explicit_cast ? 1 : 0), out}));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return CgValue{Repr::kBoxed, v.is_null, out};
}

CgValue ExprEmitter::EmitIntArith(Op op, const CgValue& a, const CgValue& b, TypeId type) {
  llvm::Value* both = b_.CreateNot(b_.CreateOr(a.is_null, b.is_null));
  llvm::Value* x = a.value;
  llvm::Value* y = b.value;
  llvm::Value* r = nullptr;
  llvm::Value* overflow = b_.getFalse();
  auto with_overflow = [&](llvm::Intrinsic::ID id, llvm::Value* p, llvm::Value* q) {
    llvm::Value* pair = b_.CreateBinaryIntrinsic(id, p, q);
    r = b_.CreateExtractValue(pair, 0);
    overflow = b_.CreateExtractValue(pair, 1);
  };
  switch (op) {
    case Op::kAdd: with_overflow(llvm::Intrinsic::sadd_with_overflow, x, y); break;
    case Op::kSub: with_overflow(llvm::Intrinsic::ssub_with_overflow, x, y); break;
    case Op::kMul: with_overflow(llvm::Intrinsic::smul_with_overflow, x, y); break;
    case Op::kNeg: with_overflow(llvm::Intrinsic::ssub_with_overflow, b_.getInt64(0), x); break;
    case Op::kDiv:
    case Op::kMod: {
      llvm::Value* zero = b_.CreateICmpEQ(y, b_.getInt64(0));
      RaiseIf(b_.CreateAnd(both, zero), sqlstate::kDivisionByZero, "division by zero");
      // x / -1 is -x (overflow-checked), x % -1 is 0: neither may reach the hardware
      // (INT64_MIN / -1 traps), nor may a null operand's garbage zero divide.
      llvm::Value* minus_one = b_.CreateICmpEQ(y, b_.getInt64(-1));
      llvm::Value* safe_y = b_.CreateSelect(b_.CreateOr(zero, minus_one), b_.getInt64(1), y);
      if (op == Op::kDiv) {
        llvm::Value* pair = b_.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_with_overflow, b_.getInt64(0), x);
        r = b_.CreateSelect(minus_one, b_.CreateExtractValue(pair, 0), b_.CreateSDiv(x, safe_y));
        overflow = b_.CreateAnd(minus_one, b_.CreateExtractValue(pair, 1));
      } else {
        r = b_.CreateSelect(minus_one, b_.getInt64(0), b_.CreateSRem(x, safe_y));
      }
      break;
    }
    default: Internal("bad integer operator");
  }
  llvm::Value* bad = overflow;
  if (type != TypeId::kInt8)
    bad = b_.CreateOr(bad, b_.CreateOr(b_.CreateICmpSLT(r, b_.getInt64(IntMin(type))), b_.CreateICmpSGT(r, b_.getInt64(IntMax(type)))));
  RaiseIf(b_.CreateAnd(both, bad), sqlstate::kNumericOutOfRange, IntRangeMessage(type));
  return {Repr::kInt, b_.CreateNot(both), r};
}

CgValue ExprEmitter::EmitFloatArith(Op op, const CgValue& a, const CgValue& b, TypeId type) {
  llvm::Value* both = b_.CreateNot(b_.CreateOr(a.is_null, b.is_null));
  llvm::Value* x = a.value;
  llvm::Value* y = b.value;
  llvm::Type* f64 = b_.getDoubleTy();
  llvm::Value* zero = llvm::ConstantFP::get(f64, 0.0);
  llvm::Value* inf = llvm::ConstantFP::getInfinity(f64);
  llvm::Value* r = nullptr;
  switch (op) {
    case Op::kAdd: r = b_.CreateFAdd(x, y); break;
    case Op::kSub: r = b_.CreateFSub(x, y); break;
    case Op::kMul: r = b_.CreateFMul(x, y); break;
    case Op::kDiv:
      RaiseIf(b_.CreateAnd(both, b_.CreateFCmpOEQ(y, zero)), sqlstate::kDivisionByZero, "division by zero");
      r = b_.CreateFDiv(x, y);
      break;
    default: r = zero; break;  // as FloatArithmetic (the binder rejects float %)
  }
  auto is_inf = [&](llvm::Value* v) { return b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v), inf); };
  auto is_finite = [&](llvm::Value* v) { return b_.CreateFCmpOLT(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v), inf); };
  llvm::Value* inputs_finite = b_.CreateAnd(is_finite(x), is_finite(y));
  if (type == TypeId::kFloat4) {
    llvm::Value* f = b_.CreateFPTrunc(r, b_.getFloatTy());
    r = b_.CreateFPExt(f, f64);  // float's infinity widens to double's
  }
  RaiseIf(b_.CreateAnd(both, b_.CreateAnd(is_inf(r), inputs_finite)), sqlstate::kNumericOutOfRange,
          "value out of range: overflow");
  if (op == Op::kMul) {
    llvm::Value* underflow = b_.CreateAnd(b_.CreateFCmpOEQ(r, zero), b_.CreateAnd(b_.CreateFCmpUNE(x, zero), b_.CreateFCmpUNE(y, zero)));
    RaiseIf(b_.CreateAnd(both, underflow), sqlstate::kNumericOutOfRange, "value out of range: underflow");
  }
  return {Repr::kFloat, b_.CreateNot(both), r};
}

CgValue ExprEmitter::EmitArith(const Expr& e) {
  TypeId type = e.type.id;
  CgValue a = Emit(*e.args[0]);
  if (e.op == Op::kNeg) {
    if (e.type.is_integer()) return EmitIntArith(Op::kNeg, a, CgValue{Repr::kInt, b_.getFalse(), b_.getInt64(0)}, type);
    if (e.type.is_float()) return {Repr::kFloat, a.is_null, b_.CreateFNeg(a.value)};
    llvm::Value* out = NewTemp();
    llvm::BasicBlock* neg_bb = NewBlock("neg");
    llvm::BasicBlock* null_bb = NewBlock("neg.null");
    llvm::BasicBlock* done = NewBlock("neg.done");
    b_.CreateCondBr(a.is_null, null_bb, neg_bb);
    b_.SetInsertPoint(null_bb);
    b_.CreateStore(b_.getInt8(0), FieldPtr(out, Layout::DatumKind()));
    b_.CreateBr(done);
    b_.SetInsertPoint(neg_bb);
    CallRuntime("caracal_rt_num_neg", {a.value, out});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    return {Repr::kBoxed, a.is_null, out};
  }
  CgValue b = Emit(*e.args[1]);
  if (e.type.is_integer()) return EmitIntArith(e.op, a, b, type);
  if (e.type.is_float()) return EmitFloatArith(e.op, a, b, type);
  // numeric: planner::Arithmetic, only when both are non-null.
  llvm::Value* any_null = b_.CreateOr(a.is_null, b.is_null);
  llvm::Value* out = NewTemp();
  llvm::BasicBlock* call_bb = NewBlock("num.call");
  llvm::BasicBlock* null_bb = NewBlock("num.null");
  llvm::BasicBlock* done = NewBlock("num.done");
  b_.CreateCondBr(any_null, null_bb, call_bb);
  b_.SetInsertPoint(null_bb);
  b_.CreateStore(b_.getInt8(0), FieldPtr(out, Layout::DatumKind()));
  b_.CreateBr(done);
  b_.SetInsertPoint(call_bb);
  llvm::Value* boxed_a = Box(a, e.args[0]->type.id);
  llvm::Value* boxed_b = Box(b, e.args[1]->type.id);
  const bool numeric = e.type.id == TypeId::kNumeric;
  if (fast_paths_ && numeric && (e.op == Op::kAdd || e.op == Op::kSub) && e.type.precision < 0) {
    // Operands of one scale add without aligning: the mantissas' sum, unless it
    // overflows (then the runtime raises its error). Anything else calls the runtime.
    NumericParts x = LoadNumeric(boxed_a), y = LoadNumeric(boxed_b);
    llvm::Value* pair = b_.CreateBinaryIntrinsic(
        e.op == Op::kAdd ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::ssub_with_overflow, x.mantissa,
        y.mantissa);
    llvm::Value* fast = b_.CreateAnd(b_.CreateAnd(x.is_numeric, y.is_numeric),
                                     b_.CreateAnd(b_.CreateICmpEQ(x.scale, y.scale),
                                                  b_.CreateNot(b_.CreateExtractValue(pair, 1))));
    llvm::BasicBlock* store_bb = NewBlock("num.fast");
    llvm::BasicBlock* slow_bb = NewBlock("num.slow");
    b_.CreateCondBr(fast, store_bb, slow_bb, Likely());
    b_.SetInsertPoint(store_bb);
    StoreNumeric(out, b_.CreateExtractValue(pair, 0), x.scale);
    b_.CreateBr(done);
    b_.SetInsertPoint(slow_bb);
  } else if (fast_paths_ && numeric && e.op == Op::kMul && e.type.precision < 0) {
    // Mantissas that fit 64 bits multiply without overflowing 128, and the scales add
    // (Numeric's operator*), unless the sum passes the largest scale (then it rounds):
    // NewOrder's quantity * price, once per line. Anything else calls the runtime.
    NumericParts x = LoadNumeric(boxed_a), y = LoadNumeric(boxed_b);
    auto fits64 = [&](llvm::Value* m) {
      return b_.CreateICmpEQ(b_.CreateSExt(b_.CreateTrunc(m, b_.getInt64Ty()), b_.getInt128Ty()), m);
    };
    llvm::Value* scale = b_.CreateAdd(x.scale, y.scale);
    llvm::Value* fast = b_.CreateAnd(b_.CreateAnd(x.is_numeric, y.is_numeric),
                                     b_.CreateAnd(b_.CreateAnd(fits64(x.mantissa), fits64(y.mantissa)),
                                                  b_.CreateICmpSLE(scale, b_.getInt32(planner::Numeric::kMaxScale))));
    llvm::BasicBlock* store_bb = NewBlock("num.fast");
    llvm::BasicBlock* slow_bb = NewBlock("num.slow");
    b_.CreateCondBr(fast, store_bb, slow_bb, Likely());
    b_.SetInsertPoint(store_bb);
    StoreNumeric(out, b_.CreateNSWMul(x.mantissa, y.mantissa), scale);
    b_.CreateBr(done);
    b_.SetInsertPoint(slow_bb);
  }
  CheckOk(CallRuntime("caracal_rt_arith", {state_, b_.getInt32(static_cast<int>(e.op)), boxed_a, boxed_b,
                                           b_.getInt32(TypeCode(e.type)), b_.getInt32(e.type.precision),
                                           b_.getInt32(e.type.scale), out}));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return {Repr::kBoxed, any_null, out};
}

llvm::Value* ExprEmitter::Compare3(const CgValue& a, const CgValue& b, bool bpchar) {
  auto three_way = [&](llvm::Value* lt, llvm::Value* gt) {
    return b_.CreateSelect(lt, b_.getInt32(-1), b_.CreateSelect(gt, b_.getInt32(1), b_.getInt32(0)));
  };
  switch (a.repr) {
    case Repr::kBool: return three_way(b_.CreateICmpULT(a.value, b.value), b_.CreateICmpUGT(a.value, b.value));
    case Repr::kInt: return three_way(b_.CreateICmpSLT(a.value, b.value), b_.CreateICmpSGT(a.value, b.value));
    case Repr::kFloat: {
      // NaN sorts above everything and equals itself.
      llvm::Value* a_nan = b_.CreateFCmpUNO(a.value, a.value);
      llvm::Value* b_nan = b_.CreateFCmpUNO(b.value, b.value);
      llvm::Value* ordered = three_way(b_.CreateFCmpOLT(a.value, b.value), b_.CreateFCmpOGT(a.value, b.value));
      llvm::Value* with_b_nan = b_.CreateSelect(b_nan, b_.getInt32(-1), ordered);
      return b_.CreateSelect(a_nan, b_.CreateSelect(b_nan, b_.getInt32(0), b_.getInt32(1)), with_b_nan);
    }
    case Repr::kBoxed: {
      if (!fast_paths_) return CallRuntime("caracal_rt_compare", {a.value, b.value, b_.getInt32(bpchar ? 1 : 0)});
      // Numerics of one scale compare by mantissa (stock_level's s_quantity < threshold,
      // once per item); anything else calls the runtime.
      NumericParts x = LoadNumeric(a.value), y = LoadNumeric(b.value);
      llvm::Value* fast =
          b_.CreateAnd(b_.CreateAnd(x.is_numeric, y.is_numeric), b_.CreateICmpEQ(x.scale, y.scale));
      llvm::BasicBlock* fast_bb = NewBlock("cmp.num");
      llvm::BasicBlock* slow_bb = NewBlock("cmp.call");
      llvm::BasicBlock* done = NewBlock("cmp.done");
      b_.CreateCondBr(fast, fast_bb, slow_bb, Likely());
      b_.SetInsertPoint(fast_bb);
      llvm::Value* by_mantissa =
          three_way(b_.CreateICmpSLT(x.mantissa, y.mantissa), b_.CreateICmpSGT(x.mantissa, y.mantissa));
      b_.CreateBr(done);
      b_.SetInsertPoint(slow_bb);
      llvm::Value* called = CallRuntime("caracal_rt_compare", {a.value, b.value, b_.getInt32(bpchar ? 1 : 0)});
      slow_bb = b_.GetInsertBlock();
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      llvm::PHINode* result = b_.CreatePHI(b_.getInt32Ty(), 2);
      result->addIncoming(by_mantissa, fast_bb);
      result->addIncoming(called, slow_bb);
      return result;
    }
  }
  return b_.getInt32(0);
}

namespace {
llvm::Value* CompareResult(llvm::IRBuilder<>& b, Op op, llvm::Value* c) {
  llvm::Value* zero = b.getInt32(0);
  switch (op) {
    case Op::kEq: return b.CreateICmpEQ(c, zero);
    case Op::kNe: return b.CreateICmpNE(c, zero);
    case Op::kLt: return b.CreateICmpSLT(c, zero);
    case Op::kLe: return b.CreateICmpSLE(c, zero);
    case Op::kGt: return b.CreateICmpSGT(c, zero);
    case Op::kGe: return b.CreateICmpSGE(c, zero);
    default: return b.getFalse();
  }
}

// The signed integer comparison `op` of two i64 values.
llvm::Value* IntCompare(llvm::IRBuilder<>& b, Op op, llvm::Value* x, llvm::Value* y) {
  switch (op) {
    case Op::kEq: return b.CreateICmpEQ(x, y);
    case Op::kNe: return b.CreateICmpNE(x, y);
    case Op::kLt: return b.CreateICmpSLT(x, y);
    case Op::kLe: return b.CreateICmpSLE(x, y);
    case Op::kGt: return b.CreateICmpSGT(x, y);
    case Op::kGe: return b.CreateICmpSGE(x, y);
    default: return b.getFalse();
  }
}

}  // namespace

CgValue ExprEmitter::EmitCompare(const Expr& e) {
  bool bpchar = e.args[0]->type.id == TypeId::kBpchar && e.args[1]->type.id == TypeId::kBpchar;
  if ((e.args[1]->kind == ExprKind::kConst || e.args[1]->kind == ExprKind::kSlot) &&
      ReprOf(e.args[0]->type.id) == Repr::kInt && ReprOf(e.args[1]->type.id) == Repr::kInt) {
    // Integers against a constant or a variable: the right side cannot raise, so it is
    // read even when the left is NULL (Eval skips it then: nothing observable differs),
    // and the comparison is one instruction instead of three blocks.
    CgValue a = Emit(*e.args[0]);
    CgValue b = Emit(*e.args[1]);
    return {Repr::kBool, b_.CreateOr(a.is_null, b.is_null), IntCompare(b_, e.op, a.value, b.value)};
  }
  Var result = NewVar(Repr::kBool);
  llvm::BasicBlock* done = NewBlock("cmp.done");
  CgValue a = Emit(*e.args[0]);
  Set(result, Null(Repr::kBool));
  llvm::BasicBlock* rhs = NewBlock("cmp.rhs");
  b_.CreateCondBr(a.is_null, done, rhs);  // Eval skips the right side when the left is NULL
  b_.SetInsertPoint(rhs);
  CgValue b = Emit(*e.args[1]);
  if (a.repr != b.repr) Internal("comparison of mismatched representations: " + e.DebugString());
  llvm::BasicBlock* both = NewBlock("cmp.both");
  b_.CreateCondBr(b.is_null, done, both);
  b_.SetInsertPoint(both);
  Set(result, {Repr::kBool, b_.getFalse(), CompareResult(b_, e.op, Compare3(a, b, bpchar))});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitConcat(const Expr& e) {
  Var result = NewVar(Repr::kBoxed);
  llvm::BasicBlock* done = NewBlock("cat.done");
  CgValue a = Emit(*e.args[0]);
  Set(result, a);  // NULL left side: the result is that NULL
  llvm::BasicBlock* rhs = NewBlock("cat.rhs");
  b_.CreateCondBr(a.is_null, done, rhs);
  b_.SetInsertPoint(rhs);
  CgValue b = Emit(*e.args[1]);
  Set(result, b);
  llvm::BasicBlock* both = NewBlock("cat.both");
  b_.CreateCondBr(b.is_null, done, both);
  b_.SetInsertPoint(both);
  llvm::Value* out = NewTemp();
  CheckOk(CallRuntime("caracal_rt_concat", {state_, Box(a, e.args[0]->type.id), Box(b, e.args[1]->type.id), out}));
  Set(result, {Repr::kBoxed, b_.getFalse(), out});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitAndOr(const Expr& e) {
  bool is_and = e.kind == ExprKind::kAnd;
  Var result = NewVar(Repr::kBool);
  llvm::Value* saw_null = EntryAlloca(b_.getInt1Ty());
  b_.CreateStore(b_.getFalse(), saw_null);
  llvm::BasicBlock* done = NewBlock(is_and ? "and.done" : "or.done");
  for (const auto& arg : e.args) {
    CgValue d = Emit(*arg);
    llvm::Value* prev = b_.CreateLoad(b_.getInt1Ty(), saw_null);
    b_.CreateStore(b_.CreateOr(prev, d.is_null), saw_null);
    // AND stops at the first non-null false, OR at the first non-null true.
    llvm::Value* decisive = b_.CreateAnd(b_.CreateNot(d.is_null), is_and ? b_.CreateNot(d.value) : d.value);
    Set(result, {Repr::kBool, b_.getFalse(), b_.getInt1(!is_and)});
    llvm::BasicBlock* next = NewBlock("next");
    b_.CreateCondBr(decisive, done, next);
    b_.SetInsertPoint(next);
  }
  Set(result, {Repr::kBool, b_.CreateLoad(b_.getInt1Ty(), saw_null), b_.getInt1(is_and)});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitCase(const Expr& e) {
  Repr repr = ReprOf(e.type.id);
  Var result = NewVar(repr);
  llvm::BasicBlock* done = NewBlock("case.done");
  size_t n = e.args.size() - 1;
  for (size_t i = 0; i < n; i += 2) {
    llvm::Value* cond = EmitCondition(*e.args[i]);
    llvm::BasicBlock* then_bb = NewBlock("case.then");
    llvm::BasicBlock* next = NewBlock("case.next");
    b_.CreateCondBr(cond, then_bb, next);
    b_.SetInsertPoint(then_bb);
    CgValue v = Emit(*e.args[i + 1]);
    if (v.repr != repr) Internal("CASE branch of another representation: " + e.DebugString());
    Set(result, v);
    b_.CreateBr(done);
    b_.SetInsertPoint(next);
  }
  CgValue v = Emit(*e.args[n]);
  if (v.repr != repr) Internal("CASE else of another representation: " + e.DebugString());
  Set(result, v);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitCoalesce(const Expr& e) {
  Repr repr = ReprOf(e.type.id);
  Var result = NewVar(repr);
  llvm::BasicBlock* done = NewBlock("coalesce.done");
  for (const auto& arg : e.args) {
    CgValue v = Emit(*arg);
    if (v.repr != repr) Internal("COALESCE argument of another representation: " + e.DebugString());
    Set(result, v);
    llvm::BasicBlock* next = NewBlock("coalesce.next");
    b_.CreateCondBr(v.is_null, next, done);
    b_.SetInsertPoint(next);
  }
  Set(result, Null(repr));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitNullIf(const Expr& e) {
  CgValue a = Emit(*e.args[0]);
  CgValue b = Emit(*e.args[1]);
  if (a.repr != b.repr) Internal("NULLIF of mismatched representations: " + e.DebugString());
  // Comparing with a NULL side is harmless here (no error, no UB): the flag masks it.
  llvm::Value* both = b_.CreateNot(b_.CreateOr(a.is_null, b.is_null));
  llvm::Value* equal = b_.CreateICmpEQ(Compare3(a, b, e.args[0]->type.id == TypeId::kBpchar), b_.getInt32(0));
  llvm::Value* to_null = b_.CreateAnd(both, equal);
  if (a.repr == Repr::kBoxed) {
    llvm::Value* null_datum = ConstantDatum(Datum::Null());
    return {a.repr, b_.CreateOr(a.is_null, to_null), b_.CreateSelect(to_null, null_datum, a.value)};
  }
  return {a.repr, b_.CreateOr(a.is_null, to_null), a.value};
}

CgValue ExprEmitter::EmitGreatestLeast(const Expr& e) {
  Repr repr = ReprOf(e.type.id);
  bool greatest = e.kind == ExprKind::kGreatest;
  bool bpchar = e.type.id == TypeId::kBpchar;
  CgValue best = Null(repr);
  for (const auto& arg : e.args) {
    CgValue d = Emit(*arg);
    if (d.repr != repr) Internal("GREATEST/LEAST argument of another representation: " + e.DebugString());
    llvm::Value* c = Compare3(d, best, bpchar);
    llvm::Value* better = greatest ? b_.CreateICmpSGT(c, b_.getInt32(0)) : b_.CreateICmpSLT(c, b_.getInt32(0));
    llvm::Value* take = b_.CreateAnd(b_.CreateNot(d.is_null), b_.CreateOr(best.is_null, better));
    best = {repr, b_.CreateSelect(take, d.is_null, best.is_null), b_.CreateSelect(take, d.value, best.value)};
  }
  return best;
}

CgValue ExprEmitter::EmitIn(const Expr& e) {
  bool bpchar = e.args[0]->type.id == TypeId::kBpchar;
  Var result = NewVar(Repr::kBool);
  llvm::BasicBlock* done = NewBlock("in.done");
  CgValue x = Emit(*e.args[0]);
  Set(result, Null(Repr::kBool));
  llvm::BasicBlock* list = NewBlock("in.list");
  b_.CreateCondBr(x.is_null, done, list);
  b_.SetInsertPoint(list);
  llvm::Value* saw_null = EntryAlloca(b_.getInt1Ty());
  b_.CreateStore(b_.getFalse(), saw_null);
  for (size_t i = 1; i < e.args.size(); ++i) {
    CgValue d = Emit(*e.args[i]);
    if (d.repr != x.repr) Internal("IN list item of another representation: " + e.DebugString());
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), saw_null), d.is_null), saw_null);
    llvm::Value* match = b_.CreateAnd(b_.CreateNot(d.is_null), b_.CreateICmpEQ(Compare3(x, d, bpchar), b_.getInt32(0)));
    Set(result, {Repr::kBool, b_.getFalse(), b_.getInt1(!e.negated)});
    llvm::BasicBlock* next = NewBlock("in.next");
    b_.CreateCondBr(match, done, next);
    b_.SetInsertPoint(next);
  }
  Set(result, {Repr::kBool, b_.CreateLoad(b_.getInt1Ty(), saw_null), b_.getInt1(e.negated)});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitLike(const Expr& e) {
  Var result = NewVar(Repr::kBool);
  llvm::BasicBlock* done = NewBlock("like.done");
  CgValue t = Emit(*e.args[0]);
  Set(result, Null(Repr::kBool));
  llvm::BasicBlock* rhs = NewBlock("like.pattern");
  b_.CreateCondBr(t.is_null, done, rhs);
  b_.SetInsertPoint(rhs);
  CgValue p = Emit(*e.args[1]);
  llvm::BasicBlock* both = NewBlock("like.match");
  b_.CreateCondBr(p.is_null, done, both);
  b_.SetInsertPoint(both);
  llvm::Value* m = CallRuntime("caracal_rt_like", {Box(t, e.args[0]->type.id), Box(p, e.args[1]->type.id),
                                                   b_.getInt32(e.case_insensitive ? 1 : 0)});
  llvm::Value* r = b_.CreateICmpNE(m, b_.getInt32(0));
  Set(result, {Repr::kBool, b_.getFalse(), e.negated ? b_.CreateNot(r) : r});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

CgValue ExprEmitter::EmitAnyAll(const Expr& e) {
  // Both operands, in order (as the interpreter evaluates them), then the runtime:
  // 0 false, 1 true, 2 NULL.
  CgValue v = Emit(*e.args[0]);
  CgValue a = Emit(*e.args[1]);
  llvm::Value* value = Box(v, e.args[0]->type.id);
  llvm::Value* array = Box(a, e.args[1]->type.id);
  llvm::Value* r = CallRuntime("caracal_rt_any_all", {b_.getInt32(static_cast<int>(e.op)), b_.getInt32(e.negated ? 1 : 0),
                                                      b_.getInt32(static_cast<int>(e.args[0]->type.id)), value, array});
  return {Repr::kBool, b_.CreateICmpEQ(r, b_.getInt32(2)), b_.CreateICmpEQ(r, b_.getInt32(1))};
}

CgValue ExprEmitter::EmitFunc(const Expr& e) {
  if (e.func == planner::Func::kRandom) {
    // The procedure's stream, through the hooks; statement expressions (no hooks) are
    // interpreted, as user-function calls are.
    if (!routine_calls_) Internal("random() outside a procedure body");
    return {Repr::kFloat, b_.getFalse(), CallRuntime("caracal_rt_random", {state_, b_.getInt32(e.site)})};
  }
  if (e.func == planner::Func::kAscii) {
    // ascii(x) and ascii(x::text) of a string: read in place (no copy, no cast).
    const Expr* arg = e.args[0].get();
    bool strip = false;
    if (arg->kind == ExprKind::kCast && arg->args[0]->type.is_string() && arg->type.id == TypeId::kText) {
      strip = arg->args[0]->type.id == TypeId::kBpchar;
      arg = arg->args[0].get();
    }
    if (arg->type.is_string()) {
      CgValue v = Emit(*arg);
      if (!fast_paths_ || !Layout::StringLayoutKnown())
        return {Repr::kInt, v.is_null, CallRuntime("caracal_rt_ascii", {v.value, b_.getInt32(strip ? 1 : 0)})};
      // An ASCII first character (not a blank, where blanks may be stripped) is the
      // answer; the runtime decodes the rest. A NULL Datum holds a valid (ignored) string.
      llvm::Value* str = FieldPtr(v.value, Layout::DatumString());
      llvm::Value* size = b_.CreateLoad(b_.getInt64Ty(), FieldPtr(str, 8));
      llvm::BasicBlock* first_bb = NewBlock("ascii.first");
      llvm::BasicBlock* call_bb = NewBlock("ascii.call");
      llvm::BasicBlock* done = NewBlock("ascii.done");
      b_.CreateCondBr(b_.CreateICmpEQ(size, b_.getInt64(0)), call_bb, first_bb);
      b_.SetInsertPoint(first_bb);
      llvm::Value* byte = b_.CreateZExt(b_.CreateLoad(b_.getInt8Ty(), b_.CreateLoad(b_.getPtrTy(), str)), b_.getInt64Ty());
      llvm::Value* plain = b_.CreateICmpULT(byte, b_.getInt64(0x80));
      if (strip) plain = b_.CreateAnd(plain, b_.CreateICmpNE(byte, b_.getInt64(' ')));
      b_.CreateCondBr(plain, done, call_bb);
      b_.SetInsertPoint(call_bb);
      llvm::Value* decoded = CallRuntime("caracal_rt_ascii", {v.value, b_.getInt32(strip ? 1 : 0)});
      llvm::BasicBlock* call_end = b_.GetInsertBlock();
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      llvm::PHINode* r = b_.CreatePHI(b_.getInt64Ty(), 2, "ascii");
      r->addIncoming(byte, first_bb);
      r->addIncoming(decoded, call_end);
      return {Repr::kInt, v.is_null, r};
    }
  }
  if ((e.func == planner::Func::kArrayLength || e.func == planner::Func::kArrayUpper ||
       e.func == planner::Func::kArrayLower) &&
      e.args.size() == 2 && ReprOf(e.args[0]->type.id) == Repr::kBoxed && ReprOf(e.args[1]->type.id) == Repr::kInt) {
    // Inline, with the array read in place: boxing it into a temp would share its
    // elements until the temp is overwritten. NULL for a NULL argument, a dimension
    // other than 1 or an empty array (the interpreter's rule).
    CgValue array = Emit(*e.args[0]);
    CgValue dimension = Emit(*e.args[1]);
    llvm::Value* n = CallRuntime("caracal_rt_array_length", {array.value});  // 0 for a NULL Datum
    llvm::Value* is_null = b_.CreateOr(b_.CreateOr(array.is_null, dimension.is_null),
                                       b_.CreateOr(b_.CreateICmpNE(dimension.value, b_.getInt64(1)),
                                                   b_.CreateICmpEQ(n, b_.getInt64(0))));
    return {Repr::kInt, is_null, e.func == planner::Func::kArrayLower ? b_.getInt64(1) : n};
  }
  // Arguments are all evaluated first (as Eval does), then boxed side by side.
  std::vector<CgValue> args;
  for (const auto& arg : e.args) args.push_back(Emit(*arg));
  llvm::Value* first = BoxAll(e, args);
  llvm::Value* out = NewTemp();
  if (e.type.enum_type || e.type.domain)  // the result's enum type or domain: the node carries it
    CheckOk(CallRuntime("caracal_rt_func_typed",
                        {state_, b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uintptr_t>(&e)), b_.getPtrTy()), first,
                         b_.getInt32(static_cast<int>(args.size())), out}));
  else
    CheckOk(CallRuntime("caracal_rt_func", {state_, b_.getInt32(static_cast<int>(e.func)), b_.getInt32(TypeCode(e.type)),
                                            b_.getInt32(e.type.precision), b_.getInt32(e.type.scale),
                                            first,
                                            b_.getInt32(static_cast<int>(args.size())), out}));
  return Load(out, e.type.id);
}

llvm::Value* ExprEmitter::BoxAll(const planner::Expr& e, const std::vector<CgValue>& args) {
  int first = *temp_count_;
  *temp_count_ += static_cast<int>(args.size());
  for (size_t i = 0; i < args.size(); ++i) Store(args[i], e.args[i]->type.id, Temp(first + static_cast<int>(i)));
  return args.empty() ? static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(b_.getPtrTy())) : Temp(first);
}

CgValue ExprEmitter::EmitArray(const Expr& e) {
  std::vector<CgValue> args;
  for (const auto& arg : e.args) args.push_back(Emit(*arg));
  llvm::Value* first = BoxAll(e, args);
  llvm::Value* out = NewTemp();
  CheckOk(CallRuntime("caracal_rt_make_array", {state_, first, b_.getInt32(static_cast<int>(args.size())), out}));
  return {Repr::kBoxed, b_.getFalse(), out};
}

CgValue ExprEmitter::EmitSubscript(const Expr& e) {
  Repr repr = ReprOf(e.type.id);
  Var result = NewVar(repr);
  llvm::BasicBlock* done = NewBlock("sub.done");
  CgValue a = Emit(*e.args[0]);
  Set(result, Null(repr));
  llvm::BasicBlock* index_bb = NewBlock("sub.index");
  b_.CreateCondBr(a.is_null, done, index_bb);
  b_.SetInsertPoint(index_bb);
  CgValue i = Emit(*e.args[1]);
  if (i.repr != Repr::kInt) Internal("array subscript is not an integer: " + e.DebugString());
  llvm::BasicBlock* fetch = NewBlock("sub.fetch");
  b_.CreateCondBr(i.is_null, done, fetch);
  b_.SetInsertPoint(fetch);
  // The element in place; out of range gives a NULL Datum.
  llvm::Value* element = nullptr;
  if (fast_paths_ && Layout::ArrayLayoutKnown()) {
    // Inline: the vector's begin and end, and index - 1 unsigned below the count.
    llvm::Value* vec = b_.CreateLoad(b_.getPtrTy(), FieldPtr(a.value, Layout::DatumArray()));
    llvm::Value* begin = b_.CreateLoad(b_.getPtrTy(), vec, "arr.begin");
    llvm::Value* end = b_.CreateLoad(b_.getPtrTy(), FieldPtr(vec, 8), "arr.end");
    llvm::Value* count = b_.CreateUDiv(b_.CreateSub(b_.CreatePtrToInt(end, b_.getInt64Ty()), b_.CreatePtrToInt(begin, b_.getInt64Ty())),
                                       b_.getInt64(Layout::DatumSize()));
    llvm::Value* index = b_.CreateSub(i.value, b_.getInt64(1));
    llvm::Value* at = b_.CreateGEP(b_.getInt8Ty(), begin, b_.CreateMul(index, b_.getInt64(Layout::DatumSize())));
    element = b_.CreateSelect(b_.CreateICmpULT(index, count), at, ConstantDatum(Datum::Null()), "arr.elem");
  } else {
    element = CallRuntime("caracal_rt_subscript", {a.value, i.value});
  }
  Set(result, Load(element, e.type.id));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return Get(result);
}

// ---- CompileExpr -------------------------------------------------------------------

Datum CompiledExpr::Eval(const planner::EvalContext& ctx) const {
  EvalState state;
  state.variables = const_cast<Datum*>(ctx.variables.data());
  state.group_keys = ctx.group_keys.data();
  state.aggregates = ctx.aggregates.data();
  state.row = ctx.row;
  state.excluded = ctx.excluded;
  std::vector<Datum> temps(static_cast<size_t>(temps_));
  state.temps = temps.data();
  Datum out;
  if (fn_(&state, &out) == 0) {
    state.RethrowIfError();
    throw planner::SqlError(sqlstate::kInternalError, "internal error: compiled expression failed without an error");
  }
  return out;
}

CompiledExpr CompileExpr(Jit& jit, const Expr& e, const engine::Schema* schema, const CompileOptions& options) {
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = jit.NewModule(*context, "expr");
  llvm::IRBuilder<> b(*context);
  auto* fn_type = llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}, false);
  auto* fn = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, "caracal_expr", *module);
  fn->getArg(0)->setName("state");
  fn->getArg(1)->setName("out");
  auto* entry = llvm::BasicBlock::Create(*context, "entry", fn);
  auto* error_exit = llvm::BasicBlock::Create(*context, "error", fn);
  b.SetInsertPoint(error_exit);
  b.CreateRet(b.getInt32(0));
  b.SetInsertPoint(entry);

  CompiledExpr out;
  out.constants_ = std::make_unique<ConstantPool>();
  int temps = 0;
  ExprEmitter emitter(b, fn->getArg(0), error_exit, *out.constants_, &temps);
  emitter.set_schema(schema);
  emitter.set_fast_paths(jit.opt_level() != OptLevel::kO0);
  CgValue v = emitter.Emit(e);
  emitter.Store(v, e.type.id, fn->getArg(1));
  b.CreateRet(b.getInt32(1));
  emitter.DropUnusedStateLoads();

  std::vector<std::string> entry_points = {"caracal_expr"};
  out.module_ = jit.Compile(std::move(context), std::move(module), entry_points, options);
  out.fn_ = reinterpret_cast<CompiledExpr::Fn>(out.module_->Lookup("caracal_expr"));
  out.temps_ = temps;
  return out;
}

}  // namespace caracal::codegen
