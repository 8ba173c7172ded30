// The expression compiler: a bound planner::Expr -> native code with exactly the
// interpreter's semantics (planner::Eval): the same values, the same SqlErrors (SQLSTATE,
// message, detail), the same evaluation order and short-circuits (an error in an operand
// that Eval never evaluates is never raised).
//
// Value representation in generated code (CgValue): a separate i1 null flag plus
//   bool                      -> i1
//   smallint/integer/bigint,
//   timestamp                 -> i64 (integers range-checked by their static type)
//   real/double precision     -> double (real kept rounded to float, as Datum does)
//   numeric, char/varchar/text,
//   arrays, unknown           -> pointer to a Datum ("boxed"): a frame variable, a
//                                 constant, or a scratch temp written by a runtime call.
// Integer and float arithmetic, comparisons, casts between integers and floats, CASE,
// COALESCE, IN, AND/OR... are native; numeric arithmetic, string operations, other casts
// and builtin functions call the planner's own code through jit_runtime.h, which is what
// keeps errors and rounding identical. Invariant: a boxed value's Datum has kind kNull
// exactly when its null flag is set.
//
// Two levels of API: CompileExpr() makes a callable (tests, the interpreter's fast
// path); ExprEmitter emits into a function the statement compiler is building.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "codegen/runtime/eval_state.h"
#include "codegen/jit/jit.h"
#include "planner/types/datum.h"
#include "planner/expr/expr.h"
#include "planner/expr/expr_eval.h"

namespace caracal::codegen {

enum class Repr : uint8_t { kBool, kInt, kFloat, kBoxed };
Repr ReprOf(planner::TypeId type);
planner::Datum::Kind KindOf(planner::TypeId type);

struct CgValue {
  Repr repr = Repr::kInt;
  llvm::Value* is_null = nullptr;  // i1
  llvm::Value* value = nullptr;    // i1 / i64 / double / ptr (Datum*)
};

// Datums referenced by compiled code (constants); owned by the compiled unit and
// never moved (a deque), since their addresses are baked into the code.
using ConstantPool = std::deque<planner::Datum>;

// Emits expressions into the function under `builder`'s insert point.
class ExprEmitter {
 public:
  // `state` is the function's EvalState* argument. `error_exit` is the block that
  // returns the function's error status. Temps are numbered from `*temp_count` on.
  ExprEmitter(llvm::IRBuilder<>& builder, llvm::Value* state, llvm::BasicBlock* error_exit, ConstantPool& constants,
              int* temp_count);

  // Whether values get inline fast paths before their runtime calls: numeric arithmetic,
  // comparisons and casts (i128 code), string column reads into variables, array
  // subscripts, ascii(). Worth it in the -O2 tier; the first tier keeps its IR small,
  // since CREATE FUNCTION waits for it. Off by default.
  void set_fast_paths(bool on) { fast_paths_ = on; }
  // Whether user function calls (kRoutineCall) compile into calls through the statement
  // hooks (caracal_rt_routine_call): only in a procedure's body or init function, whose
  // EvalState carries them. Elsewhere such an expression does not compile. Off by default.
  void set_routine_calls(bool on) { routine_calls_ = on; }
  // Where failing code branches from now on; returns the block it replaces.
  llvm::BasicBlock* set_error_exit(llvm::BasicBlock* error_exit) { return std::exchange(error_exit_, error_exit); }

  // Removes the EvalState loads the emitted code never used (the constructor loads every
  // pointer up front, where it dominates all uses; the first tier's compile time counts
  // every instruction). Call once, when done emitting; the emitter is not used after.
  void DropUnusedStateLoads();

  CgValue Emit(const planner::Expr& e);
  // A condition as WHERE/IF sees it: true iff the value is non-null and true.
  llvm::Value* EmitCondition(const planner::Expr& e);
  // Writes `v` (of SQL type `type`) into the Datum at `dst`.
  void Store(const CgValue& v, planner::TypeId type, llvm::Value* dst);
  // CastDatum(v, from, to, explicit_cast) (NULL stays NULL).
  CgValue Cast(const CgValue& v, const planner::SqlType& from, const planner::SqlType& to, bool explicit_cast);
  // Reads the Datum at `src` as a value of `type` (boxed types: the pointer itself).
  CgValue Load(llvm::Value* src, planner::TypeId type);

