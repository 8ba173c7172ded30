// System views: catalog facts any client can SELECT like a table (WHERE, ORDER BY,
// aggregates...). They are computed from the catalog when a query reads them and never
// stored in the engine.
//
//   caracal_write_sets (procedure text, statement int, line int, table_name text,
//                       access text, key_class text, key_expr text,
//                       apply_row_update boolean, weight int, note text)
//     one row per statement in a procedure's write set: writes and prefetched reads
//     (plain reads are not part of the write set; EXPLAIN PROCEDURE shows them too).
//
//   caracal_stat_durability (name text, value text)
//     the data directory's input log and checkpoints (Catalog::DurabilityStatus): log
//     bytes and syncs, the last checkpoint's size and time, what recovery did. One row,
//     data_directory = '', for an in-memory database.
#pragma once

#include <string_view>

#include "planner/catalog/catalog.h"

namespace caracal::planner {

// The view called `name`, or nullptr.
const TableInfo* FindSystemView(std::string_view name);
bool IsSystemView(const TableInfo& table);
const TableInfo& WriteSetsView();
const TableInfo& DurabilityView();

}  // namespace caracal::planner
