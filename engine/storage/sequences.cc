#include "engine/storage/sequences.h"

#include <fmt/format.h>

#include "engine/types/errors.h"

namespace caracal::engine {

void Sequences::Create(const std::string& name, int64_t start, int64_t increment, SequenceBounds bounds,
                       std::string label) {
  // Never drawn from: next == last (PostgreSQL's is_called false).
  State s{start, increment, start, bounds, label.empty() ? name : std::move(label)};
  if (!sequences_.emplace(name, std::move(s)).second)
    throw EngineError("42P07", "relation \"" + name + "\" already exists");
}

void Sequences::Configure(std::string_view name, int64_t increment, SequenceBounds bounds,
                          std::optional<int64_t> restart) {
  State& s = Find(name);
  s.increment = increment;
  s.bounds = bounds;
  if (restart) {
    s.next = s.last = *restart;
    s.past_end = false;
  } else if (!s.past_end && s.last != s.next) {
    // Drawn from: the next draw follows the last one by the new increment, as in
    // PostgreSQL.
    int64_t next = 0;
    s.past_end = __builtin_add_overflow(s.last, increment, &next);
    s.next = s.past_end ? s.last : next;
  }
  if (!s.advanced) {
    s.advanced = true;
    advanced_.emplace_back(name);
  }
}

void Sequences::Drop(std::string_view name) {
  auto it = sequences_.find(name);
  if (it == sequences_.end()) throw EngineError("42P01", "relation \"" + std::string(name) + "\" does not exist");
  sequences_.erase(it);
}

bool Sequences::Exists(std::string_view name) const { return sequences_.find(name) != sequences_.end(); }

Sequences::State& Sequences::Find(std::string_view name) {
  auto it = sequences_.find(name);
  if (it == sequences_.end()) throw EngineError("42P01", "relation \"" + std::string(name) + "\" does not exist");
  return it->second;
}

int64_t Sequences::NextVal(std::string_view name) {
  State& s = Find(name);
  int64_t v = s.next;
  if (s.past_end || v > s.bounds.max || v < s.bounds.min) {
    const bool up = s.increment > 0;
    if (!s.bounds.cycle)
      throw EngineError("2200H", fmt::format("nextval: reached {} value of sequence \"{}\" ({})", up ? "maximum" : "minimum",
                                             s.label, up ? s.bounds.max : s.bounds.min));
    v = up ? s.bounds.min : s.bounds.max;
  }
  if (!s.advanced) {
    s.advanced = true;
    advanced_.emplace_back(name);
  }
  s.last = v;
  ++draws_;
  s.past_end = __builtin_add_overflow(v, s.increment, &s.next);
  if (s.past_end) s.next = v;
  return v;
}

int64_t Sequences::CurrVal(std::string_view name) { return Find(name).last; }

std::vector<SequenceState> Sequences::States() const {
  std::vector<SequenceState> out;
  for (const auto& [name, s] : sequences_) out.push_back({name, s.next, s.increment, s.last});
  return out;
}

std::vector<SequenceState> Sequences::TakeAdvanced() {
  std::vector<SequenceState> out;
  for (const std::string& name : advanced_) {
    auto it = sequences_.find(name);
    if (it == sequences_.end()) continue;
    it->second.advanced = false;
    out.push_back({name, it->second.next, it->second.increment, it->second.last});
  }
  advanced_.clear();
  return out;
}

void Sequences::Restore(const SequenceState& state) {
  State& s = Find(state.name);
  s.next = state.next;
  s.increment = state.increment;
  s.last = state.last;
  // NextVal leaves next == last only when the step after last leaves int64.
  int64_t beyond = 0;
  s.past_end = s.next == s.last && __builtin_add_overflow(s.last, s.increment, &beyond);
}

}  // namespace caracal::engine
