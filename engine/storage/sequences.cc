#include "engine/storage/sequences.h"

#include "engine/types/errors.h"

namespace caracal::engine {

void Sequences::Create(const std::string& name, int64_t start, int64_t increment) {
  if (!sequences_.emplace(name, State{start, increment, start - increment}).second)
    throw EngineError("42P07", "relation \"" + name + "\" already exists");
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
  if (!s.advanced) {
    s.advanced = true;
    advanced_.emplace_back(name);
  }
  s.last = s.next;
  s.next += s.increment;
  return s.last;
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
}

}  // namespace caracal::engine
