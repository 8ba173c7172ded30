#include "planner/plan/access_path.h"

#include <algorithm>

#include <fmt/format.h>

namespace caracal::planner {

namespace {

struct Predicate {
  int column;
  Op op;
  const Expr* value;
  const Expr* conjunct;  // the comparison itself
};

Op Flip(Op op) {
  switch (op) {
    case Op::kLt: return Op::kGt;
    case Op::kLe: return Op::kGe;
    case Op::kGt: return Op::kLt;
    case Op::kGe: return Op::kLe;
    default: return op;
  }
}

bool IsBareColumn(const Expr& e) { return e.kind == ExprKind::kSlot && e.slot.space == SlotSpace::kColumn; }

// A volatile comparand (random()) is compared with each row, as PostgreSQL does: it is no key.
bool IsRowIndependent(const Expr& e) {
  return !e.References(SlotSpace::kColumn) && !e.ContainsAggregate() && !e.DrawsRandom();
}

std::optional<Predicate> AsPredicate(const Expr* e) {
  if (e->kind != ExprKind::kCompare || e->op == Op::kNe) return std::nullopt;
  const Expr& l = *e->args[0];
  const Expr& r = *e->args[1];
  if (IsBareColumn(l) && IsRowIndependent(r)) return Predicate{l.slot.index, e->op, &r, e};
  if (IsBareColumn(r) && IsRowIndependent(l)) return Predicate{r.slot.index, Flip(e->op), &l, e};
  return std::nullopt;
}

// Whether the key encoding of a column preserves the comparison the WHERE clause makes
// on it (bpchar compares blank-insensitively, so only equality is usable there).
bool Encodable(const CatalogColumn& c, Op op) {
  if (c.type.id == TypeId::kBpchar) return op == Op::kEq;
  return true;
}

// Whether a key range over `c` decides a comparison exactly: the encoding orders values
// as the comparison does and equal values encode alike. Not floats, where -0 = 0 and the
// comparison's NaN ordering is PostgreSQL's.
bool DecidesExactly(const CatalogColumn& c) {
  switch (c.type.id) {
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8:
    case TypeId::kEnum:
    case TypeId::kNumeric:
    case TypeId::kBool:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kUuid:
    case TypeId::kBytea:
    case TypeId::kBpchar:
    case TypeId::kVarchar:
    case TypeId::kText: return true;
    default: return false;
  }
}

}  // namespace

void Conjuncts(const Expr* e, std::vector<const Expr*>& out) {
  if (e->kind == ExprKind::kAnd) {
    for (const auto& a : e->args) Conjuncts(a.get(), out);
  } else {
    out.push_back(e);
  }
}

bool AppendKeyValue(engine::Key& key, const Datum& v, const CatalogColumn& c) {
  switch (c.type.id) {
    case TypeId::kInt2:
    case TypeId::kInt4:
    case TypeId::kInt8: {
      if (v.kind != Datum::Kind::kInt) return false;
      int64_t lo = c.type.id == TypeId::kInt2 ? INT16_MIN : c.type.id == TypeId::kInt4 ? INT32_MIN : INT64_MIN;
      int64_t hi = c.type.id == TypeId::kInt2 ? INT16_MAX : c.type.id == TypeId::kInt4 ? INT32_MAX : INT64_MAX;
      if (v.i < lo || v.i > hi) return false;
      key.AppendInt(v.i, c.type.id == TypeId::kInt2 ? engine::ColumnType::kSmallInt
                         : c.type.id == TypeId::kInt4 ? engine::ColumnType::kInteger
                                                      : engine::ColumnType::kBigInt);
      return true;
    }
    case TypeId::kFloat4:
    case TypeId::kFloat8:
      if (v.kind != Datum::Kind::kFloat || std::isnan(v.f)) return false;
      key.AppendDouble(v.f);
      return true;
    case TypeId::kNumeric: {
      if (v.kind != Datum::Kind::kNumeric) return false;
      if (IsDecimalTextNumeric(c.type)) {
        key.AppendDecimal(v.n.ToString());  // keyed by numeric equality, as its column
        return true;
      }
      if (v.n.scale() > c.type.scale && Compare(v.n.Rescale(c.type.scale), v.n) != 0) return false;
      Numeric r = v.n.Rescale(c.type.scale);
      if (r.mantissa() > INT64_MAX || r.mantissa() < INT64_MIN) return false;
      key.AppendInt(static_cast<int64_t>(r.mantissa()), engine::ColumnType::kBigInt);
      return true;
    }
    case TypeId::kBool:
      if (v.kind != Datum::Kind::kBool) return false;
      key.AppendBool(v.as_bool());
      return true;
    case TypeId::kEnum:  // the label's position, in its integer column
      if (v.kind != Datum::Kind::kInt) return false;
      key.AppendInt(v.i, engine::ColumnType::kInteger);
      return true;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kDate:
    case TypeId::kTime:
      if (v.kind != Datum::Kind::kTimestamp) return false;
      key.AppendInt(v.i, engine::ColumnType::kBigInt);
      return true;
    case TypeId::kUuid:
    case TypeId::kBytea:
    case TypeId::kJsonb:
      if (v.kind != Datum::Kind::kString) return false;
      key.AppendString(v.s);
      return true;
    case TypeId::kBpchar: {
      if (v.kind != Datum::Kind::kString) return false;
      std::string s(StripTrailingBlanks(v.s));
      int64_t len = CharLength(s);
      if (c.type.precision > 0) {
        if (len > c.type.precision) return false;
        s.append(c.type.precision - len, ' ');
      }
      key.AppendString(s);
      return true;
    }
    case TypeId::kVarchar:
    case TypeId::kText:
      if (v.kind != Datum::Kind::kString) return false;
      key.AppendString(v.s);
      return true;
    default: return false;
  }
}

std::string AccessPath::Describe() const {
  switch (kind) {
    case Kind::kPointRead: return "point read";
    case Kind::kFullScan: return "full scan";
    case Kind::kRangeScan:
      return fmt::format("range scan (prefix {}{}{})", prefix.size(), lower ? ", lower bound" : "",
                         upper ? ", upper bound" : "");
    case Kind::kIndexScan:
      return fmt::format("index scan (index #{}, prefix {}{}{})", index, prefix.size(), lower ? ", lower bound" : "",
                         upper ? ", upper bound" : "");
  }
  return "?";
}

namespace {

// Equality on a prefix of `columns`, then bounds on the next column.
AccessPath PathOver(const std::vector<Predicate>& preds, const TableInfo& table, const std::vector<int>& columns) {
  AccessPath path;
  path.key_columns = columns;
  for (int col_index : columns) {
    const CatalogColumn& col = table.columns[col_index];
    const Predicate* eq = nullptr;
    for (const Predicate& p : preds)
      if (p.column == col_index && p.op == Op::kEq) eq = &p;
    if (eq) {
      path.prefix.push_back(eq->value);
      if (DecidesExactly(col)) path.decided.push_back(eq->conjunct);
      continue;
    }
    for (const Predicate& p : preds) {
      if (p.column != col_index || !Encodable(col, p.op)) continue;
      bool used = false;
      if ((p.op == Op::kGt || p.op == Op::kGe) && !path.lower) {
        path.lower = KeyBound{p.value, p.op == Op::kGe};
        used = true;
      }
      if ((p.op == Op::kLt || p.op == Op::kLe) && !path.upper) {
        path.upper = KeyBound{p.value, p.op == Op::kLe};
        used = true;
      }
      if (used && DecidesExactly(col)) path.decided.push_back(p.conjunct);
    }
    break;
  }
  return path;
}

int Score(const AccessPath& p) { return static_cast<int>(p.prefix.size()) * 2 + (p.lower || p.upper ? 1 : 0); }

}  // namespace

AccessPath ChooseAccessPath(const Expr* where, const TableInfo& table, const Catalog* catalog) {
  std::vector<Predicate> preds;
  if (where) {
    std::vector<const Expr*> conjuncts;
    Conjuncts(where, conjuncts);
    for (const Expr* c : conjuncts)
      if (auto p = AsPredicate(c)) preds.push_back(*p);
  }
  AccessPath path = PathOver(preds, table, table.primary_key);
  // A table keyed by its hidden row identity has no key a WHERE can fix.
  if (!table.HasRowIdentity() && path.prefix.size() == table.primary_key.size()) {
    path.kind = AccessPath::Kind::kPointRead;
    return path;
  }
  if (!path.prefix.empty() || path.lower || path.upper) path.kind = AccessPath::Kind::kRangeScan;
  if (catalog == nullptr) return path;
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const IndexInfo* index = catalog->FindIndex(table.indexes[i]);
    if (index == nullptr) continue;
    AccessPath candidate = PathOver(preds, table, index->columns);
    if (Score(candidate) <= Score(path)) continue;
    candidate.kind = AccessPath::Kind::kIndexScan;
    candidate.index = index->engine_index;
    candidate.decided.clear();
    path = std::move(candidate);
  }
  return path;
}

