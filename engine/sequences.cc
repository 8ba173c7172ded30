#include "engine/sequences.h"

#include "engine/errors.h"

namespace caracal {

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
  s.last = s.next;
  s.next += s.increment;
  return s.last;
}

int64_t Sequences::CurrVal(std::string_view name) { return Find(name).last; }

}  // namespace caracal
