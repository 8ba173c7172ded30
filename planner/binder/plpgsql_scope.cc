#include "planner/binder/plpgsql_scope.h"

#include <fmt/format.h>

#include "planner/types/sql_error.h"

namespace caracal::planner {

void PlpgsqlScope::PushBlock(std::string label) { blocks_.push_back({std::move(label), {}}); }

void PlpgsqlScope::PopBlock() { blocks_.pop_back(); }

void PlpgsqlScope::Declare(const std::string& name, int slot) { blocks_.back().entries.push_back({name, slot}); }

int PlpgsqlScope::Find(const std::string& name) const {
  for (auto b = blocks_.rbegin(); b != blocks_.rend(); ++b)
    for (auto e = b->entries.rbegin(); e != b->entries.rend(); ++e)
      if (e->name == name) return e->slot;
  return -1;
}

NameBinding PlpgsqlScope::Binding(int slot) const {
  return NameBinding{Slot{SlotSpace::kVariable, slot}, ir_.variables[slot].type};
}

std::optional<NameBinding> PlpgsqlScope::Lookup(std::span<const std::string> names, int location) const {
  if (names.size() == 1) {
    int slot = Find(names[0]);
    if (slot < 0) return std::nullopt;
    return Binding(slot);
  }
  if (names.size() == 2) {
    if (auto r = records_.find(names[0]); r != records_.end()) {
      for (const auto& [name, slot] : r->second)
        if (name == names[1]) return Binding(slot);
      throw SqlError(sqlstate::kUndefinedColumn, fmt::format("record \"{}\" has no field \"{}\"", names[0], names[1]), location);
    }
    for (auto b = blocks_.rbegin(); b != blocks_.rend(); ++b) {
      if (b->label != names[0]) continue;
      for (auto e = b->entries.rbegin(); e != b->entries.rend(); ++e)
        if (e->name == names[1]) return Binding(e->slot);
    }
  }
  return std::nullopt;
}

void PlpgsqlScope::SetRecordFields(const std::string& record, std::vector<std::pair<std::string, int>> fields) {
  records_[record] = std::move(fields);
}

std::optional<RecordBinding> PlpgsqlScope::LookupRecord(const std::string& name) const {
  auto r = records_.find(name);
  if (r == records_.end()) return std::nullopt;
  RecordBinding out;
  for (const auto& [field, slot] : r->second) out.fields.emplace_back(field, Binding(slot));
  if (auto n = record_null_.find(name); n != record_null_.end()) out.is_null = Binding(n->second);
  return out;
}

std::optional<Slot> PlpgsqlScope::NowSlot() const { return Slot{SlotSpace::kVariable, ir_.NowVariable()}; }

std::optional<NameBinding> PlpgsqlScope::LookupParameter(int number, int location) const {
  if (number < 1 || number > static_cast<int>(positional_.size())) return std::nullopt;
  return Binding(positional_[number - 1]);
}

}  // namespace caracal::planner
