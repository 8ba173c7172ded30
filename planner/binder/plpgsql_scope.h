// PlpgsqlScope: PL/pgSQL's namespace chain while a procedure body is bound. Names are
// looked up innermost block first: loop variables, then the variables DECLAREd by the
// enclosing blocks, then the parameters (whose block is labelled with the function's
// name, so `fn.param` works; `label.var` names a variable of a labelled block). `$n` is
// the n-th parameter. now() / CURRENT_TIMESTAMP gets its frame slot on first use.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "planner/binder/expr_binder.h"
#include "planner/plan/procedure_ir.h"

namespace caracal::planner {

class PlpgsqlScope : public NameScope {
 public:
  // Frame slots are those of `ir.variables`; NowSlot() may add one to `ir`.
  explicit PlpgsqlScope(ProcedureIr& ir) : ir_(ir) {}

  void PushBlock(std::string label);
  void PopBlock();
  // Declares `name` in the innermost block as frame slot `slot`.
  void Declare(const std::string& name, int slot);
  // The slot `name` resolves to here (innermost first), or -1.
  int Find(const std::string& name) const;
  // Record variable `record`'s fields from here on: `record.name` is the slot.
  void SetRecordFields(const std::string& record, std::vector<std::pair<std::string, int>> fields);
  // Record variable `record`'s fields (name, slot) as they are here; null if it has none.
  const std::vector<std::pair<std::string, int>>* RecordFields(const std::string& record) const {
    auto it = records_.find(record);
    return it == records_.end() ? nullptr : &it->second;
  }
  // Record `record` is NULL as a whole when bool variable `slot` is true (a trigger's NEW
  // in a DELETE, OLD in an INSERT).
  void SetRecordNullFlag(const std::string& record, int slot) { record_null_[record] = slot; }
  std::optional<RecordBinding> LookupRecord(const std::string& name) const override;
  // Array variable `slot` is subscripted from `lower` (TG_ARGV: 0).
  void SetLowerBound(int slot, int lower) { lower_bounds_[slot] = lower; }
  int LowerBound(const Slot& slot) const override {
    auto it = slot.space == SlotSpace::kVariable ? lower_bounds_.find(slot.index) : lower_bounds_.end();
    return it == lower_bounds_.end() ? 1 : it->second;
  }
  // The slots of the parameters in declaration order, for `$n` (all parameter modes).
  void SetPositionalParameters(std::vector<int> slots) { positional_ = std::move(slots); }

  std::optional<NameBinding> Lookup(std::span<const std::string> names, int location) const override;
  std::optional<Slot> NowSlot() const override;
  std::optional<NameBinding> LookupParameter(int number, int location) const override;

 private:
  struct Entry {
    std::string name;
    int slot;
  };
  struct BlockScope {
    std::string label;
    std::vector<Entry> entries;
  };
  NameBinding Binding(int slot) const;

  ProcedureIr& ir_;
  std::vector<BlockScope> blocks_;
  std::vector<int> positional_;
  std::map<std::string, std::vector<std::pair<std::string, int>>> records_;
  std::map<std::string, int> record_null_;
  std::map<int, int> lower_bounds_;
};

}  // namespace caracal::planner
