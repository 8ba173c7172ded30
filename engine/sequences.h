// Sequences (CREATE SEQUENCE / nextval): advanced only at sequencing time, serially, in
// submission order, so the values a transaction draws are part of its input.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/procedure.h"

namespace caracal {

class Sequences : public SequenceContext {
 public:
  void Create(const std::string& name, int64_t start = 1, int64_t increment = 1);
  void Drop(std::string_view name);  // throws 42P01 if unknown
  bool Exists(std::string_view name) const;
  int64_t NextVal(std::string_view name) override;
  int64_t CurrVal(std::string_view name) override;

 private:
  struct State {
    int64_t next;
    int64_t increment;
    int64_t last;
  };
  State& Find(std::string_view name);
  std::map<std::string, State, std::less<>> sequences_;
};

}  // namespace caracal