  // Branches to the error exit when `ok` (i32 returned by a runtime function) is 0.
  void CheckOk(llvm::Value* ok);
  // A boxed Datum's numeric fields (meaningful when is_numeric), and the store of a
  // numeric into one.
  struct NumericParts {
    llvm::Value* is_numeric;
    llvm::Value* mantissa;  // i128
    llvm::Value* scale;     // i32
  };
  NumericParts LoadNumeric(llvm::Value* datum);
  // A boxed Datum's numeric as an int64 mantissa: `low` is it when `fits` (the mantissa
  // is within int64) and is_numeric.
  struct NumericInt64 {
    llvm::Value* is_numeric;
    llvm::Value* low;   // i64: the mantissa's low word
    llvm::Value* fits;  // i1
    llvm::Value* scale;  // i32
  };
  NumericInt64 LoadNumericInt64(llvm::Value* datum);
  // Stores int64 `value` (i64) as the numeric mantissa of the Datum at `datum` (the kind
  // and scale are the caller's).
  void StoreInt64Mantissa(llvm::Value* datum, llvm::Value* value);
  void StoreNumeric(llvm::Value* datum, llvm::Value* mantissa, llvm::Value* scale);
  llvm::Value* Int128Constant(planner::int128 v);
  // A cast to numeric without a runtime call where the value allows (else the call).
  std::optional<CgValue> NumericCastFastPath(const CgValue& v, const planner::SqlType& from,
                                             const planner::SqlType& to, bool explicit_cast);
  // A varchar or text value cast to text or varchar(n) when it stays the same string
  // (no modifier, or at most n bytes): the value itself, not a copy. Boxed string
  // values are read-only to their consumers, so sharing the Datum is safe. nullopt for
  // other casts.
  std::optional<CgValue> RelabelString(const CgValue& v, const planner::SqlType& from, const planner::SqlType& to,
                                       bool explicit_cast);
  // Raises SqlError(sqlstate, message) when `cond` (i1) holds.
  void RaiseIf(llvm::Value* cond, const char* sqlstate, const std::string& message);

  // The row a kColumn / kExcluded slot reads; defaults to EvalState::row / excluded,
  // loaded where the emitter was created. The statement compiler points it at the
  // row it is working on.
  void set_row(llvm::Value* row) { row_ = row; }
  llvm::Value* row() const { return row_; }
  void set_excluded(llvm::Value* excluded) { excluded_ = excluded; }
  // The schema of the rows kColumn / kExcluded slots read (slot types carry no
  // modifiers, so a numeric column's scale comes from here). Required for numeric columns.
  void set_schema(const engine::Schema* schema) { schema_ = schema; }
  const engine::Schema* schema() const { return schema_; }
  // A row column's null flag and the address of its 8-byte slot.
  std::pair<llvm::Value*, llvm::Value*> RowColumn(llvm::Value* row, int col);
  // Copies variable-width column `col` of `row` into the Datum at `dst` (NULL if it is
  // null), with no temp in between: a string's bytes, or a numeric of any precision
  // (engine::ColumnType::kDecimal) or an array (kArray) parsed from its text.
  void ReadVariableColumnInto(llvm::Value* row, int col, llvm::Value* dst);
  // The NULL of `type`.
  CgValue NullOf(planner::TypeId type) { return Null(ReprOf(type)); }

  llvm::Value* NewTemp();
  llvm::Value* Temp(int index);
  llvm::Value* ConstantDatum(planner::Datum d);
  llvm::Value* CallRuntime(const char* name, std::initializer_list<llvm::Value*> args);
  llvm::IRBuilder<>& builder() { return b_; }
  llvm::Value* state() const { return state_; }
  // A stack slot of `type` in the function's entry block.
  llvm::Value* EntryAlloca(llvm::Type* type);
  llvm::Value* variables() const { return variables_; }
  // Pointer to frame variable `index` (a Datum).
  llvm::Value* Variable(int index);