KeyRange ResolveAccessPath(const AccessPath& path, const TableInfo& table, const EvalContext& ctx) {
  KeyRange range;
  if (path.kind == AccessPath::Kind::kFullScan) return range;
  const std::vector<int>& columns = path.key_columns.empty() ? table.primary_key : path.key_columns;
  engine::Key prefix;
  size_t usable = 0;
  for (; usable < path.prefix.size(); ++usable) {
    Datum v = Eval(*path.prefix[usable], ctx);
    if (v.is_null()) {
      range.empty = true;
      return range;
    }
    if (!AppendKeyValue(prefix, v, table.columns[columns[usable]])) break;
  }
  if (path.kind == AccessPath::Kind::kPointRead && usable == columns.size()) {
    range.point = true;
    range.exact = true;
    range.lo = std::move(prefix);
    return range;
  }
  range.lo = prefix;
  range.hi = prefix.empty() ? engine::Key() : prefix.PrefixSuccessor();
  if (usable < path.prefix.size()) return range;  // a widened prefix: not exact
  range.exact = true;
  if (usable >= columns.size()) return range;  // no bound column left
  const CatalogColumn& next = table.columns[columns[usable]];
  if (path.lower) {
    Datum v = Eval(*path.lower->value, ctx);
    if (v.is_null()) {
      range.empty = true;
      return range;
    }
    engine::Key k = prefix;
    if (AppendKeyValue(k, v, next)) range.lo = path.lower->inclusive ? k : k.PrefixSuccessor();
    else range.exact = false;
  }
  if (path.upper) {
    Datum v = Eval(*path.upper->value, ctx);
    if (v.is_null()) {
      range.empty = true;
      return range;
    }
    engine::Key k = prefix;
    if (AppendKeyValue(k, v, next)) range.hi = path.upper->inclusive ? k.PrefixSuccessor() : k;
    else range.exact = false;
  }
  return range;
}

ExprPtr ResidualWhere(const Expr& where, const AccessPath& path) {
  std::vector<const Expr*> conjuncts;
  Conjuncts(&where, conjuncts);
  std::vector<ExprPtr> left;
  for (const Expr* c : conjuncts)
    if (std::find(path.decided.begin(), path.decided.end(), c) == path.decided.end()) left.push_back(c->Clone());
  if (left.empty()) return nullptr;
  if (left.size() == 1) return std::move(left[0]);
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kAnd;
  e->type = where.type;
  e->location = where.location;
  e->args = std::move(left);
  return e;
}

}  // namespace caracal::planner
