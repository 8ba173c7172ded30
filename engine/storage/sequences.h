// Sequences (CREATE SEQUENCE / nextval): advanced only at sequencing time, serially, in
// submission order, so the values a transaction draws are part of its input.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
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
  int64_t last = 0;       // CurrVal: the last value handed out; == next before the first
                          // (PostgreSQL's is_called false), or when the range is used up
  bool operator==(const SequenceState&) const = default;
};

// The range a sequence draws in (MINVALUE / MAXVALUE) and what it does at its end:
// CYCLE starts again at the other end, NO CYCLE fails the draw with 2200H.
struct SequenceBounds {
  int64_t min = 1;
  int64_t max = std::numeric_limits<int64_t>::max();
  bool cycle = false;
  bool operator==(const SequenceBounds&) const = default;
};

class Sequences : public SequenceContext {
 public:
  // `label` is the name errors give (the catalog's; `name` is the engine's own, which a
  // re-created sequence changes); empty: `name`.
  void Create(const std::string& name, int64_t start = 1, int64_t increment = 1, SequenceBounds bounds = {},
              std::string label = "");
  // ALTER SEQUENCE: a new increment and range, and, if `restart`, the next value to draw.
  // Throws 42P01 if unknown.
  void Configure(std::string_view name, int64_t increment, SequenceBounds bounds, std::optional<int64_t> restart);
  void Drop(std::string_view name);  // throws 42P01 if unknown
  bool Exists(std::string_view name) const;
  // The next value; past the range's end it cycles or throws EngineError 2200H,
  // PostgreSQL's "nextval: reached maximum value of sequence".
  int64_t NextVal(std::string_view name) override;
  int64_t CurrVal(std::string_view name) override;
  // How many values NextVal has handed out, of every sequence (orders draws).
  uint64_t draws() const { return draws_; }

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
    SequenceBounds bounds;
    std::string label;
    bool past_end = false;  // next would be beyond int64: the range is used up
    bool advanced = false;  // listed in advanced_
  };
  State& Find(std::string_view name);
  std::map<std::string, State, std::less<>> sequences_;
  std::vector<std::string> advanced_;  // names NextVal touched since TakeAdvanced
  uint64_t draws_ = 0;
};

}  // namespace caracal::engine