 private:
  CgValue EmitConst(const planner::Expr& e);
  CgValue EmitConstDatum(const planner::Datum& d, const planner::SqlType& type);
  CgValue EmitSlot(const planner::Expr& e);
  CgValue EmitRowColumn(llvm::Value* row, int col, const planner::SqlType& type);
  CgValue EmitCast(const planner::Expr& e);
  CgValue EmitArith(const planner::Expr& e);
  CgValue EmitIntArith(planner::Op op, const CgValue& a, const CgValue& b, planner::TypeId type);
  CgValue EmitFloatArith(planner::Op op, const CgValue& a, const CgValue& b, planner::TypeId type);
  CgValue EmitCompare(const planner::Expr& e);
  CgValue EmitConcat(const planner::Expr& e);
  CgValue EmitAndOr(const planner::Expr& e);
  CgValue EmitCase(const planner::Expr& e);
  CgValue EmitCoalesce(const planner::Expr& e);
  CgValue EmitNullIf(const planner::Expr& e);
  CgValue EmitGreatestLeast(const planner::Expr& e);
  CgValue EmitIn(const planner::Expr& e);
  CgValue EmitLike(const planner::Expr& e);
  CgValue EmitAnyAll(const planner::Expr& e);
  CgValue EmitFunc(const planner::Expr& e);
  CgValue EmitArray(const planner::Expr& e);
  CgValue EmitSubscript(const planner::Expr& e);
  // Stores already evaluated arguments of `e` side by side in fresh temps; the first.
  llvm::Value* BoxAll(const planner::Expr& e, const std::vector<CgValue>& args);

  // Three-way comparison (i32 -1/0/1) of two values of one representation, as
  // CompareForType; bpchar compares blank-insensitively.
  llvm::Value* Compare3(const CgValue& a, const CgValue& b, bool bpchar);
  // A boxed copy of `v` (a fresh temp unless already boxed).
  llvm::Value* Box(const CgValue& v, planner::TypeId type);
  CgValue Null(Repr repr);
  llvm::Value* FieldPtr(llvm::Value* base, size_t offset);
  llvm::Value* LoadIsNull(llvm::Value* datum);
  llvm::Type* TypeOf(Repr repr);
  // A mutable CgValue in allocas, for merging control flow (mem2reg promotes it).
  struct Var {
    Repr repr;
    llvm::Value* is_null;
    llvm::Value* value;
  };
  Var NewVar(Repr repr);
  void Set(const Var& var, const CgValue& v);
  CgValue Get(const Var& var);
  llvm::BasicBlock* NewBlock(const char* name);
  llvm::MDNode* Likely();
  llvm::MDNode* Unlikely();

  llvm::IRBuilder<>& b_;
  llvm::LLVMContext& ctx_;
  llvm::Module& module_;
  llvm::Value* state_;
  llvm::BasicBlock* error_exit_;
  ConstantPool& constants_;
  bool fast_paths_ = false;
  bool routine_calls_ = false;
  int* temp_count_;
  llvm::Value* variables_ = nullptr;
  llvm::Value* group_keys_ = nullptr;
  llvm::Value* aggregates_ = nullptr;
  llvm::Value* temps_ = nullptr;
  llvm::Value* row_ = nullptr;
  llvm::Value* excluded_ = nullptr;
  std::vector<llvm::Value*> state_loads_;  // the constructor's loads of the pointers above
  const engine::Schema* schema_ = nullptr;
};

// A compiled expression: evaluates exactly like planner::Eval. Thread-safe to call.
class CompiledExpr {
 public:
  planner::Datum Eval(const planner::EvalContext& ctx) const;
  double compile_ms() const { return module_->compile_ms(); }
  // The optimised IR, when compiled with options.dump_ir.
  const std::string& ir() const { return module_->ir(); }

 private:
  friend CompiledExpr CompileExpr(Jit&, const planner::Expr&, const engine::Schema*, const CompileOptions&);
  using Fn = int32_t (*)(EvalState*, planner::Datum*);
  std::unique_ptr<ConstantPool> constants_;
  std::unique_ptr<CompiledModule> module_;
  Fn fn_ = nullptr;
  int temps_ = 0;
};

// Compiles `e` (any ExprKind of expr.h). `schema` is the schema of the rows its column
// slots read (null if it reads none). Throws SqlError XX000 on a code generator bug.
CompiledExpr CompileExpr(Jit& jit, const planner::Expr& e, const engine::Schema* schema = nullptr,
                         const CompileOptions& options = {});

}  // namespace caracal::codegen
