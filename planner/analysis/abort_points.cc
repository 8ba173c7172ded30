#include "planner/analysis/abort_points.h"

#include "planner/plan/ir_visit.h"

namespace caracal::planner {

bool ConversionMayRaise(const SqlType& from, const SqlType& to) {
  if (from == to || from.is_unknown()) return false;
  switch (to.id) {
    case TypeId::kText: return false;
    case TypeId::kVarchar:
    case TypeId::kBpchar:
      if (!to.has_typmod()) return false;
      return !(from.is_string() && from.has_typmod() && from.precision <= to.precision);
    case TypeId::kInt8:
      return !(from.id == TypeId::kInt2 || from.id == TypeId::kInt4);
    case TypeId::kInt4: return from.id != TypeId::kInt2;
    case TypeId::kFloat8: return !(from.is_integer() || from.id == TypeId::kFloat4 || from.id == TypeId::kNumeric);
    case TypeId::kNumeric:
      if (!to.has_typmod()) return !(from.is_integer() || from.id == TypeId::kNumeric);
      if (from.id == TypeId::kNumeric && from.has_typmod())
        return !(from.scale <= to.scale && from.precision - from.scale <= to.precision - to.scale);
      if (from.id == TypeId::kInt2) return to.precision - to.scale < 5;
      if (from.id == TypeId::kInt4) return to.precision - to.scale < 10;
      if (from.id == TypeId::kInt8) return to.precision - to.scale < 19;
      return true;
    case TypeId::kBool: return from.id != TypeId::kBool;
    case TypeId::kArray: return !(from.is_array() && from.element == to.element && !to.has_typmod());
    default: return true;
  }
}

bool MayRaise(const Expr& e) {
  for (const auto& a : e.args)
    if (MayRaise(*a)) return true;
  switch (e.kind) {
    case ExprKind::kConst:
    case ExprKind::kSlot:
    case ExprKind::kCompare:
    case ExprKind::kConcat:
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot:
    case ExprKind::kIsNull:
    case ExprKind::kBoolTest:
    case ExprKind::kCase:
    case ExprKind::kCoalesce:
    case ExprKind::kNullIf:
    case ExprKind::kGreatest:
    case ExprKind::kLeast:
    case ExprKind::kIn:
    case ExprKind::kLike:
    case ExprKind::kAnyAll:
    case ExprKind::kArray:
    case ExprKind::kSubscript:
    case ExprKind::kNextval: return false;
    case ExprKind::kCast: return ConversionMayRaise(e.args[0]->type, e.type);
    case ExprKind::kSubquery:   // more than one row
    case ExprKind::kRoutineCall:  // whatever its body raises
    case ExprKind::kWindowRef:
    case ExprKind::kArith: return true;  // overflow, division by zero
    case ExprKind::kAggRef: return e.agg == AggFunc::kSum || e.agg == AggFunc::kAvg;
    case ExprKind::kFunc:
      switch (e.func) {
        case Func::kLength:
        case Func::kOctetLength:
        case Func::kBitLength:
        case Func::kLower:
        case Func::kUpper:
        case Func::kBtrim:
        case Func::kLtrim:
        case Func::kRtrim:
        case Func::kReplace:
        case Func::kStrpos:
        case Func::kConcat:
        case Func::kConcatWs:
        case Func::kLeft:
        case Func::kRight:
        case Func::kAscii:
        case Func::kArrayLength:
        case Func::kCardinality:
        case Func::kArrayUpper:
        case Func::kArrayLower:
        case Func::kArrayAppend:
        case Func::kArrayPrepend:
        case Func::kArrayCat:
        case Func::kBoolOut:
        case Func::kSign:
        case Func::kFloor:
        case Func::kCeil:
        case Func::kTrunc: return false;
        default: return true;
      }
  }
  return true;
}

bool MayBeNull(const Expr& e, const ProcedureIr& ir, const TableInfo* table) {
  auto any_arg = [&] {
    for (const auto& a : e.args)
      if (MayBeNull(*a, ir, table)) return true;
    return false;
  };
  switch (e.kind) {
    case ExprKind::kConst: return e.value.is_null();
    case ExprKind::kSlot:
      if (e.slot.space == SlotSpace::kVariable) {
        const Variable& v = ir.variables[e.slot.index];
        return !(v.not_null || v.kind == VariableKind::kSequence || v.kind == VariableKind::kNow ||
                 (v.kind == VariableKind::kLoopVar && v.type.is_integer()));
      }
      if ((e.slot.space == SlotSpace::kColumn || e.slot.space == SlotSpace::kExcluded) && table)
        return !table->columns[e.slot.index].not_null;
      return true;
    case ExprKind::kCoalesce:
      for (const auto& a : e.args)
        if (!MayBeNull(*a, ir, table)) return false;
      return true;
    case ExprKind::kCase:
      for (size_t i = 1; i < e.args.size(); i += 2)
        if (MayBeNull(*e.args[i], ir, table)) return true;
      return MayBeNull(*e.args.back(), ir, table);
    case ExprKind::kIsNull:
    case ExprKind::kBoolTest: return false;
    case ExprKind::kNullIf:
    case ExprKind::kSubscript:
    case ExprKind::kAggRef:
    case ExprKind::kRoutineCall:
    case ExprKind::kNextval: return true;
    case ExprKind::kFunc:
      if (e.func == Func::kConcat || e.func == Func::kFormat) return false;
      if (e.func == Func::kConcatWs) return MayBeNull(*e.args[0], ir, table);
      if (e.func == Func::kArrayLength || e.func == Func::kArrayUpper || e.func == Func::kArrayLower ||
          e.func == Func::kArrayPosition || e.func == Func::kArrayDims || e.func == Func::kArrayNdims ||
          e.func == Func::kStringToArray || e.func == Func::kArrayToString)
        return true;
      if (e.func == Func::kArrayAppend || e.func == Func::kArrayPrepend || e.func == Func::kArraySet) return false;
      if (e.func == Func::kArrayCat) return MayBeNull(*e.args[0], ir, table) && MayBeNull(*e.args[1], ir, table);
      return any_arg();
    case ExprKind::kArray: return false;
    default: return any_arg();
  }
}

namespace {

bool AnyMayRaise(const std::vector<ExprPtr>& exprs) {
  for (const auto& e : exprs)
    if (e && MayRaise(*e)) return true;
  return false;
}

// A written column value that violates NOT NULL or cannot be stored.
bool ColumnWriteMayRaise(const TableInfo& table, int column, const Expr& value, const ProcedureIr& ir) {
  const CatalogColumn& c = table.columns[column];
  if (MayRaise(value) || ConversionMayRaise(value.type, c.type)) return true;
  return c.not_null && MayBeNull(value, ir, &table);
}

bool IntoMayRaise(const Stmt& s, const std::vector<SqlType>& produced, const ProcedureIr& ir) {
  for (size_t i = 0; i < s.into.size() && i < produced.size(); ++i) {
    const Variable& v = ir.variables[s.into[i]];
    if (ConversionMayRaise(produced[i], v.type)) return true;
    if (v.not_null) return true;
  }
  return false;
}

bool OwnStatementMayAbort(const Stmt& s, const ProcedureIr& ir) {
  // A query plan's reads may raise in ways its expressions do not show (a scalar subquery
  // with two rows, a recursive CTE's type errors).
  if (s.query) return true;
  bool raises = false;
  ForEachOwnExpr(s, [&](const Expr& e) { raises = raises || MayRaise(e); });
  if (raises) return true;
  switch (s.kind) {
    case StmtKind::kAssign: {
      const Variable& v = ir.variables[s.target];
      return v.not_null && MayBeNull(*s.value, ir, nullptr);
    }
    case StmtKind::kForRange: return MayBeNull(*s.lower, ir, nullptr) || MayBeNull(*s.upper, ir, nullptr) || s.step;
    case StmtKind::kForEach: return true;  // a NULL array raises; elements are assigned with casts
    case StmtKind::kRaise: return s.level == RaiseLevel::kException;
    case StmtKind::kSelectInto: {
      if (s.strict) return true;
      std::vector<SqlType> produced;
      for (const auto& c : s.select->columns) produced.push_back(c.type);
      return IntoMayRaise(s, produced, ir);
    }
    case StmtKind::kInsert:
    case StmtKind::kUpdate:
    case StmtKind::kDelete: {
      if (s.kind == StmtKind::kInsert && s.on_conflict == OnConflict::kNone) return true;
      // A foreign key refuses a missing referenced row or a row still referenced.
      if (!s.skips_foreign_keys && (!s.table->foreign_keys.empty() || !s.table->referenced_by.empty())) return true;
      // A UNIQUE index refuses rows (unless DO NOTHING without a target skips them).
      if (s.kind == StmtKind::kInsert && !s.table->unique_indexes.empty() &&
          !(s.on_conflict == OnConflict::kDoNothing && s.conflict_any_index))
        return true;
      for (const auto& [c, e] : s.assignments)
        if (s.table->InUniqueIndex(c)) return true;
      if (s.strict) return true;
      // RETURNING ... INTO of a range write: more than one row raises.
      if (s.kind != StmtKind::kInsert && !s.into.empty() && s.where_key.kind != KeyAccess::Kind::kPoint) return true;
      for (size_t c = 0; c < s.row_values.size(); ++c)
        if (ColumnWriteMayRaise(*s.table, static_cast<int>(c), *s.row_values[c], ir)) return true;
      for (const auto& [c, e] : s.assignments)
        if (ColumnWriteMayRaise(*s.table, c, *e, ir)) return true;
      std::vector<SqlType> produced;
      for (const auto& e : s.returning) produced.push_back(e->type);
      return IntoMayRaise(s, produced, ir);
    }
    case StmtKind::kReturn:
    case StmtKind::kReturnNext:
      return (s.value && !ir.result_columns.empty() && ConversionMayRaise(s.value->type, ir.result_columns[0].type)) ||
             AnyMayRaise(s.args);
    case StmtKind::kReturnQuery: return true;  // result columns are converted
    // Its writes must stay undoable until it ends (the engine cannot take back a
    // published write), and an error it does not catch fails the call.
    case StmtKind::kExceptionBlock: return true;
    default: return false;
  }
}

}  // namespace

bool StatementMayAbort(const Stmt& s, const ProcedureIr& ir) {
  if (OwnStatementMayAbort(s, ir)) return true;
  for (const auto& b : s.blocks)
    for (const auto& n : b)
      if (StatementMayAbort(*n, ir)) return true;
  for (const auto& n : s.else_block)
    if (StatementMayAbort(*n, ir)) return true;
  for (const auto& n : s.body)
    if (StatementMayAbort(*n, ir)) return true;
  return false;
}

}  // namespace caracal::planner
