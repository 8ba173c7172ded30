// ALTER TABLE commands that change a table's layout or key - ADD COLUMN, DROP COLUMN,
// ALTER COLUMN ... TYPE, ADD PRIMARY KEY - rebuild its rows in the new layout, between
// epochs, under the same engine table id (Catalog::RewriteTable). The rebuild reads the
// committed rows once and checks them as PostgreSQL checks a rewritten table: NOT NULL
// (`column "c" of relation "t" contains null values`), CHECK (`... is violated by some
// row`) and the primary key (`could not create unique index "t_pkey"`, DETAIL `Key (a)=(1)
// is duplicated.`); the caller adds UNIQUE indexes afterwards, which check themselves.
// The input log keeps the statement, and replay runs it again on the same rows, so the
// values it computes must not depend on when it runs: an added column's default is one
// value for every row, and one that draws from a sequence or reads the clock is refused.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "engine/types/row_value.h"
#include "planner/catalog/catalog.h"
#include "planner/expr/expr.h"

namespace caracal::planner {

// Where a column of the new layout gets its values from.
struct ColumnOrigin {
  int old_column = -1;  // the old column copied (converted by `convert` if set), or -1: `fill`
  Datum fill;           // ADD COLUMN's default (NULL without one)
  // ALTER COLUMN ... TYPE: the new value over the old row (kColumn slots of the old
  // layout): USING's expression, or the old column cast as an assignment would cast it.
  std::shared_ptr<const Expr> convert;
};

// The committed rows of `old` rebuilt in the layout of `table` (the same table after
// the commands), one origin per column of `table`. A table keyed by its row identity
// keeps each row's identity. Throws the first row's error.
std::vector<engine::RowValuePtr> RewriteRows(Catalog& catalog, const TableInfo& old, const TableInfo& table,
                                             std::span<const ColumnOrigin> origins);

}  // namespace caracal::planner
