// RandomDraws: the values random() gives inside one transaction.
//
// A call's input carries a 64-bit seed, drawn when the call is sequenced and logged with
// its arguments (as now() is), so a replay of the input log draws the same values. The
// n-th value drawn at draw site s (a random() call or a user-function call in the body,
// numbered when the procedure is analysed) is a hash of (seed, s, n): it depends only on
// how often that one place has drawn before, not on the order of all draws. That is what
// lets the init program, which evaluates only the slice of the body that keys need,
// compute a key from random() exactly as the body will: it runs the statements a
// random-derived key needs as often as the body runs them (their control flow is
// computable, or the key is not), while draws it skips belong to other sites and change
// nothing it computes. A user function called at site s draws from a child stream whose
// seed hashes (seed, s, n) likewise.
//
// Not PostgreSQL's sequence of values (setseed() is refused): random() is uniform in
// [0, 1) with 53 bits, as PostgreSQL 15's; its values differ between calls and runs.
#pragma once

#include <cstdint>
#include <vector>

namespace caracal::planner {

class RandomDraws {
 public:
  explicit RandomDraws(uint64_t seed) : seed_(seed) {}
  // A stream seeded from the operating system: for reads of the snapshot, whose values
  // need not replay.
  static RandomDraws Unseeded();

  // The next value of site `site` (a negative site counts as site 0), in [0, 1).
  double Next(int site);
  // The stream a user function called at `site` draws from, for its next call there.
  RandomDraws Child(int site);

 private:
  uint64_t Hash(int site, uint64_t domain);

  uint64_t seed_;
  std::vector<uint32_t> counts_;  // per site: values (and child streams) drawn so far
};

}  // namespace caracal::planner
