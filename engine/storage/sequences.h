// Sequences (CREATE SEQUENCE / nextval): advanced only at sequencing time, serially, in
// submission order, so the values a transaction draws are part of its input.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/procedure/procedure.h"

namespace caracal::engine {

// The full state of one sequence, as the input log and checkpoints record it.
struct SequenceState {
  std::string name;
  int64_t next = 1;       // what the next NextVal returns
  int64_t increment = 1;
  int64_t last = 0;       // CurrVal: the last value handed out
  bool operator==(const SequenceState&) const = default;
};

class Sequences : public SequenceContext {
 public:
  void Create(const std::string& name, int64_t start = 1, int64_t increment = 1);
  void Drop(std::string_view name);  // throws 42P01 if unknown
  bool Exists(std::string_view name) const;
  int64_t NextVal(std::string_view name) override;
  int64_t CurrVal(std::string_view name) override;

  // Every sequence, by name (a checkpoint's copy).
  std::vector<SequenceState> States() const;
  // The states of the sequences NextVal advanced since the last call (the input log
  // records them per epoch, so replay restores them without drawing again).
  std::vector<SequenceState> TakeAdvanced();
  // Sets a sequence's state (checkpoint load, log replay). Throws 42P01 if unknown.
  void Restore(const SequenceState& state);

 private:
  struct State {
    int64_t next;
    int64_t increment;
    int64_t last;
    bool advanced = false;  // listed in advanced_
  };
  State& Find(std::string_view name);
  std::map<std::string, State, std::less<>> sequences_;
  std::vector<std::string> advanced_;  // names NextVal touched since TakeAdvanced
};

}  // namespace caracal::engine
