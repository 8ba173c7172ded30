#include "codegen/jit/row_writes.h"

#include <algorithm>
#include <vector>

#include "codegen/runtime/eval_state.h"
#include "planner/plan/access_path.h"
#include "planner/types/sql_error.h"

namespace caracal::codegen {

using planner::SqlType;
using planner::TypeId;

namespace {

// What the patch stores into a column's slot.
enum class SlotKind { kInt, kBool, kReal, kDouble, kNumeric, kString, kNone };

SlotKind SlotKindOf(const engine::Column& c, const planner::CatalogColumn& catalog, const SqlType& value) {
  if (IsIntegerType(c.type)) return value.is_integer() ? SlotKind::kInt : SlotKind::kNone;
  switch (c.type) {
    case engine::ColumnType::kTimestamp:
    case engine::ColumnType::kTimestampTz:
    case engine::ColumnType::kDate:
    case engine::ColumnType::kTime: return value.id == catalog.type.id ? SlotKind::kInt : SlotKind::kNone;
    case engine::ColumnType::kBoolean: return value.id == TypeId::kBool ? SlotKind::kBool : SlotKind::kNone;
    case engine::ColumnType::kReal: return value.is_float() ? SlotKind::kReal : SlotKind::kNone;
    case engine::ColumnType::kDouble: return value.is_float() ? SlotKind::kDouble : SlotKind::kNone;
    case engine::ColumnType::kNumeric:
      // As planner::PatchRowColumn's direct path: the slot is the mantissa at the
      // column's scale.
      return value.id == TypeId::kNumeric && c.scale >= 0 && c.scale <= 18 && catalog.type.scale == c.scale
                 ? SlotKind::kNumeric
                 : SlotKind::kNone;
    // A string that keeps its size is written into the UPDATE's copy; else the row is
    // encoded again (caracal_rt_rebuild_row), as an INSERT's is.
    case engine::ColumnType::kChar:
    case engine::ColumnType::kVarchar:
    case engine::ColumnType::kText: return value.is_string() ? SlotKind::kString : SlotKind::kNone;
    // Raw bytes in a string Datum, written as a string's are.
    case engine::ColumnType::kUuid: return value.id == TypeId::kUuid ? SlotKind::kString : SlotKind::kNone;
    case engine::ColumnType::kBytea: return value.id == TypeId::kBytea ? SlotKind::kString : SlotKind::kNone;
    case engine::ColumnType::kJson: return value.id == TypeId::kJson ? SlotKind::kString : SlotKind::kNone;
    case engine::ColumnType::kJsonb: return value.id == TypeId::kJsonb ? SlotKind::kString : SlotKind::kNone;
    default: return SlotKind::kNone;
  }
}

// The slot bits of fixed-width value `v` (zero if it is NULL); `require(ok)` leaves for
// the general path unless `ok` (a numeric the slot cannot take as it is).
template <typename Require>
llvm::Value* FixedSlotBits(ExprEmitter& emitter, SlotKind kind, const engine::Column& c, const CgValue& v, Require require) {
  llvm::IRBuilder<>& b = emitter.builder();
  llvm::Value* bits = nullptr;
  switch (kind) {
    case SlotKind::kInt: bits = v.value; break;
    case SlotKind::kBool: bits = b.CreateZExt(v.value, b.getInt64Ty()); break;
    case SlotKind::kReal:
      bits = b.CreateBitCast(b.CreateFPExt(b.CreateFPTrunc(v.value, b.getFloatTy()), b.getDoubleTy()), b.getInt64Ty());
      break;
    case SlotKind::kDouble: bits = b.CreateBitCast(v.value, b.getInt64Ty()); break;
    case SlotKind::kNumeric: {
      ExprEmitter::NumericInt64 n = emitter.LoadNumericInt64(v.value);
      llvm::Value* direct = b.CreateAnd(b.CreateAnd(n.is_numeric, b.CreateICmpEQ(n.scale, b.getInt32(c.scale))), n.fits);
      require(b.CreateOr(v.is_null, direct));
      bits = n.low;
      break;
    }
    default:
      throw planner::SqlError(planner::sqlstate::kInternalError, "internal error: slot bits of a string column");
  }
  // A null column's slot is zero, as RowPatch::SetNull and EncodeRow leave it.
  return b.CreateSelect(v.is_null, b.getInt64(0), bits);
}

// A block of the function under `b` that returns `result`.
llvm::BasicBlock* Returning(llvm::IRBuilder<>& b, const char* name, int32_t result) {
  auto* block = llvm::BasicBlock::Create(b.getContext(), name, b.GetInsertBlock()->getParent());
  llvm::IRBuilder<> rb(block);
  rb.CreateRet(rb.getInt32(result));
  return block;
}

// `require(ok)` for the function under `b`: continues when `ok`, else goes to `fallback`.
auto Requirer(llvm::IRBuilder<>& b, llvm::BasicBlock* fallback) {
  return [&b, fallback](llvm::Value* ok) {
    auto* next = llvm::BasicBlock::Create(b.getContext(), "row.ok", b.GetInsertBlock()->getParent());
    b.CreateCondBr(ok, next, fallback);
    b.SetInsertPoint(next);
  };
}

// `column = value` over integers: true for every row a point key built from `value` finds
// (a value without an exact encoding finds no row: table_access.h PointKey).
bool IsIntegerEquality(const planner::Expr& e) {
  return e.kind == planner::ExprKind::kCompare && e.op == planner::Op::kEq && e.args[0]->type.is_integer() &&
         e.args[1]->type.is_integer();
}

// The conjuncts of UPDATE `s`'s WHERE that the row its key found may still fail: a point
// UPDATE's integer key equalities hold for that row, so they are not tested again.
std::vector<const planner::Expr*> PatchFilter(const planner::Stmt& s) {
  std::vector<const planner::Expr*> conjuncts;
  if (!s.filter) return conjuncts;
  planner::Conjuncts(s.filter.get(), conjuncts);
  if (s.where_key.kind != planner::KeyAccess::Kind::kPoint) return conjuncts;
  const planner::AccessPath path = planner::ChooseAccessPath(s.filter.get(), *s.table);
  if (path.kind != planner::AccessPath::Kind::kPointRead) return conjuncts;
  std::erase_if(conjuncts, [&](const planner::Expr* c) {
    return IsIntegerEquality(*c) && std::find(path.decided.begin(), path.decided.end(), c) != path.decided.end();
  });
  return conjuncts;
}

}  // namespace

bool UpdatePatchable(const planner::Stmt& s, const engine::Schema& schema) {
  if (s.kind != planner::StmtKind::kUpdate || s.assignments.empty()) return false;
  for (const auto& [col, e] : s.assignments)
    if (SlotKindOf(schema.column(col), s.table->columns[static_cast<size_t>(col)], e->type) == SlotKind::kNone)
      return false;
  return true;
}

void EmitUpdatePatch(ExprEmitter& emitter, const planner::Stmt& s, const engine::Schema& schema, llvm::Value* target) {
  llvm::IRBuilder<>& b = emitter.builder();
  llvm::LLVMContext& context = b.getContext();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto require = Requirer(b, Returning(b, "patch.fallback", kRowFallback));

  const std::vector<const planner::Expr*> filter = PatchFilter(s);
  if (!filter.empty()) {
    llvm::BasicBlock* rejected = Returning(b, "patch.rejected", kRowRejected);
    for (const planner::Expr* conjunct : filter) {
      llvm::Value* pass = emitter.EmitCondition(*conjunct);
      auto* next = llvm::BasicBlock::Create(context, "patch.values", fn);
      b.CreateCondBr(pass, next, rejected);
      b.SetInsertPoint(next);
    }
  }
  // Every new value is computed from the old row before any slot of the copy changes.
  std::vector<CgValue> values;
  for (const auto& [col, e] : s.assignments) values.push_back(emitter.Emit(*e));

  llvm::Value* new_row = b.CreateLoad(
      b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), target, Layout::PatchTargetRow()), "patch.row");
  // String values: each is recorded for caracal_rt_rebuild_row and written into the copy
  // when it keeps the old value's size; one that does not (or a NULL) makes the runtime
  // encode the whole row once the fixed-width values are in the copy.
  std::vector<SlotKind> kinds;
  for (const auto& [col, e] : s.assignments)
    kinds.push_back(SlotKindOf(schema.column(col), s.table->columns[static_cast<size_t>(col)], e->type));
  const auto string_count = static_cast<size_t>(std::ranges::count(kinds, SlotKind::kString));
  llvm::Value* strings =
      string_count == 0 ? nullptr
                        : emitter.EntryAlloca(llvm::ArrayType::get(b.getInt8Ty(), string_count * Layout::PatchStringSize()));
  llvm::Value* rebuild = b.getFalse();
  size_t string_index = 0;

  for (size_t i = 0; i < values.size(); ++i) {
    const int col = s.assignments[i].first;
    const engine::Column& c = schema.column(col);
    const planner::CatalogColumn& catalog = s.table->columns[static_cast<size_t>(col)];
    const CgValue& v = values[i];
    // A NOT NULL violation is raised by the general path, with its message.
    if (catalog.not_null) require(b.CreateNot(v.is_null));
    const SlotKind kind = kinds[i];
    if (kind == SlotKind::kString) {
      llvm::Value* entry = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), strings, string_index++ * Layout::PatchStringSize());
      b.CreateStore(b.getInt64(static_cast<uint64_t>(col)), entry);
      b.CreateStore(v.value, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, Layout::PatchStringValue()));
      b.CreateStore(b.CreateZExt(v.is_null, b.getInt64Ty()),
                    b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, Layout::PatchStringNull()));
      llvm::BasicBlock* from = b.GetInsertBlock();
      auto* in_place = llvm::BasicBlock::Create(context, "patch.string", fn);
      auto* done = llvm::BasicBlock::Create(context, "patch.string.done", fn);
      b.CreateCondBr(v.is_null, done, in_place);
      b.SetInsertPoint(in_place);
      llvm::Value* patched = emitter.CallRuntime("caracal_rt_patch_string", {new_row, b.getInt32(col), v.value});
      llvm::Value* resized = b.CreateICmpEQ(patched, b.getInt32(0));
      llvm::BasicBlock* patched_from = b.GetInsertBlock();
      b.CreateBr(done);
      b.SetInsertPoint(done);
      llvm::PHINode* misfit = b.CreatePHI(b.getInt1Ty(), 2, "patch.string.misfit");
      misfit->addIncoming(b.getTrue(), from);
      misfit->addIncoming(resized, patched_from);
      rebuild = b.CreateOr(rebuild, misfit);
      continue;
    }
    llvm::Value* bits = FixedSlotBits(emitter, kind, c, v, require);
    b.CreateStore(bits, emitter.RowColumn(new_row, col).second);
    llvm::Value* null_byte_ptr = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), new_row, Layout::RowHeader() + col / 8);
    llvm::Value* byte = b.CreateLoad(b.getInt8Ty(), null_byte_ptr);
    const auto mask = static_cast<uint8_t>(1u << (col & 7));
    llvm::Value* set = b.CreateOr(byte, b.getInt8(mask));
    llvm::Value* cleared = b.CreateAnd(byte, b.getInt8(static_cast<uint8_t>(~mask)));
    b.CreateStore(b.CreateSelect(v.is_null, set, cleared), null_byte_ptr);
  }
  if (string_count == 0) {
    b.CreateRet(b.getInt32(kRowWritten));
    return;
  }
  auto* rebuilt = llvm::BasicBlock::Create(context, "patch.rebuild", fn);
  auto* written = Returning(b, "patch.written", kRowWritten);
  b.CreateCondBr(rebuild, rebuilt, written);
  b.SetInsertPoint(rebuilt);
  b.CreateRet(emitter.CallRuntime("caracal_rt_rebuild_row",
                                  {emitter.state(), target, strings, b.getInt32(static_cast<int32_t>(string_count))}));
}

