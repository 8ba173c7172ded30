// Access path selection for a one-table read: which part of the primary index a WHERE
// clause confines the rows to. Equality on every primary-key column is a point read;
// equality on a key prefix, optionally with a range on the next key column, is a range
// scan; anything else scans the table. The WHERE clause is still evaluated on every row
// the path yields: the path only prunes, so a bound we cannot encode exactly simply
// widens the path (or falls back to a scan) without changing the answer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/types/key.h"
#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"
#include "planner/expr/expr_eval.h"

namespace caracal::planner {

struct KeyBound {
  const Expr* value = nullptr;  // owned by the WHERE clause; no column slots
  bool inclusive = true;
};

struct AccessPath {
  // kIndexScan: a range of secondary index `index` (equality on a prefix of its
  // columns, optionally bounds on the next): rows come in index order.
  enum class Kind : uint8_t { kFullScan, kPointRead, kRangeScan, kIndexScan };
  Kind kind = Kind::kFullScan;
  int index = -1;                   // kIndexScan: engine secondary-index position
  std::vector<int> key_columns;     // the key's columns: the primary key's or the index's
  std::vector<const Expr*> prefix;  // equality values for key_columns 0..n-1
  std::optional<KeyBound> lower, upper;  // on key column prefix.size()
  // The WHERE conjuncts a primary-key path decides by itself when its key range resolves
  // exactly (KeyRange::exact): every row in the range satisfies them and no row outside
  // does, so they need not be evaluated per row. Empty for index scans, whose entries are
  // re-checked against the row.
  std::vector<const Expr*> decided;

  std::string Describe() const;  // "point read", "range scan (prefix 1, lower bound)", "full scan"
};

// Appends the key encoding of `v` (non-null, of `c`'s type family) for column `c`; false
// if it cannot be represented exactly (a read then widens its path; a write is refused).
bool AppendKeyValue(engine::Key& key, const Datum& v, const CatalogColumn& c);

// Appends the conjuncts of `e` (its AND's arguments, recursively; else `e` itself) to `out`.
void Conjuncts(const Expr* e, std::vector<const Expr*>& out);

// Chooses a path from the conjuncts of `where` (may be null). With `catalog`, a secondary
// index is chosen when it fixes more of its key than the primary key does.
AccessPath ChooseAccessPath(const Expr* where, const TableInfo& table, const Catalog* catalog = nullptr);

// The concrete keys of a path, its bound values evaluated in `ctx`.
struct KeyRange {
  bool point = false;  // kPointRead only (an index key need not be unique)
  bool empty = false;  // a bound is NULL: no row can qualify
  // Every value of the path was encoded as it is (none was widened away): the range holds
  // exactly the rows satisfying AccessPath::decided.
  bool exact = false;
  engine::Key lo, hi;          // point: lo is the key; range: [lo, hi), empty hi = unbounded
};
KeyRange ResolveAccessPath(const AccessPath& path, const TableInfo& table, const EvalContext& ctx);

// The conjuncts of `where` other than `path.decided`, copied and ANDed: what a row of an
// exact range still has to satisfy. Null when nothing is left.
ExprPtr ResidualWhere(const Expr& where, const AccessPath& path);

}  // namespace caracal::planner
