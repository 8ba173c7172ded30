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

#include "engine/key.h"
#include "planner/catalog.h"
#include "planner/expr.h"
#include "planner/expr_eval.h"

namespace caracal::planner {

struct KeyBound {
  const Expr* value = nullptr;  // owned by the WHERE clause; no column slots
  bool inclusive = true;
};

struct AccessPath {
  enum class Kind : uint8_t { kFullScan, kPointRead, kRangeScan };
  Kind kind = Kind::kFullScan;
  std::vector<const Expr*> prefix;  // equality values for primary-key columns 0..n-1
  std::optional<KeyBound> lower, upper;  // on primary-key column prefix.size()

  std::string Describe() const;  // "point read", "range scan (prefix 1, lower bound)", "full scan"
};

// Appends the key encoding of `v` (non-null, of `c`'s type family) for column `c`; false
// if it cannot be represented exactly (a read then widens its path; a write is refused).
bool AppendKeyValue(Key& key, const Datum& v, const CatalogColumn& c);

// Chooses a path from the conjuncts of `where` (may be null).
AccessPath ChooseAccessPath(const Expr* where, const TableInfo& table);

// The concrete keys of a path, its bound values evaluated in `ctx`.
struct KeyRange {
  bool point = false;
  bool empty = false;  // a bound is NULL: no row can qualify
  Key lo, hi;          // point: lo is the key; range: [lo, hi), empty hi = unbounded
};
KeyRange ResolveAccessPath(const AccessPath& path, const TableInfo& table, const EvalContext& ctx);

}  // namespace caracal::planner
