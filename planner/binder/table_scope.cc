#include "planner/binder/table_scope.h"

#include <fmt/format.h>

#include "planner/types/sql_error.h"

namespace caracal::planner {

std::optional<NameBinding> TableScope::Column(const std::string& name, SlotSpace space) const {
  int c = table_.ColumnIndex(name);
  if (c < 0) return std::nullopt;
  return NameBinding{Slot{space, c}, table_.columns[c].type};
}

std::optional<NameBinding> TableScope::Lookup(std::span<const std::string> names, int location) const {
  if (names.size() == 1) {
    std::optional<NameBinding> column = Column(names[0], SlotSpace::kColumn);
    std::optional<NameBinding> variable = outer_ ? outer_->Lookup(names, location) : std::nullopt;
    if (column && variable)
      throw SqlError("42702", fmt::format("column reference \"{}\" is ambiguous", names[0]), location)
          .WithDetail("It could refer to either a PL/pgSQL variable or a table column.");
    return column ? column : variable;
  }
  if (names.size() == 2) {
    if (names[0] == ref_) return Column(names[1], SlotSpace::kColumn);
    if (with_excluded_ && names[0] == "excluded") return Column(names[1], SlotSpace::kExcluded);
    if (outer_)
      if (std::optional<NameBinding> variable = outer_->Lookup(names, location)) return variable;
    if (names[0] == table_.name)
      throw SqlError(sqlstate::kUndefinedTable,
                     fmt::format("invalid reference to FROM-clause entry for table \"{}\"", names[0]), location)
          .WithHint(fmt::format("Perhaps you meant to reference the table alias \"{}\".", ref_));
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("missing FROM-clause entry for table \"{}\"", names[0]),
                   location);
  }
  throw NotSupported("a qualified name with schema or catalog", location);
}

}  // namespace caracal::planner
