#include "planner/expr/random_draws.h"

#include <xxhash.h>

#include <cmath>
#include <random>

namespace caracal::planner {

RandomDraws RandomDraws::Unseeded() {
  std::random_device device;
  return RandomDraws((static_cast<uint64_t>(device()) << 32) ^ device());
}

uint64_t RandomDraws::Hash(int site, uint64_t domain) {
  const size_t index = site < 0 ? 0 : static_cast<size_t>(site);
  if (counts_.size() <= index) counts_.resize(index + 1, 0);
  const uint64_t words[3] = {static_cast<uint64_t>(index), counts_[index]++, domain};
  return XXH3_64bits_withSeed(words, sizeof(words), seed_);
}

double RandomDraws::Next(int site) {
  // The top 53 bits, as a double in [0, 1): every value a multiple of 2^-53.
  return std::ldexp(static_cast<double>(Hash(site, 0) >> 11), -53);
}

RandomDraws RandomDraws::Child(int site) { return RandomDraws(Hash(site, 1)); }

}  // namespace caracal::planner
