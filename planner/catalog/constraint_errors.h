// Constraint violations worded as PostgreSQL words them, for every path that writes rows
// (procedures, ad-hoc DML, COPY).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "planner/catalog/catalog.h"
#include "planner/types/datum.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

// 23502 for NULL in not-null column `column` of `table`, with PostgreSQL's DETAIL
// "Failing row contains (1, null, 2.50)." showing `row` (one Datum per column).
SqlError NotNullViolation(const TableInfo& table, int column, std::span<const Datum> row);

// 23514 for `row` (one Datum per column) failing CHECK constraint `constraint`.
SqlError CheckViolation(const TableInfo& table, const std::string& constraint, std::span<const Datum> row);

// "(a, b)=(1, x)": the values of `columns` in `row` (one Datum per column), as
// PostgreSQL shows a key.
std::string KeyValuesText(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row);
// "Key (a, b)=(1, x) already exists.": the DETAIL of a unique violation.
std::string DuplicateKeyDetail(const TableInfo& table, std::span<const int> columns, std::span<const Datum> row);
// 23505 for `row` holding values of `columns` another row holds, under unique
// constraint or index `constraint` (the primary key's is "<table>_pkey").
SqlError UniqueViolation(const TableInfo& table, const std::string& constraint, std::span<const int> columns,
                         std::span<const Datum> row);
SqlError PrimaryKeyViolation(const TableInfo& table, std::span<const Datum> row);

// 23503 for `row` (one Datum per column of `table`) referencing, by foreign key `key`,
// a row its referenced table does not have.
SqlError ForeignKeyMissing(const TableInfo& table, const ForeignKey& key, std::span<const Datum> row);
// 23503 for a row of `table` (`row`: one Datum per column) that `referencing`'s rows
// still reference when it is deleted or its key changes.
SqlError ForeignKeyStillReferenced(const TableInfo& table, const ReferencingKey& referencing, std::span<const Datum> row);

// Raises the first violation, as PostgreSQL orders them (NOT NULL, then the CHECK
// constraints by name), of `row` - the datums and, for the checks, the same row built
// for `schema`: the bulk loads' check (COPY, INSERT ... SELECT between epochs).
void EnforceConstraints(const TableInfo& table, const engine::Schema& schema, const engine::RowValue& built,
                        std::span<const Datum> row);

}  // namespace caracal::planner