bool InsertBuildable(const planner::Stmt& s, const engine::Schema& schema) {
  if (s.kind != planner::StmtKind::kInsert || s.select || s.on_conflict == planner::OnConflict::kDoUpdate ||
      static_cast<int>(s.row_values.size()) != schema.num_columns())
    return false;
  for (int c : s.table->primary_key)
    if (!s.table->columns[static_cast<size_t>(c)].type.is_integer()) return false;
  for (size_t c = 0; c < s.row_values.size(); ++c)
    if (!s.row_values[c] ||
        SlotKindOf(schema.column(static_cast<int>(c)), s.table->columns[c], s.row_values[c]->type) == SlotKind::kNone)
      return false;
  return true;
}

void EmitInsertRow(ExprEmitter& emitter, const planner::Stmt& s, const engine::Schema& schema, llvm::Value* out) {
  llvm::IRBuilder<>& b = emitter.builder();
  auto require = Requirer(b, Returning(b, "insert.fallback", kRowFallback));
  // In column order, as the general path evaluates them.
  std::vector<CgValue> values;
  for (const auto& e : s.row_values) values.push_back(emitter.Emit(*e));
  const size_t n = values.size();
  llvm::Value* cells = emitter.EntryAlloca(llvm::ArrayType::get(b.getInt8Ty(), n * Layout::BuildCellSize()));
  std::vector<bool> in_key(n, false);
  for (int c : s.table->primary_key) in_key[static_cast<size_t>(c)] = true;
  for (size_t i = 0; i < n; ++i) {
    const engine::Column& c = schema.column(static_cast<int>(i));
    const planner::CatalogColumn& catalog = s.table->columns[i];
    const CgValue& v = values[i];
    // NOT NULL and key violations are raised by the general path, with their messages.
    if (catalog.not_null || in_key[i]) require(b.CreateNot(v.is_null));
    llvm::Value* cell = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), cells, i * Layout::BuildCellSize());
    const SlotKind kind = SlotKindOf(c, catalog, s.row_values[i]->type);
    llvm::Value* string = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), cell, Layout::BuildCellString());
    if (kind == SlotKind::kString) {
      b.CreateStore(v.value, string);
    } else {
      b.CreateStore(FixedSlotBits(emitter, kind, c, v, require), cell);
      b.CreateStore(llvm::ConstantPointerNull::get(b.getPtrTy()), string);
    }
    b.CreateStore(b.CreateZExt(v.is_null, b.getInt64Ty()),
                  b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), cell, Layout::BuildCellNull()));
  }
  b.CreateRet(emitter.CallRuntime("caracal_rt_build_row", {emitter.state(), cells, out}));
}

}  // namespace caracal::codegen
