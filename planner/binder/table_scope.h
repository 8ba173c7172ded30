// TableScope: the names one table statement sees: the columns of its table (as `col` or
// `ref.col`, ref being the alias or the table name), in INSERT ... ON CONFLICT DO UPDATE
// also `excluded.col` (the row proposed for insertion), and through `outer` (may be
// null) the variables of the enclosing PL/pgSQL procedure. An unqualified name that is
// both a column and a variable is ambiguous (PL/pgSQL's variable_conflict = error).
#pragma once

#include <string>

#include "planner/catalog/catalog.h"
#include "planner/binder/expr_binder.h"

namespace caracal::planner {

class TableScope : public NameScope {
 public:
  TableScope(const TableInfo& table, std::string ref, const NameScope* outer, bool with_excluded = false)
      : table_(table), ref_(std::move(ref)), outer_(outer), with_excluded_(with_excluded) {}

  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override;
  std::optional<Slot> NowSlot() const override { return outer_ ? outer_->NowSlot() : std::nullopt; }
  std::optional<NameBinding> LookupParameter(int number, int location) const override {
    return outer_ ? outer_->LookupParameter(number, location) : std::nullopt;
  }
  std::optional<RecordBinding> LookupRecord(const std::string& name) const override {
    return outer_ ? outer_->LookupRecord(name) : std::nullopt;
  }
  int LowerBound(const Slot& slot) const override { return outer_ ? outer_->LowerBound(slot) : 1; }

 private:
  std::optional<NameBinding> Column(const std::string& name, SlotSpace space) const;

  const TableInfo& table_;
  std::string ref_;
  const NameScope* outer_;
  bool with_excluded_;
};

}  // namespace caracal::planner
