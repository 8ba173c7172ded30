// HiddenScope: the hidden variables a statement the binder derives from the user's binds
// by name (a set-based write's loop values, a data-modifying WITH query's rows), in front
// of the procedure's own names. The names are the binder's, never the user's to write.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/binder/expr_binder.h"
#include "planner/types/sql_error.h"

namespace caracal::planner {

class HiddenScope final : public NameScope {
 public:
  explicit HiddenScope(const NameScope* parent) : parent_(parent) {}
  // `name`, and `qualifier.name` when the qualifier is not empty.
  void Add(std::string qualifier, std::string name, int slot, SqlType type) {
    names_.push_back({std::move(qualifier), std::move(name), {Slot{SlotSpace::kVariable, slot}, type}});
  }
  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override {
    std::optional<NameBinding> found;
    for (const Entry& e : names_) {
      if (!((names.size() == 1 && e.name == names[0]) ||
            (names.size() == 2 && !e.qualifier.empty() && e.qualifier == names[0] && e.name == names[1])))
        continue;
      // A bare name two FROM items offer (u.i and a joined table's i).
      if (found && !(found->slot == e.binding.slot))
        throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", names[0]), location);
      found = e.binding;
    }
    if (found) return found;
    return parent_ ? parent_->Lookup(names, location) : std::nullopt;
  }
  std::optional<Slot> NowSlot() const override { return parent_ ? parent_->NowSlot() : std::nullopt; }
  std::optional<NameBinding> LookupParameter(int number, int location) const override {
    return parent_ ? parent_->LookupParameter(number, location) : std::nullopt;
  }
  std::optional<RecordBinding> LookupRecord(const std::string& name) const override {
    return parent_ ? parent_->LookupRecord(name) : std::nullopt;
  }
  int LowerBound(const Slot& slot) const override { return parent_ ? parent_->LowerBound(slot) : 1; }

 private:
  struct Entry {
    std::string qualifier, name;
    NameBinding binding;
  };
  const NameScope* parent_;
  std::vector<Entry> names_;
};

}  // namespace caracal::planner
